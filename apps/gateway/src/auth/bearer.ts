/**
 * The credential of `Authorization: Bearer <credential>` (RFC 6750 2.1 syntax), or undefined. The
 * only place a credential is read from: never the query string or the body (RFC 6750 2.2/2.3 are
 * not supported), so credentials stay out of URLs and access logs.
 */
export function bearerCredential(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match?.[1];
}
