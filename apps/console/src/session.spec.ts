import type { Api } from './api/client';

type Session = typeof import('./session');
type Prefetch = typeof import('./lib/prefetch');

/** A fresh copy of the session module (it starts once per page) and of the calls started ahead. */
async function fresh(): Promise<{ session: Session; prefetch: Prefetch }> {
  let modules: { session: Session; prefetch: Prefetch } | undefined;
  await jest.isolateModulesAsync(async () => {
    modules = { session: await import('./session'), prefetch: await import('./lib/prefetch') };
  });
  return modules!;
}

/** An access token whose payload carries `scope` (the console reads it, never verifies it). */
const tokenWith = (scope: string) => `h.${Buffer.from(JSON.stringify({ scope })).toString('base64url')}.s`;

/** A stand-in for the API client: records each call with the token it would carry, answers `refresh` to the refresh. */
function fakeApi(refresh: { data?: unknown }, token: () => string | undefined, calls: string[]): Api {
  const answer = (method: string) => async (path: string) => {
    calls.push(`${method} ${path} ${token() ?? '-'}`);
    return path === '/v1/auth/refresh' ? { ...refresh, response: new Response(null) } : { data: {}, response: new Response(null) };
  };
  return { GET: answer('GET'), POST: answer('POST') } as unknown as Api;
}

describe('resuming the session as the console starts', () => {
  it("on the Overview, starts the Overview's calls with the new token as soon as the refresh answers, once", async () => {
    const { session, prefetch } = await fresh();
    const calls: string[] = [];
    const tokens = { access_token: tokenWith('admin'), expires_in: 900, token_type: 'Bearer' };
    session.resumeSession('/', (token) => fakeApi({ data: tokens }, token, calls));
    session.resumeSession('/', (token) => fakeApi({ data: tokens }, token, calls));
    expect(session.resumedAlready()).toBeUndefined();
    const resume = session.takeResume();
    expect(session.takeResume()).toBeUndefined();
    await expect(resume).resolves.toEqual({ data: tokens });
    expect(session.resumedAlready()).toEqual({ data: tokens });
    expect(calls).toEqual([
      'POST /v1/auth/refresh -',
      `POST /v1/events/aggregate ${tokens.access_token}`,
      `GET /v1/policies ${tokens.access_token}`,
      `GET /v1/alerts/counts ${tokens.access_token}`,
      `GET /v1/databases ${tokens.access_token}`,
    ]);
    for (const key of ['overview:event-rate:hour', 'overview:most-violated', 'overview:true:true']) expect(prefetch.takePrefetched(key)).toBeDefined();
  });

  it('asks only for what the scopes allow', async () => {
    const { session } = await fresh();
    const calls: string[] = [];
    const tokens = { access_token: tokenWith('read:alerts'), expires_in: 900, token_type: 'Bearer' };
    session.resumeSession('/', (token) => fakeApi({ data: tokens }, token, calls));
    await session.takeResume();
    expect(calls.map((call) => call.split(' ').slice(0, 2).join(' '))).toEqual(['POST /v1/auth/refresh', 'GET /v1/alerts/counts']);
  });

  it('on another page, or without a session, only refreshes', async () => {
    for (const [path, answer] of [['/alerts/alt_1', { data: { access_token: tokenWith('admin'), expires_in: 900, token_type: 'Bearer' } }], ['/', {}]] as const) {
      const { session } = await fresh();
      const calls: string[] = [];
      session.resumeSession(path, (token) => fakeApi(answer, token, calls));
      await expect(session.takeResume()).resolves.toEqual(answer);
      expect(session.resumedAlready()).toEqual(answer);
      expect(calls).toEqual(['POST /v1/auth/refresh -']);
    }
  });

  it('counts a failed network as no session', async () => {
    const { session } = await fresh();
    session.resumeSession('/', () => ({ POST: () => Promise.reject(new TypeError('fetch failed')) }) as unknown as Api);
    await expect(session.takeResume()).resolves.toEqual({});
    expect(session.resumedAlready()).toEqual({});
  });
});
