import { type Api, createApi, REFRESH_COOKIE_HEADERS, type Tokens } from './api/client';
import { prefetchOverview } from './lib/overview-data';
import { routeFor } from './lib/routes';
import { scopesOfToken } from './lib/scopes';
import { acrossTabs, REFRESH_LOCK } from './lib/tab-lock';

export type RefreshAnswer = { data?: Tokens };

/**
 * New tokens from the refresh cookie. One refresh at a time across the tabs of this browser: they
 * share the cookie, whose token works once, so each refresh holds a Web Lock and the next tab's
 * starts only once the rotated cookie is stored.
 */
export const refreshAcrossTabs = (api: Api): Promise<RefreshAnswer> =>
  acrossTabs(REFRESH_LOCK, () => api.POST('/v1/auth/refresh', { body: {}, headers: REFRESH_COOKIE_HEADERS }));

let started = false;
let pending: Promise<RefreshAnswer> | undefined;
let answered: RefreshAnswer | undefined;

/**
 * Resumes a returning user's session as the console's first script runs, before React and the
 * pages are even loaded: the refresh is in flight while they load and render, and on `/` the
 * Overview's calls start the moment the tokens arrive (with them; the App takes the tokens over).
 * A network failure counts as no session, as the App's own refresh treats it.
 */
export function resumeSession(path = window.location.pathname, client: (token: () => string | undefined) => Api = (token) => createApi(token, () => undefined)): void {
  if (started) return;
  started = true;
  let access: string | undefined;
  const api = client(() => access);
  pending = refreshAcrossTabs(api).then(
    (answer) => {
      if (answer.data) {
        access = answer.data.access_token;
        if (routeFor(path).page === 'overview') prefetchOverview(api, scopesOfToken(access));
      }
      answered = { ...(answer.data ? { data: answer.data } : {}) };
      return answered;
    },
    () => (answered = {}),
  );
}

/** The resume's answer if it has already arrived (the App then starts signed in, or at sign-in). */
export const resumedAlready = (): RefreshAnswer | undefined => answered;

/** The resume started by `resumeSession`, once: later refreshes are the App's own. */
export function takeResume(): Promise<RefreshAnswer> | undefined {
  const started = pending;
  pending = undefined;
  return started;
}
