import type { TokenResponse } from '@vigil/contracts';
import { CommonErrorCode, DomainException } from '@vigil/platform';
import type { Request, Response } from 'express';
import { UNAUTHORIZED_HEADERS } from './authenticator';

/**
 * The refresh token of a browser application (the console) kept in a cookie instead of its memory:
 * httpOnly (no script reads it), SameSite=Strict, Secure over https, sent only to the refresh
 * endpoint. A request asks for it with `X-Vigil-Refresh: cookie`; using it needs that header too, which
 * a cross-site form cannot send and a cross-origin script can send only after a CORS preflight the
 * gateway never grants, and an Origin, when the browser sends one, equal to the gateway's own.
 */
export const REFRESH_COOKIE = 'vigil_refresh';
export const REFRESH_COOKIE_HEADER = 'X-Vigil-Refresh';
export const REFRESH_COOKIE_PATH = '/v1/auth/refresh';

export type CookieRequest = Pick<Request, 'headers' | 'protocol' | 'get'>;
export type CookieResponse = Pick<Response, 'cookie' | 'clearCookie'>;

export function wantsRefreshCookie(req: CookieRequest): boolean {
  return req.get(REFRESH_COOKIE_HEADER)?.trim().toLowerCase() === 'cookie';
}

function options(req: CookieRequest) {
  return { httpOnly: true, sameSite: 'strict' as const, secure: req.protocol === 'https', path: REFRESH_COOKIE_PATH };
}

/** Puts the refresh token into the cookie and leaves it out of the answer. */
export function setRefreshCookie(req: CookieRequest, res: CookieResponse, tokens: TokenResponse): Partial<TokenResponse> {
  // A browser-session cookie: the server's refresh token lifetime is the authority on expiry.
  res.cookie(REFRESH_COOKIE, tokens.refresh_token, options(req));
  const { refresh_token: _kept, ...rest } = tokens;
  return rest;
}

export function clearRefreshCookie(req: CookieRequest, res: CookieResponse): void {
  res.clearCookie(REFRESH_COOKIE, options(req));
}

/** The refresh token from the cookie, after the checks that keep other sites from using it. */
export function refreshFromCookie(req: CookieRequest): string {
  const value = cookieValue(req, REFRESH_COOKIE);
  if (!wantsRefreshCookie(req)) {
    // An API client that forgot the token: the validation error it always had.
    if (!value) throw new DomainException(400, CommonErrorCode.ValidationFailed, 'refresh_token is required.', [{ field: 'refresh_token', message: 'refresh_token must be a string' }]);
    throw new DomainException(403, CommonErrorCode.Forbidden, `Using the refresh cookie needs the header \`${REFRESH_COOKIE_HEADER}: cookie\`; API clients send refresh_token in the body.`);
  }
  const origin = req.get('origin');
  if (origin !== undefined && origin !== `${req.protocol}://${req.get('host') ?? ''}`) {
    throw new DomainException(403, CommonErrorCode.Forbidden, 'The refresh cookie is only accepted from the gateway\'s own origin.');
  }
  if (!value) throw new DomainException(401, CommonErrorCode.Unauthorized, 'No refresh token: none in the body and no refresh cookie.', undefined, UNAUTHORIZED_HEADERS);
  return value;
}

function cookieValue(req: CookieRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      const raw = part.slice(i + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}
