import { http } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const COOKIE_MODE = { 'X-Vigil-Refresh': 'cookie' };

/** The `vigil_refresh=<value>` pair of a Set-Cookie header, and its attributes in lower case. */
function refreshCookie(headers: Headers): { pair: string; value: string; attributes: string[] } | undefined {
  const line = headers.getSetCookie().find((cookie) => cookie.startsWith('vigil_refresh='));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  return { pair: pair!, value: pair!.slice('vigil_refresh='.length), attributes: attributes.map((attribute) => attribute.toLowerCase()) };
}

/**
 * The console's refresh token in an httpOnly cookie (docs/access.md, "The browser session"): asked
 * for with `X-Vigil-Refresh: cookie`, used by POST /v1/auth/refresh only with that header and from
 * the gateway's own origin, cleared by logout, whose session is revoked. API clients that send no
 * header keep the refresh token in the JSON answer.
 */
describe('the refresh cookie', () => {
  let system: TestSystem;
  let base: string;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { TRUST_PROXY: '127.0.0.1/32' } });
    base = system.gatewayUrl;
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  const signIn = () => http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword }, headers: COOKIE_MODE });

  it('is set by a login that asks for it, httpOnly, SameSite=Strict, scoped to the refresh path, not Secure over http, and kept out of the answer', async () => {
    const response = await signIn();
    expect(response.status).toBe(200);
    expect(response.body.access_token).toEqual(expect.any(String));
    expect(response.body).not.toHaveProperty('refresh_token');
    const cookie = refreshCookie(response.headers);
    expect(cookie?.value).toMatch(/.{20,}/);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/v1/auth/refresh']));
    expect(cookie?.attributes).not.toContain('secure');
  });

  it('is Secure when the request came over https (through a trusted proxy)', async () => {
    // The test system trusts the loopback proxy; X-Forwarded-Proto says the client used https.
    const response = await http(base, 'POST', '/v1/auth/login', {
      body: { email: 'admin@example.com', password: system.adminPassword },
      headers: { ...COOKIE_MODE, 'X-Forwarded-Proto': 'https' },
    });
    expect(response.status).toBe(200);
    expect(refreshCookie(response.headers)?.attributes).toContain('secure');
  });

  it('is not set for API clients, which keep the refresh token in the JSON answer', async () => {
    const response = await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword } });
    expect(response.status).toBe(200);
    expect(response.body.refresh_token).toEqual(expect.any(String));
    expect(refreshCookie(response.headers)).toBeUndefined();
    const refreshed = await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: response.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toEqual(expect.any(String));
    expect(refreshCookie(refreshed.headers)).toBeUndefined();
  });

  it('refreshes with the cookie and the header, rotating the cookie; the old value then fails', async () => {
    const first = refreshCookie((await signIn()).headers)!;
    const refreshed = await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: { ...COOKIE_MODE, cookie: first.pair, origin: base } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).toEqual(expect.any(String));
    expect(refreshed.body).not.toHaveProperty('refresh_token');
    const second = refreshCookie(refreshed.headers)!;
    expect(second.value).not.toBe(first.value);
    expect(second.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/v1/auth/refresh']));
    const access = await http(base, 'GET', '/v1/users', { token: refreshed.body.access_token });
    expect(access.status).toBe(200);
    // Reusing a rotated refresh token is refused (and revokes the session); the cookie is cleared.
    const reused = await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: { ...COOKIE_MODE, cookie: first.pair } });
    expect(reused.status).toBe(401);
    expect(refreshCookie(reused.headers)?.attributes).toEqual(expect.arrayContaining([expect.stringMatching(/^expires=thu, 01 jan 1970/)]));
  });

  it('is refused without the header, as a cross-site form would send it', async () => {
    const cookie = refreshCookie((await signIn()).headers)!;
    const response = await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: { cookie: cookie.pair } });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    // The cookie still works for the console afterwards: nothing was consumed.
    expect((await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: { ...COOKIE_MODE, cookie: cookie.pair } })).status).toBe(200);
  });

  it('is refused from another origin', async () => {
    const cookie = refreshCookie((await signIn()).headers)!;
    const response = await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: { ...COOKIE_MODE, cookie: cookie.pair, origin: 'https://attacker.example' } });
    expect(response.status).toBe(403);
  });

  it('without a body token answers 400 to an API client (as before) and 401 to the console without a cookie', async () => {
    const plain = await http(base, 'POST', '/v1/auth/refresh', { body: {} });
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual([expect.objectContaining({ field: 'refresh_token' })]);
    const response = await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: COOKIE_MODE });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('is cleared by logout, whose session is revoked: the cookie no longer refreshes', async () => {
    const login = await signIn();
    const cookie = refreshCookie(login.headers)!;
    const logout = await http(base, 'POST', '/v1/auth/logout', { token: login.body.access_token, headers: { cookie: cookie.pair } });
    expect(logout.status).toBe(200);
    const cleared = refreshCookie(logout.headers);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toEqual(expect.arrayContaining(['path=/v1/auth/refresh', expect.stringMatching(/^expires=thu, 01 jan 1970/)]));
    expect((await http(base, 'POST', '/v1/auth/refresh', { body: {}, headers: { ...COOKIE_MODE, cookie: cookie.pair } })).status).toBe(401);
    expect((await http(base, 'GET', '/v1/users', { token: login.body.access_token })).status).toBe(401);
  });
});
