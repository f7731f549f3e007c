import { waitFor } from '@vigil/testing';
import { apiKey, openStream, shortLivedToken } from './testing/access';
import { http } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/** Seconds a login session lives however often it is refreshed, kept small here (docs/access.md). */
const ABSOLUTE_SESSION_SECONDS = 4;
const PASSWORD = 'a-long-enough-password';
const PROBE = '/v1/events/evt_00000000000000000000000000';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')).kid as string;

/**
 * The credential lifecycle end to end (docs/access.md, "Credential lifecycle"): users disabled,
 * deleted, re-scoped and their passwords changed; logout and session revocation; the absolute
 * session lifetime; OAuth client deletion and secret rotation; API key rotation; signing-key
 * rotation; event streams that end with their credential. Across replicas: access-replicas.kafka-spec.ts.
 */
describe('credential lifecycle', () => {
  let system: TestSystem;
  let base: string;
  let admin: string;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS: String(ABSOLUTE_SESSION_SECONDS) } });
    base = system.gatewayUrl;
    admin = (await loginTokens('admin@example.com', system.adminPassword)).access_token;
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  async function loginTokens(email: string, password: string): Promise<{ access_token: string; refresh_token: string }> {
    const response = await http(base, 'POST', '/v1/auth/login', { body: { email, password } });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  async function newUser(scopes: string[]): Promise<{ id: string; email: string; access_token: string; refresh_token: string }> {
    const email = `life-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const created = await http(base, 'POST', '/v1/users', { token: admin, body: { email, password: PASSWORD, scopes } });
    expect(created.status).toBe(201);
    return { id: created.body.id, email, ...(await loginTokens(email, PASSWORD)) };
  }

  const probe = async (token: string) => (await http(base, 'GET', PROBE, { token })).status;
  const refresh = (refresh_token: string) => http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token } });

  describe('users', () => {
    it('gets a user, and refuses to disable, demote or delete the last enabled administrator', async () => {
      const me = claims(admin).sub as string;
      const got = await http(base, 'GET', `/v1/users/${me}`, { token: admin });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ id: me, email: 'admin@example.com', scopes: ['admin'], disabled_at: null });
      expect(JSON.stringify(got.body)).not.toContain('password');
      expect((await http(base, 'GET', '/v1/users/usr_00000000000000000000000000', { token: admin })).status).toBe(404);
      expect((await http(base, 'GET', '/v1/users/nonsense', { token: admin })).status).toBe(404);

      for (const body of [{ disabled: true }, { scopes: ['read:logs'] }]) {
        const refused = await http(base, 'PATCH', `/v1/users/${me}`, { token: admin, body });
        expect([refused.status, refused.body.code]).toEqual([409, 'last_administrator']);
      }
      const deleted = await http(base, 'DELETE', `/v1/users/${me}`, { token: admin });
      expect([deleted.status, deleted.body.code]).toEqual([409, 'last_administrator']);
      expect((await http(base, 'PATCH', `/v1/users/${me}`, { token: admin, body: {} })).status).toBe(400);
      expect((await http(base, 'PATCH', `/v1/users/${me}`, { token: admin, body: { scopes: ['root'] } })).status).toBe(400);
      expect(await probe(admin)).toBe(404);
    });

    it('disabling a user revokes their sessions and API keys at once; they cannot log in or refresh until enabled again', async () => {
      const user = await newUser(['admin']);
      const key = await apiKey(base, user.access_token, ['read:logs']);
      expect(await probe(user.access_token)).toBe(404);
      expect(await probe(key.key)).toBe(404);

      const disabled = await http(base, 'PATCH', `/v1/users/${user.id}`, { token: admin, body: { disabled: true } });
      expect(disabled.status).toBe(200);
      expect(disabled.body.disabled_at).toEqual(expect.any(String));
      expect(await probe(user.access_token)).toBe(401);
      expect(await probe(key.key)).toBe(401);
      expect((await refresh(user.refresh_token)).status).toBe(401);
      const login = await http(base, 'POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } });
      expect([login.status, login.body.code]).toEqual([401, 'account_disabled']);
      // A wrong password does not reveal that the account is disabled.
      const guess = await http(base, 'POST', '/v1/auth/login', { body: { email: user.email, password: 'not-the-password' } });
      expect(guess.body.code).toBe('invalid_credentials');

      const enabled = await http(base, 'PATCH', `/v1/users/${user.id}`, { token: admin, body: { disabled: false } });
      expect([enabled.status, enabled.body.disabled_at]).toEqual([200, null]);
      // Tokens issued up to the disable (iat, whole seconds) stay refused: log in a second later.
      await sleep(1000);
      const again = await loginTokens(user.email, PASSWORD);
      expect(await probe(again.access_token)).toBe(404);
      // The keys revoked with the disable stay revoked.
      expect(await probe(key.key)).toBe(401);
    });

    it('taking a scope away ends the sessions (their tokens carry the old scopes); the new scopes hold from the next login', async () => {
      const user = await newUser(['read:logs', 'read:policies']);
      const changed = await http(base, 'PATCH', `/v1/users/${user.id}`, { token: admin, body: { scopes: ['read:logs'] } });
      expect([changed.status, changed.body.scopes]).toEqual([200, ['read:logs']]);
      expect(await probe(user.access_token)).toBe(401);
      const again = await loginTokens(user.email, PASSWORD);
      expect(claims(again.access_token).scope).toBe('read:logs');
    });

    it("deleting a user stops their access token and their API keys at once, and the account is gone", async () => {
      const user = await newUser(['admin']);
      const key = await apiKey(base, user.access_token, ['read:logs']);
      expect(await probe(key.key)).toBe(404);
      const deleted = await http(base, 'DELETE', `/v1/users/${user.id}`, { token: admin });
      expect([deleted.status, deleted.body.id]).toEqual([200, user.id]);
      expect(await probe(key.key)).toBe(401);
      expect(await probe(user.access_token)).toBe(401);
      expect((await http(base, 'GET', `/v1/users/${user.id}`, { token: admin })).status).toBe(404);
      expect((await http(base, 'POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
      const [row] = await system.db.query<{ revoked_at: Date | null }>(`SELECT revoked_at FROM auth.api_keys WHERE id = $1`, [key.id]);
      expect(row!.revoked_at).toBeInstanceOf(Date);
    });

    it('a user changes their own password with the current one; their other sessions end, the one in use stays', async () => {
      const user = await newUser([]);
      const other = await loginTokens(user.email, PASSWORD);
      const change = (token: string, body: object) => http(base, 'POST', '/v1/auth/password', { token, body });
      const wrong = await change(user.access_token, { current_password: 'not-the-password', new_password: 'another-long-password-1' });
      expect([wrong.status, wrong.body.code]).toEqual([403, 'wrong_current_password']);
      const weak = await change(user.access_token, { current_password: PASSWORD, new_password: 'password1234' });
      expect([weak.status, weak.body.code]).toEqual([422, 'weak_password']);
      const short = await change(user.access_token, { current_password: PASSWORD, new_password: 'short' });
      expect(short.status).toBe(400);

      const done = await change(user.access_token, { current_password: PASSWORD, new_password: 'another-long-password-1' });
      expect([done.status, done.body.revoked_sessions]).toEqual([200, 1]);
      expect(await probe(user.access_token)).toBe(403); // still signed in (403: no scope for events)
      expect(await probe(other.access_token)).toBe(401);
      expect((await refresh(other.refresh_token)).status).toBe(401);
      expect((await http(base, 'POST', '/v1/auth/login', { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
      await loginTokens(user.email, 'another-long-password-1');

      // An API key (even with admin) is not a signed-in user.
      const key = await apiKey(base, admin, ['admin']);
      expect((await change(key.key, { current_password: PASSWORD, new_password: 'another-long-password-2' })).status).toBe(403);
    });

    it('an administrator resets a password: every session of the user ends, the new password works', async () => {
      const user = await newUser([]);
      const weak = await http(base, 'POST', `/v1/users/${user.id}/password`, { token: admin, body: { password: 'aaaaaaaaaaaaaaaa' } });
      expect([weak.status, weak.body.code]).toEqual([422, 'weak_password']);
      const reset = await http(base, 'POST', `/v1/users/${user.id}/password`, { token: admin, body: { password: 'reset-by-the-admin-1' } });
      expect([reset.status, reset.body.revoked_sessions]).toEqual([200, 1]);
      expect(await probe(user.access_token)).toBe(401);
      expect((await refresh(user.refresh_token)).status).toBe(401);
      await loginTokens(user.email, 'reset-by-the-admin-1');
      expect((await http(base, 'POST', '/v1/users/usr_00000000000000000000000000/password', { token: admin, body: { password: 'reset-by-the-admin-1' } })).status).toBe(404);
    });
  });

  describe('sessions', () => {
    it('logout revokes the refresh family: the access token and the refresh token stop at once', async () => {
      const user = await newUser(['read:logs']);
      const rotated = await refresh(user.refresh_token);
      expect(rotated.status).toBe(200);
      const out = await http(base, 'POST', '/v1/auth/logout', { token: rotated.body.access_token });
      expect([out.status, out.body.revoked_sessions]).toEqual([200, 1]);
      expect(await probe(rotated.body.access_token)).toBe(401);
      // The token before the refresh belongs to the same session.
      expect(await probe(user.access_token)).toBe(401);
      expect((await refresh(rotated.body.refresh_token)).status).toBe(401);
      expect((await http(base, 'POST', '/v1/auth/logout', {})).status).toBe(401);
    });

    it('an administrator revokes every session of a user', async () => {
      const user = await newUser(['read:logs']);
      const second = await loginTokens(user.email, PASSWORD);
      const revoked = await http(base, 'DELETE', `/v1/users/${user.id}/sessions`, { token: admin });
      expect([revoked.status, revoked.body.revoked_sessions]).toEqual([200, 2]);
      expect(await probe(user.access_token)).toBe(401);
      expect(await probe(second.access_token)).toBe(401);
      expect((await refresh(second.refresh_token)).status).toBe(401);
      expect((await http(base, 'DELETE', '/v1/users/usr_00000000000000000000000000/sessions', { token: admin })).status).toBe(404);
    });

    it('a session ends at its absolute lifetime from login, however often it was refreshed', async () => {
      const user = await newUser(['read:logs']);
      const loggedInAt = Date.now();
      let refreshToken = user.refresh_token;
      // Refreshing keeps working inside the lifetime...
      for (let i = 0; i < 3; i++) {
        const next = await refresh(refreshToken);
        expect(next.status).toBe(200);
        refreshToken = next.body.refresh_token;
        await sleep(500);
      }
      const [row] = await system.db.query<{ ends: Date }>(`SELECT max(session_expires_at) AS ends FROM auth.refresh_tokens WHERE user_id = $1`, [user.id]);
      expect(Math.abs(row!.ends.getTime() - (loggedInAt + ABSOLUTE_SESSION_SECONDS * 1000))).toBeLessThan(2000);
      // ...and not after it, though the idle lifetime (30 days) is far off.
      await sleep(Math.max(0, loggedInAt + ABSOLUTE_SESSION_SECONDS * 1000 + 500 - Date.now()));
      const late = await refresh(refreshToken);
      expect([late.status, late.body.code]).toEqual([401, 'invalid_refresh_token']);
    });
  });

  describe('OAuth clients', () => {
    const tokenFor = (clientId: string, secret: string) =>
      http(base, 'POST', '/oauth/token', {
        raw: new URLSearchParams({ grant_type: 'client_credentials', scope: 'read:logs' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
      });

    async function machineClient(): Promise<{ client_id: string; client_secret: string }> {
      const created = await http(base, 'POST', '/v1/oauth/clients', { token: admin, body: { name: 'Machine', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['read:logs'] } });
      expect(created.status).toBe(201);
      return created.body;
    }

    it('rotates the secret: the old one is accepted during the overlap only; overlap 0 ends it at once', async () => {
      const client = await machineClient();
      const rotated = await http(base, 'POST', `/v1/oauth/clients/${client.client_id}/secret`, { token: admin, body: { overlap_seconds: 2 } });
      expect(rotated.status).toBe(200);
      expect(rotated.body.client_secret).toMatch(/^vigil_cs_/);
      expect(rotated.body.client_secret).not.toBe(client.client_secret);
      expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now());
      expect((await tokenFor(client.client_id, client.client_secret)).status).toBe(200);
      expect((await tokenFor(client.client_id, rotated.body.client_secret)).status).toBe(200);
      const listed = await http(base, 'GET', '/v1/oauth/clients?per_page=100', { token: admin });
      expect(listed.body.data.find((c: { client_id: string }) => c.client_id === client.client_id)).toMatchObject({
        secret_rotated_at: expect.any(String),
        previous_secret_expires_at: rotated.body.previous_secret_expires_at,
      });
      expect(JSON.stringify(listed.body)).not.toContain(rotated.body.client_secret);
      await sleep(2300);
      const old = await tokenFor(client.client_id, client.client_secret);
      expect([old.status, old.body.error]).toEqual([401, 'invalid_client']);
      expect((await tokenFor(client.client_id, rotated.body.client_secret)).status).toBe(200);

      const immediate = await http(base, 'POST', `/v1/oauth/clients/${client.client_id}/secret`, { token: admin, body: { overlap_seconds: 0 } });
      expect([immediate.status, immediate.body.previous_secret_expires_at]).toEqual([200, null]);
      expect((await tokenFor(client.client_id, rotated.body.client_secret)).status).toBe(401);
      expect((await tokenFor(client.client_id, immediate.body.client_secret)).status).toBe(200);
      expect((await http(base, 'POST', '/v1/oauth/clients/cli_00000000000000000000000000/secret', { token: admin, body: {} })).status).toBe(404);
    });

    it('deleting a client refuses its tokens at once and its secret afterwards', async () => {
      const client = await machineClient();
      const issued = await tokenFor(client.client_id, client.client_secret);
      expect(await probe(issued.body.access_token)).toBe(404);
      const deleted = await http(base, 'DELETE', `/v1/oauth/clients/${client.client_id}`, { token: admin });
      expect([deleted.status, deleted.body.client_id]).toEqual([200, client.client_id]);
      expect(await probe(issued.body.access_token)).toBe(401);
      expect((await tokenFor(client.client_id, client.client_secret)).status).toBe(401);
      expect((await http(base, 'DELETE', `/v1/oauth/clients/${client.client_id}`, { token: admin })).status).toBe(404);
    });
  });

  describe('API keys', () => {
    it('rotates a key: the new value once, the old one revoked at once (no overlap)', async () => {
      const old = await apiKey(base, admin, ['read:logs']);
      expect(await probe(old.key)).toBe(404);
      const rotated = await http(base, 'POST', `/v1/api-keys/${old.id}/rotate`, { token: admin, body: {} });
      expect(rotated.status).toBe(200);
      expect(rotated.body.key).toMatchObject({ name: 'test key', scopes: ['read:logs'], revoked_at: null, key: expect.stringMatching(/^vigil_ak_/) });
      expect(rotated.body.previous).toMatchObject({ id: old.id, revoked_at: expect.any(String) });
      expect(await probe(old.key)).toBe(401);
      expect(await probe(rotated.body.key.key)).toBe(404);
      const again = await http(base, 'POST', `/v1/api-keys/${old.id}/rotate`, { token: admin, body: {} });
      expect([again.status, again.body.code]).toEqual([409, 'api_key_revoked']);
      const list = await http(base, 'GET', '/v1/api-keys?per_page=100', { token: admin });
      expect(JSON.stringify(list.body)).not.toContain(rotated.body.key.key);
    });

    it('rotates with an overlap: the old key and its open stream work until the overlap ends, then are refused and closed', async () => {
      const old = await apiKey(base, admin, ['read:logs']);
      expect(await probe(old.key)).toBe(404);
      const stream = await openStream(base, old.key);
      const rotated = await http(base, 'POST', `/v1/api-keys/${old.id}/rotate`, { token: admin, body: { overlap_seconds: 2 } });
      expect(rotated.status).toBe(200);
      expect(rotated.body.previous.revoked_at).toBeNull();
      expect(Date.parse(rotated.body.previous.expires_at)).toBeGreaterThan(Date.now());
      expect(await probe(old.key)).toBe(404);
      expect(await probe(rotated.body.key.key)).toBe(404);
      expect(stream.text()).not.toContain('stream.closed');
      const ended = await stream.ended;
      expect(ended.closed?.reason).toBe('api_key_rotated');
      expect(ended.atMs - Date.parse(rotated.body.previous.expires_at)).toBeLessThan(1000);
      expect(ended.atMs).toBeGreaterThanOrEqual(Date.parse(rotated.body.previous.expires_at) - 50);
      expect(await probe(old.key)).toBe(401);
      expect(await probe(rotated.body.key.key)).toBe(404);
      const bad = await http(base, 'POST', `/v1/api-keys/${old.id}/rotate`, { token: admin, body: { overlap_seconds: -1 } });
      expect(bad.status).toBe(400);
    });

    it('shows when a key was last used, written in batches rather than on every request', async () => {
      const { id, key } = await apiKey(base, admin, ['read:logs']);
      const lastUsed = async () => (await http(base, 'GET', '/v1/api-keys?per_page=100', { token: admin })).body.data.find((k: { id: string }) => k.id === id).last_used_at;
      expect(await lastUsed()).toBeNull();
      await probe(key);
      const first = await lastUsed();
      expect(first).toEqual(expect.any(String));
      // Later uses are counted in the gateway and written once a minute, not one write each.
      await sleep(20);
      for (let i = 0; i < 5; i++) await probe(key);
      expect(await lastUsed()).toBe(first);
    });
  });

  describe('signing keys', () => {
    it('rotates on demand: the JWKS lists the old and the new key, tokens signed with the old one stay valid, new tokens use the new one', async () => {
      const before = await loginTokens('admin@example.com', system.adminPassword);
      const oldKid = kidOf(before.access_token);
      const rotated = await http(base, 'POST', '/v1/auth/signing-keys/rotate', { token: admin });
      expect(rotated.status).toBe(200);
      expect(rotated.body.kid).not.toBe(oldKid);
      const old = rotated.body.keys.find((k: { kid: string }) => k.kid === oldKid);
      // Published until every token it signed has expired (the access-token lifetime, 1 h here, and a margin).
      expect(Date.parse(old.published_until) - Date.parse(old.retired_at)).toBeGreaterThanOrEqual(3600_000);

      const jwks = await http(base, 'GET', '/.well-known/jwks.json');
      const kids = jwks.body.keys.map((k: { kid: string }) => k.kid);
      expect(kids).toEqual(expect.arrayContaining([oldKid, rotated.body.kid]));
      expect(await probe(before.access_token)).toBe(404);

      const after = await loginTokens('admin@example.com', system.adminPassword);
      expect(kidOf(after.access_token)).toBe(rotated.body.kid);
      expect(await probe(after.access_token)).toBe(404);
      // A refresh of an old session is signed with the new key too.
      const refreshed = await refresh(before.refresh_token);
      expect(kidOf(refreshed.body.access_token)).toBe(rotated.body.kid);
      admin = after.access_token;
    });
  });

  describe('event streams follow their credential', () => {
    it('closes a stream within a second of its API key being deleted, with a final stream.closed message', async () => {
      const key = await apiKey(base, admin, ['read:logs']);
      const stream = await openStream(base, key.key);
      const revokedAt = Date.now();
      expect((await http(base, 'DELETE', `/v1/api-keys/${key.id}`, { token: admin })).status).toBe(200);
      const ended = await stream.ended;
      expect(ended.closed).toEqual({ reason: 'api_key_revoked', detail: expect.any(String) });
      expect(ended.atMs - revokedAt).toBeLessThan(1000);
    });

    it('closes a stream when its access token expires', async () => {
      const me = claims(admin).sub as string;
      const token = await shortLivedToken(system, me, ['read:logs'], 2);
      const expiresAt = claims(token).exp * 1000;
      const stream = await openStream(base, token);
      const ended = await stream.ended;
      expect(ended.closed?.reason).toBe('token_expired');
      expect(ended.atMs).toBeGreaterThanOrEqual(expiresAt);
      expect(ended.atMs - expiresAt).toBeLessThan(1000);
    });

    it('closes a stream when its API key expires', async () => {
      const key = await apiKey(base, admin, ['read:logs'], { expires_at: new Date(Date.now() + 1500).toISOString() });
      const stream = await openStream(base, key.key);
      const ended = await stream.ended;
      expect(ended.closed?.reason).toBe('api_key_expired');
    });

    it('closes the streams of a user at once when the user is disabled, and of a session when it logs out', async () => {
      const user = await newUser(['read:logs']);
      const second = await loginTokens(user.email, PASSWORD);
      const first = await openStream(base, user.access_token);
      const other = await openStream(base, second.access_token);
      expect((await http(base, 'POST', '/v1/auth/logout', { token: second.access_token })).status).toBe(200);
      expect((await other.ended).closed?.reason).toBe('logged_out');
      expect(first.text()).not.toContain('stream.closed');

      const disabledAt = Date.now();
      expect((await http(base, 'PATCH', `/v1/users/${user.id}`, { token: admin, body: { disabled: true } })).status).toBe(200);
      const ended = await first.ended;
      expect(ended.closed?.reason).toBe('user_disabled');
      expect(ended.atMs - disabledAt).toBeLessThan(1000);
    });

    it("closes a deleted user's streams, those opened with their API keys included", async () => {
      const user = await newUser(['admin']);
      const key = await apiKey(base, user.access_token, ['read:logs']);
      const byToken = await openStream(base, user.access_token);
      const byKey = await openStream(base, key.key);
      expect((await http(base, 'DELETE', `/v1/users/${user.id}`, { token: admin })).status).toBe(200);
      expect((await byToken.ended).closed?.reason).toBe('user_deleted');
      expect((await byKey.ended).closed?.reason).toBe('user_deleted');
    });

    it('keeps streams of other credentials open', async () => {
      const kept = await apiKey(base, admin, ['read:logs']);
      const gone = await apiKey(base, admin, ['read:logs']);
      const keptStream = await openStream(base, kept.key);
      const goneStream = await openStream(base, gone.key);
      await http(base, 'DELETE', `/v1/api-keys/${gone.id}`, { token: admin });
      await goneStream.ended;
      await waitFor(async () => keptStream.text().includes(': connected'), 1000, 'kept stream');
      expect(keptStream.text()).not.toContain('stream.closed');
      await keptStream.cancel();
    });
  });

  describe('scheduled signing-key rotation', () => {
    it('replaces a key older than SIGNING_KEY_ROTATION_DAYS at start; tokens it signed stay valid and the JWKS lists both', async () => {
      const before = await loginTokens('admin@example.com', system.adminPassword);
      const oldKid = kidOf(before.access_token);
      await system.stop();
      // The current key is made 91 days old (the rotation age is 90 days by default).
      await system.db.query(`UPDATE auth.signing_keys SET created_at = now() - interval '91 days' WHERE retired_at IS NULL`);
      system = await startTestSystem({ bus: 'memory', restartOf: system, env: { REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS: String(ABSOLUTE_SESSION_SECONDS) } });
      base = system.gatewayUrl;
      const [current] = await system.db.query<{ kid: string }>(`SELECT kid FROM auth.signing_keys WHERE retired_at IS NULL`);
      expect(current!.kid).not.toBe(oldKid);
      const kids = (await http(base, 'GET', '/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
      expect(kids).toEqual(expect.arrayContaining([oldKid, current!.kid]));
      expect(await probe(before.access_token)).toBe(404);
      const after = await loginTokens('admin@example.com', system.adminPassword);
      expect(kidOf(after.access_token)).toBe(current!.kid);
    }, 120_000);
  });
});
