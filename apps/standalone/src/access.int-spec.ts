import { sign } from 'jsonwebtoken';
import { Scopes } from '@vigil/contracts';
import { waitFor } from '@vigil/testing';
import { apiKey, gatewayRoutes, signingKey, userWithScopes } from './testing/access';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Access control through the whole system: the route walk, API keys, login and refresh rotation,
 * and the attacks on access tokens. OAuth is in oauth.int-spec.ts; rate limits and replicas in
 * access-replicas.kafka-spec.ts.
 */
describe('access: scopes on every route, API keys, JWT login and refresh', () => {
  let system: TestSystem;
  let base: string;
  let admin: string;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory' });
    base = system.gatewayUrl;
    admin = await login(base, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  // Routes that need no credential, by design. A route that is public and not listed here fails.
  const PUBLIC = new Set([
    'GET /health/live',
    'GET /health/ready',
    'POST /v1/auth/login',
    'POST /v1/auth/refresh',
    'GET /oauth/authorize',
    'POST /oauth/authorize',
    'POST /oauth/token',
    'POST /oauth/revoke',
    'GET /.well-known/oauth-authorization-server',
    'GET /.well-known/jwks.json',
    // The API's own description (registered by SwaggerModule, outside Nest's guards).
    'GET /v1/openapi.json',
  ]);
  const isPublic = (label: string) => PUBLIC.has(label) || /^GET \/v1\/docs(\/|$)/.test(label);
  // Routes about the caller's own account: a user's access token from a login, no scope. Walked
  // with an administrator's API key, which they refuse (403): an API key is not a signed-in user.
  // (Not with the user's token: logout would end the session the walk uses.)
  const SIGNED_IN = new Set(['POST /v1/auth/logout', 'POST /v1/auth/password']);

  it('walks every route of the real router: each refuses no credential (401) and a credential without its scope (403 naming it)', async () => {
    const routes = gatewayRoutes(system);
    expect(routes.length).toBeGreaterThan(PUBLIC.size);
    const noScopes = await userWithScopes(base, admin, []);
    const failures: string[] = [];
    const declared = new Set<string>();
    for (const { method, path } of routes) {
      const label = `${method} ${path}`;
      const url = path.replace(/:(\w+)/g, (_m, name) => `${name}_walk`);
      const anonymous = await http(base, method, url, { headers: { accept: 'application/json' } });
      if (isPublic(label)) {
        if (anonymous.status === 401 || anonymous.status === 403) failures.push(`${label}: public route answered ${anonymous.status}`);
        continue;
      }
      if (anonymous.status !== 401 || anonymous.headers.get('www-authenticate') !== 'Bearer error="invalid_token"') {
        failures.push(`${label}: without credential ${anonymous.status} (a public route must be listed in PUBLIC)`);
        continue;
      }
      if (SIGNED_IN.has(label)) {
        const key = await apiKey(base, admin, ['admin']);
        const refused = await http(base, method, url, { token: key.key, headers: { accept: 'application/json' } });
        if (refused.status !== 403) failures.push(`${label}: with an admin API key ${refused.status} (must be 403: not a signed-in user)`);
        continue;
      }
      const bare = await http(base, method, url, { token: noScopes.token, headers: { accept: 'application/json' } });
      const needed = /scope="([^"]+)"/.exec(bare.headers.get('www-authenticate') ?? '')?.[1];
      if (bare.status !== 403 || !needed || !(Scopes as readonly string[]).includes(needed)) {
        failures.push(`${label}: without scopes ${bare.status} ${bare.headers.get('www-authenticate')} (declare @RequireScope)`);
        continue;
      }
      declared.add(needed);
      if (needed === 'admin') continue;
      // Every scope but the needed one (and admin) is still not enough.
      const others = await apiKey(base, admin, Scopes.filter((s) => s !== needed && s !== 'admin'));
      const almost = await http(base, method, url, { token: others.key, headers: { accept: 'application/json' } });
      if (almost.status !== 403) failures.push(`${label}: with every scope but ${needed}: ${almost.status}`);
    }
    expect(failures).toEqual([]);
    // Every scope guards at least one route (write:reports: report deletion and schedule changes).
    expect([...declared].sort()).toEqual([...Scopes].sort());
  }, 120_000);

  it('gives an API key once, lists keys without values, accepts the key, and refuses it at once after revocation', async () => {
    const created = await http(base, 'POST', '/v1/api-keys', { token: admin, body: { name: 'log reader', scopes: ['read:logs'] } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^vigil_ak_[0-9A-Za-z]{36}$/);
    expect(created.body).toMatchObject({ name: 'log reader', scopes: ['read:logs'], revoked_at: null, expires_at: null });
    const { id, key } = created.body;

    const list = await http(base, 'GET', '/v1/api-keys?per_page=100', { token: admin });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === id);
    expect(listed).toMatchObject({ id, prefix: key.slice(0, 15) });
    expect(JSON.stringify(list.body)).not.toContain(key);
    const [stored] = await system.db.query<{ key_hash: string }>(`SELECT key_hash FROM auth.api_keys WHERE id = $1`, [id]);
    expect(stored!.key_hash).not.toContain(key.slice(9));

    // 404: authenticated and allowed, the event just does not exist.
    const probe = () => http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: key });
    expect((await probe()).status).toBe(404);
    expect((await probe()).status).toBe(404);
    // The key holds read:logs only.
    expect((await http(base, 'GET', '/v1/api-keys', { token: key })).status).toBe(403);

    const revoked = await http(base, 'DELETE', `/v1/api-keys/${id}`, { token: admin });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await probe();
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await http(base, 'DELETE', '/v1/api-keys/key_00000000000000000000000000', { token: admin })).status).toBe(404);
  });

  it('refuses an expired key, a key with a broken checksum, and validates the create request', async () => {
    const soon = await apiKey(base, admin, ['read:logs'], { expires_at: new Date(Date.now() + 1500).toISOString() });
    expect((await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: soon.key })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: soon.key })).status).toBe(401);

    const valid = await apiKey(base, admin, ['read:logs']);
    const tampered = `${valid.key.slice(0, 12)}${valid.key[12] === 'A' ? 'B' : 'A'}${valid.key.slice(13)}`;
    expect((await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: tampered })).status).toBe(401);

    const bad = await http(base, 'POST', '/v1/api-keys', { token: admin, body: { name: 'x', scopes: ['root'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('scopes');
    const past = await http(base, 'POST', '/v1/api-keys', { token: admin, body: { name: 'x', scopes: ['read:logs'], expires_at: '2020-01-01T00:00:00Z' } });
    expect(past.status).toBe(422);
  });

  it('reads a credential from the Authorization header only, never from the query string or a body', async () => {
    const { key } = await apiKey(base, admin, ['admin']);
    expect((await http(base, 'GET', '/v1/api-keys', { token: key })).status).toBe(200);
    for (const credential of [key, admin]) {
      const inQuery = await http(base, 'GET', `/v1/api-keys?access_token=${encodeURIComponent(credential)}`);
      expect([inQuery.status, inQuery.headers.get('www-authenticate')]).toEqual([401, 'Bearer error="invalid_token"']);
      const inBody = await http(base, 'POST', '/v1/api-keys', { body: { access_token: credential, name: 'x', scopes: ['read:logs'] } });
      expect(inBody.status).toBe(401);
    }
    // With the header, the request is authenticated; the unknown parameter is then a validation error.
    const both = await http(base, 'GET', '/v1/api-keys?access_token=x', { token: key });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body.errors)).toContain('access_token');
  });

  it('records when a key was last used', async () => {
    const { id, key } = await apiKey(base, admin, ['read:logs']);
    await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: key });
    const [row] = await system.db.query<{ last_used_at: Date | null }>(`SELECT last_used_at FROM auth.api_keys WHERE id = $1`, [id]);
    expect(row!.last_used_at).toBeInstanceOf(Date);
  });

  it('rotates refresh tokens, and a reused one revokes the whole session, access tokens included', async () => {
    const user = await userWithScopes(base, admin, ['read:logs']);
    const first = await http(base, 'POST', '/v1/auth/login', { body: { email: user.email, password: user.password } });
    const second = await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    const third = await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: second.body.refresh_token } });
    expect(third.status).toBe(200);
    const probe = (token: string) => http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token });
    expect((await probe(third.body.access_token)).status).toBe(404);

    // The first token again: someone copied it. Everything of this session stops.
    const reuse = await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: first.body.refresh_token } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('refresh_token_reused');
    expect(reuse.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect((await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: third.body.refresh_token } })).status).toBe(401);
    await waitFor(async () => (await probe(third.body.access_token)).status === 401, 5000, 'session access token refused');
    expect((await probe(first.body.access_token)).status).toBe(401);
    // Another session of the same user is untouched.
    expect((await probe(user.token)).status).toBe(404);
  });

  describe('attacks on access tokens are refused with 401', () => {
    const probe = (token: string) => http(base, 'GET', '/v1/api-keys', { token });
    const now = () => Math.floor(Date.now() / 1000);
    const claims = () => ({ sub: 'usr_attacker', scope: 'admin', token_use: 'access', iss: 'vigil', aud: 'vigil-api', iat: now(), exp: now() + 600 });
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

    it('accepts a token we sign with the real key (the control case)', async () => {
      const { kid, key } = await signingKey(system);
      expect((await probe(sign(claims(), key, { algorithm: 'ES256', keyid: kid }))).status).toBe(200);
    });

    it.each([
      ['alg none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
      [
        'algorithm confusion (HS256 keyed with the public JWK)',
        async () => {
          const { kid } = await signingKey(system);
          const jwks = await http(base, 'GET', '/.well-known/jwks.json');
          return sign(claims(), JSON.stringify(jwks.body.keys[0]), { algorithm: 'HS256', keyid: kid });
        },
      ],
      [
        'a wrong signature',
        async () => {
          const { kid, key } = await signingKey(system);
          const token = sign(claims(), key, { algorithm: 'ES256', keyid: kid });
          const [h, p] = token.split('.');
          return `${h}.${p}.${sign({ x: 1 }, key, { algorithm: 'ES256' }).split('.')[2]}`;
        },
      ],
      ['an expired token', async () => { const { kid, key } = await signingKey(system); return sign({ ...claims(), exp: now() - 5 }, key, { algorithm: 'ES256', keyid: kid }); }],
      ['a wrong issuer', async () => { const { kid, key } = await signingKey(system); return sign({ ...claims(), iss: 'evil' }, key, { algorithm: 'ES256', keyid: kid }); }],
      ['a wrong audience', async () => { const { kid, key } = await signingKey(system); return sign({ ...claims(), aud: 'other-api' }, key, { algorithm: 'ES256', keyid: kid }); }],
      ['a token that is not an access token', async () => { const { kid, key } = await signingKey(system); return sign({ ...claims(), token_use: 'refresh' }, key, { algorithm: 'ES256', keyid: kid }); }],
      ['an unknown kid', async () => { const { key } = await signingKey(system); return sign(claims(), key, { algorithm: 'ES256', keyid: 'nope' }); }],
      [
        'a refresh token used as an access token',
        async () => (await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword } })).body.refresh_token,
      ],
    ])('%s', async (_label, make) => {
      const response = await probe(await make());
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    });
  });

  it('answers every request with RateLimit headers, and a login loop from one address with 429 and Retry-After', async () => {
    const ok = await http(base, 'GET', '/v1/api-keys', { token: admin });
    expect(ok.headers.get('ratelimit-limit')).toBe('1000');
    expect(Number(ok.headers.get('ratelimit-remaining'))).toBeLessThan(1000);
    expect(Number(ok.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    const events = await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: admin });
    expect(events.headers.get('ratelimit-limit')).toBe('2000');

    let limited: Awaited<ReturnType<typeof http>> | undefined;
    // The login limit is 60 a minute in fixed windows: 121 attempts fill one window even when the
    // loop starts near the end of another.
    for (let i = 0; i < 121 && !limited; i++) {
      // A different e-mail each time: the per-account back-off (edge.int-spec.ts) is not what is tested here.
      const attempt = await http(base, 'POST', '/v1/auth/login', { body: { email: `guess-${i}@example.com`, password: `guess-${i}` } });
      if (attempt.status === 429) limited = attempt;
      else expect(attempt.status).toBe(401);
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited!.body).toMatchObject({ status: 429, code: 'rate_limited', retry_after: Number(limited!.headers.get('retry-after')) });
    // Counted before authentication: the right password is refused too while the window lasts.
    expect((await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword } })).status).toBe(429);
  }, 120_000);
});
