import * as oidc from 'openid-client';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { waitFor } from '@vigil/testing';
import { userWithScopes } from './testing/access';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const REDIRECT = 'http://127.0.0.1:8765/callback';

/**
 * The OAuth 2.0 authorization server, driven by an independent client (openid-client) and checked
 * with an independent JOSE library; then the attacks of RFC 9700 one by one.
 */
describe('OAuth 2.0 authorization server', () => {
  let system: TestSystem;
  let base: string;
  let admin: string;
  let client: { client_id: string; client_secret: string };
  let config: oidc.Configuration;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  const register = async (body: Record<string, unknown>) => {
    const response = await http(base, 'POST', '/v1/oauth/clients', { token: admin, body });
    if (response.status !== 201) throw new Error(`client not registered: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as { client_id: string; client_secret: string };
  };
  const discover = (c: { client_id: string; client_secret: string }) =>
    oidc.discovery(new URL(base), c.client_id, c.client_secret, oidc.ClientSecretBasic(c.client_secret), { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' });
  const verifyToken = (token: string) => jwtVerify(token, jwks, { issuer: 'vigil', audience: 'vigil-api', algorithms: ['ES256'] });

  /** An authorization request as a browser of a logged-in user sends it: the redirect comes at once. */
  async function authorizeAs(userToken: string, params: Record<string, string>, c = client) {
    const url = new URL(`${base}/oauth/authorize`);
    for (const [k, v] of Object.entries({ client_id: c.client_id, redirect_uri: REDIRECT, response_type: 'code', ...params })) url.searchParams.set(k, v);
    const response = await fetch(url, { redirect: 'manual', headers: { authorization: `Bearer ${userToken}` } });
    return { status: response.status, location: response.headers.get('location') ?? '', text: await response.text() };
  }

  async function pkce() {
    const verifier = oidc.randomPKCECodeVerifier();
    return { verifier, challenge: await oidc.calculatePKCECodeChallenge(verifier) };
  }

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory' });
    base = system.gatewayUrl;
    admin = await login(base, 'admin@example.com', system.adminPassword);
    client = await register({ name: 'Dashboard', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], scopes: ['read:logs', 'read:policies', 'write:policies'] });
    config = await discover(client);
    jwks = createLocalJWKSet((await http(base, 'GET', '/.well-known/jwks.json')).body);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('publishes RFC 8414 metadata that the client discovered', () => {
    const meta = config.serverMetadata();
    expect(meta).toMatchObject({
      issuer: base,
      token_endpoint: `${base}/oauth/token`,
      authorization_endpoint: `${base}/oauth/authorize`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('runs the authorization code flow with PKCE, then refresh and revocation, with openid-client', async () => {
    const { verifier, challenge } = await pkce();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'read:logs read:policies', code_challenge: challenge, code_challenge_method: 'S256', state });
    const browser = await fetch(url, { redirect: 'manual', headers: { authorization: `Bearer ${admin}` } });
    expect(browser.status).toBe(302);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(browser.headers.get('location')!), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('read:logs read:policies');
    const { payload, protectedHeader } = await verifyToken(tokens.access_token);
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({ client_id: client.client_id, scope: 'read:logs read:policies', token_use: 'access' });
    expect((await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: tokens.access_token })).status).toBe(404);
    expect((await http(base, 'GET', '/v1/api-keys', { token: tokens.access_token })).status).toBe(403);

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await verifyToken(refreshed.access_token);

    // RFC 7009: the access token, then the refresh token (and its whole session).
    await oidc.tokenRevocation(config, refreshed.access_token);
    await waitFor(async () => (await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: refreshed.access_token })).status === 401, 5000, 'revoked access token refused');
    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('runs the client credentials grant, within the client’s scopes', async () => {
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read:logs' });
    const { payload } = await verifyToken(tokens.access_token);
    expect(payload).toMatchObject({ sub: client.client_id, client_id: client.client_id, scope: 'read:logs' });
    expect(tokens.refresh_token).toBeUndefined();
    expect((await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: tokens.access_token })).status).toBe(404);
    await expect(oidc.clientCredentialsGrant(config, { scope: 'admin' })).rejects.toMatchObject({ error: 'invalid_scope' });
  });

  it('shows a login-and-consent page with a CSRF token, and redirects only after a valid submission', async () => {
    const { verifier, challenge } = await pkce();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'S256', state: 'st<script>' });
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).not.toContain('<script>');
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(page.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    const submit = (fields: Record<string, string>, headers: Record<string, string> = { cookie }) =>
      fetch(`${base}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) });
    const fields = { request_id: requestId, csrf_token: csrf, email: 'admin@example.com', password: system.adminPassword, decision: 'approve' };

    // A cross-site form post has no cookie; a forged token does not match.
    expect((await submit(fields, {})).status).toBe(400);
    expect((await submit({ ...fields, csrf_token: 'forged' }, { cookie: 'vigil_oauth_csrf=forged' })).status).toBe(400);
    const wrong = await submit({ ...fields, password: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('The e-mail or password is wrong.');

    const ok = await submit(fields);
    expect(ok.status).toBe(303);
    const location = new URL(ok.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st<script>');
    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: 'st<script>' });
    expect(tokens.scope).toBe('read:logs');
    // The request was answered: the same form cannot mint a second code.
    expect((await submit(fields)).status).toBe(400);
  });

  describe('attacks are refused', () => {
    it('a reused authorization code, and the tokens it gave are revoked', async () => {
      const { verifier, challenge } = await pkce();
      const { location } = await authorizeAs(admin, { scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'S256', state: 's1' });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: verifier, expectedState: 's1' });
      await expect(oidc.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: verifier, expectedState: 's1' })).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
      await waitFor(async () => (await http(base, 'GET', '/v1/events/evt_00000000000000000000000000', { token: tokens.access_token })).status === 401, 5000, 'tokens of a replayed code refused');
    });

    it('a reused refresh token revokes the whole chain', async () => {
      const { verifier, challenge } = await pkce();
      const { location } = await authorizeAs(admin, { scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'S256', state: 's2' });
      const first = await oidc.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: verifier, expectedState: 's2' });
      const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
      await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('a redirect URI that is not exactly registered: no redirect at all', async () => {
      const { challenge } = await pkce();
      for (const redirect of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'http://127.0.0.1:8765/callbacks', 'https://evil.example/callback']) {
        const response = await authorizeAs(admin, { redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256' });
        expect(response.status).toBe(400);
        expect(response.location).toBe('');
      }
      // And at the token endpoint, the redirect URI must match the authorization request's.
      const { verifier, challenge: c2 } = await pkce();
      const { location } = await authorizeAs(admin, { scope: 'read:logs', code_challenge: c2, code_challenge_method: 'S256' });
      const code = new URL(location).searchParams.get('code')!;
      const token = await http(base, 'POST', '/oauth/token', {
        raw: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:8765/other', code_verifier: verifier, client_id: client.client_id, client_secret: client.client_secret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(token.status).toBe(400);
      expect(token.body.error).toBe('invalid_grant');
    });

    it('a PKCE verifier that does not match, or a request without PKCE', async () => {
      const { challenge } = await pkce();
      const { location } = await authorizeAs(admin, { scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'S256', state: 's3' });
      await expect(oidc.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: 's3' })).rejects.toMatchObject({ error: 'invalid_grant' });
      const plain = await authorizeAs(admin, { scope: 'read:logs', state: 's4' });
      expect(new URL(plain.location).searchParams.get('error')).toBe('invalid_request');
      const methodPlain = await authorizeAs(admin, { scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'plain' });
      expect(new URL(methodPlain.location).searchParams.get('error')).toBe('invalid_request');
    });

    it('scope escalation: beyond the client, beyond the user, and at refresh', async () => {
      const { verifier, challenge } = await pkce();
      const beyondClient = await authorizeAs(admin, { scope: 'read:logs admin', code_challenge: challenge, code_challenge_method: 'S256', state: 's5' });
      expect(new URL(beyondClient.location).searchParams.get('error')).toBe('invalid_scope');
      expect(new URL(beyondClient.location).searchParams.get('state')).toBe('s5');

      // A user holding only read:logs asks for more than that: the grant is cut to what they hold.
      const reader = await userWithScopes(base, admin, ['read:logs']);
      const { location } = await authorizeAs(reader.token, { scope: 'read:logs write:policies', code_challenge: challenge, code_challenge_method: 'S256', state: 's6' });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(location), { pkceCodeVerifier: verifier, expectedState: 's6' });
      expect(tokens.scope).toBe('read:logs');
      expect(decodeJwt(tokens.access_token).scope).toBe('read:logs');
      const none = await authorizeAs(reader.token, { scope: 'write:policies', code_challenge: challenge, code_challenge_method: 'S256' });
      expect(new URL(none.location).searchParams.get('error')).toBe('invalid_scope');

      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'read:logs write:policies' })).rejects.toMatchObject({ error: 'invalid_scope' });

      // A client may not use a grant it was not registered for.
      const ccOnly = await register({ name: 'Machine', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['read:logs'] });
      const auth = await authorizeAs(admin, { scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'S256' }, ccOnly);
      expect(auth.status).toBe(400);
    });

    it('a wrong client secret, or two client authentication methods at once', async () => {
      const form = (extra: Record<string, string>) => new URLSearchParams({ grant_type: 'client_credentials', ...extra }).toString();
      const basic = `Basic ${Buffer.from(`${client.client_id}:wrong`).toString('base64')}`;
      const wrong = await http(base, 'POST', '/oauth/token', { raw: form({}), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_client');
      expect(wrong.headers.get('www-authenticate')).toContain('Basic');
      const good = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
      const both = await http(base, 'POST', '/oauth/token', { raw: form({ client_secret: client.client_secret }), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: good } });
      expect(both.body.error).toBe('invalid_request');
      const json = await http(base, 'POST', '/oauth/token', { body: { grant_type: 'client_credentials' }, headers: { authorization: good } });
      expect(json.body.error).toBe('invalid_request');
    });

    it('an unregistrable redirect URI', async () => {
      const response = await http(base, 'POST', '/v1/oauth/clients', { token: admin, body: { name: 'x', redirect_uris: ['http://evil.example/cb'], grant_types: ['authorization_code'], scopes: ['read:logs'] } });
      expect(response.status).toBe(422);
      expect(response.body.errors[0].field).toBe('redirect_uris[0]');
    });
  });
});
