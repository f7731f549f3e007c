import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A base64url SHA-256: 43 characters, no padding. */
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isS256Challenge(challenge: string | undefined): challenge is string {
  return typeof challenge === 'string' && S256_CHALLENGE.test(challenge);
}

/** Only S256 is accepted (RFC 9700 2.1.1: `plain` protects nothing once the request leaks). */
export function verifyPkce(verifier: string | undefined, challenge: string): boolean {
  if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares two secrets' hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Redirect URIs a client may register: absolute, no fragment (RFC 6749 3.1.2), no credentials,
 * and https unless the host is a loopback address (native apps, RFC 8252 7.3). Authorization
 * requests must then name one of them exactly, character for character (RFC 9700 4.1.3).
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && loopback) return null;
  return 'must use https (http only for localhost, 127.0.0.1 or [::1])';
}
