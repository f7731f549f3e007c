import { type ChildService, freePort, spawnTs, waitFor } from '@vigil/testing';
import { apiKey } from './testing/access';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Two more gateway processes beside the system's own, on Kafka, sharing Redis: rate limits hold
 * across them, and a key revoked through one is refused by the others.
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
    for (let i = 0; i < 8; i++) {
      const target = i % 2 === 0 ? a! : b!;
      // One e-mail per attempt: the per-account back-off is the next test's.
      const response = await http(target.url, 'POST', '/v1/auth/login', { body: { email: `guess-${i}@example.com`, password: `guess-${i}` } });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // 6 per minute in all, not 6 per replica: the 7th and 8th are refused, whichever replica they hit.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  }, 60_000);

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
});
