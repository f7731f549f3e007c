import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Api = ReturnType<typeof createClient<paths>>;
export type Alert = components['schemas']['AlertView'];
export type Database = components['schemas']['DatabaseDto'];
export type Tokens = components['schemas']['TokenResponseDto'];

/** The header with which the console asks the gateway to keep its refresh token in an httpOnly cookie. */
export const REFRESH_COOKIE_HEADERS = { 'X-Vigil-Refresh': 'cookie' } as const;

/**
 * The typed client of the public API (same origin). The access token lives in memory only, never in
 * storage: `token()` is read for every call, and a 401 on a signed-in call ends the session.
 */
export function createApi(token: () => string | undefined, onUnauthorized: () => void): Api {
  const api = createClient<paths>({ baseUrl: '/', headers: { Accept: 'application/json' } });
  const auth: Middleware = {
    onRequest({ request }) {
      const value = token();
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401 && token()) onUnauthorized();
      return response;
    },
  };
  api.use(auth);
  return api;
}
