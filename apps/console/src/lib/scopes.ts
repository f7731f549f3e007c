/**
 * What the signed-in user may do, read from the access token's `scope` claim (space-separated; `admin`
 * grants every scope). Only to show or hide pages and actions: the API checks every call itself.
 */
export type Scopes = ReadonlySet<string>;

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(segment.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The scopes an access token (JWT) carries; none for anything unreadable. */
export function scopesOfToken(token: string | undefined): Scopes {
  const payload = token?.split('.')[1];
  if (!payload) return new Set();
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(payload));
    const scope = typeof claims === 'object' && claims !== null ? (claims as { scope?: unknown }).scope : undefined;
    return new Set(typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);
  } catch {
    return new Set();
  }
}

export function hasScope(scopes: Scopes, needed: string): boolean {
  return scopes.has('admin') || scopes.has(needed);
}
