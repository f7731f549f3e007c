import { type ChildService, freePort, spawnTs, startEarlyInWindow, waitFor } from '@vigil/testing';
import { apiKey, openStream, shortLivedToken } from './testing/access';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Two more gateway processes beside the system's own, on Kafka, sharing Redis: rate limits hold
 * across them, a key revoked through one is refused by the others, and event streams on every
 * replica end with their credential.
 */
describe('access across gateway replicas (Kafka, Redis)', () => {
  let system: TestSystem;
  const replicas: { process: ChildService; url: string }[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'kafka' });
    const rpc = (name: string) => `127.0.0.1:${system.services.find((s) => s.name === name)!.context.config.RPC_PORT}`;
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const child = spawnTs('apps/gateway/src/main.ts', {
        PORT: String(port),
        METRICS_PORT: '0',
        HOST: '127.0.0.1',
        KAFKA_BROKERS: system.kafka!.brokers.join(','),
        KAFKA_TOPIC_PREFIX: system.kafka!.prefix,
        AUTH_RPC_ADDRESS: rpc('auth'),
        POLICY_RPC_ADDRESS: rpc('policy'),
        EVENT_INGEST_RPC_ADDRESS: rpc('event-ingest'),
        DELIVERY_RPC_ADDRESS: rpc('delivery'),
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        RATE_LIMIT_LOGIN_PER_MINUTE: '6',
        // Loopback is the peer; without X-Forwarded-For it is also the client.
        TRUST_PROXY: '127.0.0.1/32',
        LOG_LEVEL: 'warn',
      });
      replicas.push({ process: child, url: `http://127.0.0.1:${port}` });
    }
    for (const replica of replicas) {
      await waitFor(async () => (await fetch(`${replica.url}/health/ready`).catch(() => undefined))?.status === 200, 60_000, 'gateway replica ready').catch((error) => {
        throw new Error(`${error.message}\n${replica.process.output().slice(-2000)}`);
      });
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.process.stop()));
    await system?.close();
  });

  it('holds the login limit across two gateway processes sharing Redis', async () => {
    const [a, b] = replicas;
    const statuses: number[] = [];
    // The limit counts in fixed one-minute windows: start early in one, so all eight attempts fall
    // into it (they take a few seconds), instead of straddling two.
    await startEarlyInWindow();
    for (let i = 0; i < 8; i++) {
      const target = i % 2 === 0 ? a! : b!;
      // One e-mail per attempt: the per-account back-off is the next test's.
      const response = await http(target.url, 'POST', '/v1/auth/login', { body: { email: `guess-${i}@example.com`, password: `guess-${i}` } });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // 6 per minute in all, not 6 per replica: the 7th and 8th are refused, whichever replica they hit.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  }, 90_000);

  it('backs off one account across both replicas (shared counters), whichever addresses the attempts come from', async () => {
    const [a, b] = replicas;
    const email = `shared-${Date.now()}@example.com`;
    const attempt = (target: { url: string }, i: number) =>
      http(target.url, 'POST', '/v1/auth/login', { body: { email, password: `guess-${i}` }, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt(i % 2 === 0 ? a! : b!, i)).status);
    const locked = await attempt(b!, 5);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'rate_limited', retry_after: 1 });
  }, 60_000);

  it('refuses a revoked key at once on the other replica (shared marker), and on a replica without Redis once the revocation arrives over Kafka', async () => {
    const admin = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    const { id, key } = await apiKey(system.gatewayUrl, admin, ['read:logs']);
    const probe = (url: string) => http(url, 'GET', '/v1/events/evt_00000000000000000000000000', { token: key });
    // Every gateway has the key in its cache.
    for (const url of [replicas[0]!.url, replicas[1]!.url, system.gatewayUrl]) expect((await probe(url)).status).toBe(404);

    expect((await http(replicas[0]!.url, 'DELETE', `/v1/api-keys/${id}`, { token: admin })).status).toBe(200);
    expect((await probe(replicas[0]!.url)).status).toBe(401);
    expect((await probe(replicas[1]!.url)).status).toBe(401);
    // The system's own gateway has no Redis: it learns from auth.credential-revocations.v1.
    const started = Date.now();
    await waitFor(async () => (await probe(system.gatewayUrl)).status === 401, 15_000, 'revocation delivered over Kafka');
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  describe('event streams follow their credential on every replica', () => {
    const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    // The earlier tests spent the login budget of 127.0.0.1 on the replicas: log in from another (trusted proxy) address.
    let address = 10;
    const loginOnReplica = async (url: string, email: string, password: string): Promise<string> => {
      const response = await http(url, 'POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': `203.0.113.${address++}` } });
      if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.access_token;
    };

    it('closes streams on both replicas within a second of the API key being deleted through a third gateway', async () => {
      const admin = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
      const { id, key } = await apiKey(system.gatewayUrl, admin, ['read:logs']);
      const streams = [await openStream(replicas[0]!.url, key), await openStream(replicas[1]!.url, key)];
      const deletedAt = Date.now();
      expect((await http(system.gatewayUrl, 'DELETE', `/v1/api-keys/${id}`, { token: admin })).status).toBe(200);
      for (const stream of streams) {
        const ended = await stream.ended;
        expect(ended.closed?.reason).toBe('api_key_revoked');
        expect(ended.atMs - deletedAt).toBeLessThan(1000);
      }
    }, 30_000);

    it('closes a stream on one replica when its user is disabled through the other, and one whose session logs out', async () => {
      const admin = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
      const email = `stream-${Date.now()}@example.com`;
      const created = await http(replicas[0]!.url, 'POST', '/v1/users', { token: admin, body: { email, password: 'a-long-enough-password', scopes: ['read:logs'] } });
      expect(created.status).toBe(201);
      const first = await loginOnReplica(replicas[0]!.url, email, 'a-long-enough-password');
      const second = await loginOnReplica(replicas[0]!.url, email, 'a-long-enough-password');
      const byLogout = await openStream(replicas[1]!.url, second);
      const byDisable = await openStream(replicas[0]!.url, first);

      const loggedOutAt = Date.now();
      expect((await http(replicas[0]!.url, 'POST', '/v1/auth/logout', { token: second })).status).toBe(200);
      const afterLogout = await byLogout.ended;
      expect(afterLogout.closed?.reason).toBe('logged_out');
      expect(afterLogout.atMs - loggedOutAt).toBeLessThan(1000);

      const disabledAt = Date.now();
      expect((await http(replicas[1]!.url, 'PATCH', `/v1/users/${created.body.id}`, { token: admin, body: { disabled: true } })).status).toBe(200);
      const afterDisable = await byDisable.ended;
      expect(afterDisable.closed?.reason).toBe('user_disabled');
      expect(afterDisable.atMs - disabledAt).toBeLessThan(1000);
      // The disabled user's token is refused everywhere.
      for (const url of [replicas[0]!.url, replicas[1]!.url, system.gatewayUrl]) {
        expect((await http(url, 'GET', '/v1/events/evt_00000000000000000000000000', { token: first })).status).toBe(401);
      }
    }, 30_000);

    it('closes streams on both replicas when their access token expires', async () => {
      const admin = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
      const token = await shortLivedToken(system, claims(admin).sub, ['read:logs'], 3);
      const expiresAt = claims(token).exp * 1000;
      const streams = [await openStream(replicas[0]!.url, token), await openStream(replicas[1]!.url, token)];
      for (const stream of streams) {
        const ended = await stream.ended;
        expect(ended.closed?.reason).toBe('token_expired');
        expect(ended.atMs - expiresAt).toBeLessThan(1000);
      }
    }, 30_000);
  });
});
