import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type JsonWebKeySet, RpcPatterns, type VerifiedApiKey } from '@vigil/contracts';
import { generateApiKey } from '@vigil/domain';
import { CommonErrorCode, DomainException, type Logger } from '@vigil/platform';
import type { Request, Response } from 'express';
import { type Algorithm, sign } from 'jsonwebtoken';
import passport from 'passport';
import type { GatewayConfig } from '../gateway.service-definition';
import type { RpcClients } from '../rpc/rpc-clients';
import { ACCESS_TOKEN_STRATEGY, AccessTokenStrategy } from './access-token.strategy';
import { ApiKeyCache } from './api-key.cache';
import { API_KEY_STRATEGY, ApiKeyStrategy } from './api-key.strategy';
import { Authenticator } from './authenticator';
import { GatewayPassport } from './gateway-passport';
import { JwksCache } from './jwks.cache';

/**
 * The gateway's authentication as wired in GatewayModule (strategies, their Passport, the JWKS and
 * API-key caches), in front of a stand-in for auth's two RPC answers it needs: the JWKS and the
 * verification of an API key. The whole system runs in apps/standalone/src/access.int-spec.ts.
 */
const config = { JWT_ISSUER: 'vigil', JWT_AUDIENCE: 'vigil-api', API_KEY_CACHE_TTL_SECONDS: 300 } as GatewayConfig;
const silent = { warn: () => undefined } as unknown as Logger;

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

function ecKey(kid: string): SigningKey & { jwk: JsonWebKeySet['keys'][number] } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' } };
}

/** Auth as the gateway sees it over RPC: what it answers, and what it was asked. */
class AuthStandIn {
  jwks: JsonWebKeySet = { keys: [] };
  apiKeys = new Map<string, VerifiedApiKey>();
  asked: string[] = [];
  down = false;

  async call(pattern: string, data: { key?: string }): Promise<unknown> {
    this.asked.push(pattern);
    if (this.down) throw new DomainException(503, CommonErrorCode.ServiceUnavailable, 'The auth service is unavailable.');
    if (pattern === RpcPatterns.auth.jwks) return structuredClone(this.jwks);
    if (pattern === RpcPatterns.auth.apiKeysVerify) return { key: this.apiKeys.get(data.key!) ?? null };
    throw new Error(`unexpected call ${pattern}`);
  }

  jwksFetches(): number {
    return this.asked.filter((p) => p === RpcPatterns.auth.jwks).length;
  }
}

function gateway(auth: AuthStandIn) {
  const rpc = { auth } as unknown as RpcClients;
  const tokens = new AccessTokenStrategy(config, new JwksCache(rpc));
  const apiKeys = new ApiKeyStrategy(new ApiKeyCache(rpc, config, silent));
  const authenticator = new Authenticator(new GatewayPassport(tokens, apiKeys));
  const authenticate = (authorization: string | undefined, extra: Partial<Request> = {}) =>
    authenticator.authenticate({ headers: authorization === undefined ? {} : { authorization }, ...extra } as Request, {} as Response);
  return { authenticate, tokens };
}

const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: Record<string, unknown> = {}) => ({ sub: 'usr_1', scope: 'read:logs admin', token_use: 'access', sid: 'ses_1', jti: 'jti-1', exp: now() + 600, ...extra });
const signed = (key: SigningKey, extra: Record<string, unknown> = {}, options: { algorithm?: Algorithm; issuer?: string; audience?: string } = {}) =>
  sign(claims(extra), key.privateKey, { algorithm: 'ES256', keyid: key.kid, issuer: 'vigil', audience: 'vigil-api', ...options });
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function refusal(attempt: Promise<unknown>): Promise<DomainException> {
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainException);
  return error as DomainException;
}

describe('gateway authentication (passport strategies)', () => {
  let auth: AuthStandIn;
  let current: ReturnType<typeof ecKey>;

  beforeEach(() => {
    auth = new AuthStandIn();
    current = ecKey('kid-1');
    auth.jwks = { keys: [current.jwk] };
  });

  afterEach(() => jest.restoreAllMocks());

  it('accepts an access token signed with the key of its kid, as a user principal, and verifies it once', async () => {
    const { authenticate } = gateway(auth);
    const token = signed(current);
    await expect(authenticate(`Bearer ${token}`)).resolves.toEqual({
      kind: 'user',
      subject: 'usr_1',
      scopes: ['read:logs', 'admin'],
      credentialId: 'user:usr_1',
      sessionId: 'ses_1',
      tokenId: 'jti-1',
      clientId: undefined,
      expiresAtMs: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).exp * 1000,
    });
    await expect(authenticate(`bearer   ${token}  `)).resolves.toMatchObject({ subject: 'usr_1' });
    // An OAuth client's own token (client_credentials) is the client's principal.
    await expect(authenticate(`Bearer ${signed(current, { sub: 'cli_1', client_id: 'cli_1' })}`)).resolves.toMatchObject({ kind: 'client', credentialId: 'client:cli_1' });
    expect(auth.jwksFetches()).toBe(1);
  });

  it.each<[string, (key: SigningKey) => string]>([
    ['alg none', () => `${b64({ alg: 'none', typ: 'JWT', kid: 'kid-1' })}.${b64({ ...claims(), iss: 'vigil', aud: 'vigil-api' })}.`],
    [
      'HS256 keyed with the public JWK (algorithm confusion)',
      () => sign({ ...claims(), iss: 'vigil', aud: 'vigil-api' }, JSON.stringify(auth.jwks.keys[0]), { algorithm: 'HS256', keyid: 'kid-1' }),
    ],
    [
      'RS256 with an attacker key under the real kid',
      () => signed({ kid: 'kid-1', privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }, {}, { algorithm: 'RS256' }),
    ],
    ['ES384 under the real kid', () => signed({ kid: 'kid-1', privateKey: generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey }, {}, { algorithm: 'ES384' })],
  ])('refuses %s before looking up a key', async (_label, make) => {
    const { authenticate } = gateway(auth);
    const error = await refusal(authenticate(`Bearer ${make(current)}`));
    expect(error.status).toBe(401);
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    expect(error.message).toBe('The access token is invalid, expired or revoked.');
    expect(auth.jwksFetches()).toBe(0);
  });

  it.each<[string, (key: SigningKey) => string]>([
    ['a wrong issuer', (key) => signed(key, {}, { issuer: 'evil' })],
    ['a wrong audience', (key) => signed(key, {}, { audience: 'other-api' })],
    ['no issuer or audience', (key) => sign(claims(), key.privateKey, { algorithm: 'ES256', keyid: key.kid })],
    ['an expired token', (key) => signed(key, { exp: now() - 5 }, {})],
    ['an ES256 signature by another key under the real kid', () => signed({ kid: 'kid-1', privateKey: ecKey('x').privateKey })],
    ['a token that is not an access token', (key) => signed(key, { token_use: 'refresh' })],
  ])('refuses %s with 401', async (_label, make) => {
    const { authenticate } = gateway(auth);
    const error = await refusal(authenticate(`Bearer ${make(current)}`));
    expect(error.status).toBe(401);
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  });

  it('refuses a missing or malformed Authorization header without calling a strategy', async () => {
    const { authenticate } = gateway(auth);
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', `Bearer ${signed(current)} extra`]) {
      const error = await refusal(authenticate(header));
      expect([error.status, error.message]).toEqual([401, 'A valid access token or API key is required.']);
    }
    expect(auth.asked).toEqual([]);
  });

  it('fetches the JWKS again for an unknown kid, once for concurrent requests (which all wait for it), and at most every 10 s (key rotation)', async () => {
    const { authenticate } = gateway(auth);
    await authenticate(`Bearer ${signed(current)}`);
    expect(auth.jwksFetches()).toBe(1);

    // Auth rotates: a new key signs, the old one is still published.
    const rotated = ecKey('kid-2');
    auth.jwks = { keys: [rotated.jwk, current.jwk] };
    let clock = Date.now() + 11_000;
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => authenticate(`Bearer ${signed(rotated, { jti: `jti-r${i}` })}`)));
    expect(results.map((p) => p.subject)).toEqual(Array(5).fill('usr_1'));
    expect(auth.jwksFetches()).toBe(2);
    await expect(authenticate(`Bearer ${signed(current, { jti: 'jti-old' })}`)).resolves.toMatchObject({ subject: 'usr_1' });

    // A kid nobody published, right after a refresh: refused without asking auth again.
    const stranger = ecKey('kid-unknown');
    expect((await refusal(authenticate(`Bearer ${signed(stranger)}`))).status).toBe(401);
    expect(auth.jwksFetches()).toBe(2);
    // Ten seconds later it may ask again (and the kid is still unknown).
    clock += 10_001;
    expect((await refusal(authenticate(`Bearer ${signed(stranger)}`))).status).toBe(401);
    expect(auth.jwksFetches()).toBe(3);
  });

  it('answers with auth unreachable (503) rather than 401 when the JWKS cannot be fetched', async () => {
    const { authenticate } = gateway(auth);
    auth.down = true;
    const error = await refusal(authenticate(`Bearer ${signed(current)}`));
    expect([error.status, error.code]).toEqual([503, CommonErrorCode.ServiceUnavailable]);
  });

  it('refuses a verified token once its session or its jti is revoked', async () => {
    const { authenticate, tokens } = gateway(auth);
    const first = signed(current, { sid: 'ses_a', jti: 'jti-a' });
    const second = signed(current, { sid: 'ses_b', jti: 'jti-b' });
    await authenticate(`Bearer ${first}`);
    await authenticate(`Bearer ${second}`);
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    tokens.revoke('sid', 'ses_a', inAMinute);
    tokens.revoke('jti', 'jti-b', inAMinute);
    expect((await refusal(authenticate(`Bearer ${first}`))).status).toBe(401);
    expect((await refusal(authenticate(`Bearer ${second}`))).status).toBe(401);
    // Not yet verified when revoked: refused as well.
    expect((await refusal(authenticate(`Bearer ${signed(current, { sid: 'ses_a', jti: 'jti-c' })}`))).status).toBe(401);
  });

  it('accepts an API key through the bearer strategy, from the Authorization header only', async () => {
    const { authenticate } = gateway(auth);
    const key = generateApiKey();
    auth.apiKeys.set(key, { id: 'key_1', scopes: ['read:logs'], expires_at: null } as VerifiedApiKey);
    await expect(authenticate(`Bearer ${key}`)).resolves.toEqual({ kind: 'api_key', subject: 'key_1', scopes: ['read:logs'], credentialId: 'key:key_1' });

    // passport-http-bearer alone would take `access_token` from the query or body: not here.
    const inQuery = await refusal(authenticate(undefined, { query: { access_token: key } as never, body: { access_token: key } }));
    expect([inQuery.status, inQuery.message]).toEqual([401, 'A valid access token or API key is required.']);
    // The header wins; a second credential elsewhere does not make the request fail.
    await expect(authenticate(`Bearer ${key}`, { query: { access_token: 'other' } as never })).resolves.toMatchObject({ subject: 'key_1' });

    const unknown = await refusal(authenticate(`Bearer ${generateApiKey()}`));
    expect([unknown.status, unknown.message, unknown.headers]).toEqual([401, 'The API key is invalid, expired or revoked.', { 'WWW-Authenticate': 'Bearer error="invalid_token"' }]);
    // A broken checksum is refused without asking auth.
    const asked = auth.asked.length;
    expect((await refusal(authenticate(`Bearer ${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`))).status).toBe(401);
    expect(auth.asked.length).toBe(asked);
  });

  it('keeps two gateways in one process apart, and leaves the process-wide Passport empty', async () => {
    const one = gateway(auth);
    const two = gateway(auth);
    const token = signed(current, { sid: 'ses_shared' });
    await one.authenticate(`Bearer ${token}`);
    await two.authenticate(`Bearer ${token}`);
    one.tokens.revoke('sid', 'ses_shared', new Date(Date.now() + 60_000).toISOString());
    expect((await refusal(one.authenticate(`Bearer ${token}`))).status).toBe(401);
    // The other replica learns from its own subscription, not through a shared registry.
    await expect(two.authenticate(`Bearer ${token}`)).resolves.toMatchObject({ subject: 'usr_1' });
    const global = passport as unknown as { _strategy(name: string): unknown };
    expect(global._strategy(ACCESS_TOKEN_STRATEGY)).toBeUndefined();
    expect(global._strategy(API_KEY_STRATEGY)).toBeUndefined();
  });
});
