import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createLogger, DomainException } from '@vigil/platform';
import { waitFor } from '@vigil/testing';
import { StreamLimits } from './stream-limits';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger('test', 'silent');

/** The per-credential stream limit shared through a real Redis by several gateway replicas. */
describe('stream limits across gateway replicas (Redis)', () => {
  const prefix = `vigil:test-${randomBytes(4).toString('hex')}:`;
  const made: StreamLimits[] = [];
  const connections: Redis[] = [];
  const connectionOf = new Map<StreamLimits, Redis>();
  // Each replica has its own connection, as each gateway process does.
  const replica = (leaseMs?: number, redisUrl = REDIS_URL) => {
    const redis = new Redis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on('error', () => undefined);
    connections.push(redis);
    const limits = new StreamLimits({ perCredential: 10, redis, prefix, leaseMs, logger });
    made.push(limits);
    connectionOf.set(limits, redis);
    return limits;
  };
  const refused = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainException);
    expect((error as DomainException).status).toBe(429);
    expect((error as DomainException).headers).toEqual({ 'Retry-After': '5' });
  };

  afterAll(async () => {
    await Promise.all(made.map((l) => l.close()));
    connections.forEach((c) => c.disconnect());
  });

  it('counts one credential across replicas: the 11th stream is refused wherever it opens', async () => {
    const a = replica();
    const b = replica();
    const releases = [];
    for (let i = 0; i < 6; i++) releases.push(await a.acquire('key_1'));
    for (let i = 0; i < 4; i++) releases.push(await b.acquire('key_1'));
    await refused(a.acquire('key_1'));
    await refused(b.acquire('key_1'));
    // Another credential has its own ten.
    releases.push(await b.acquire('key_2'));
    // A stream ending on one replica makes room on the other.
    releases[0]!();
    releases[0]!(); // idempotent
    await waitFor(async () => (await b.acquire('key_1').then((r) => (releases.push(r), true), () => false)), 2000, 'room after a release');
    await refused(a.acquire('key_1'));
    // Each replica also counts the streams it holds (5 each now): should Redis stop answering, a
    // replica goes on from its own count, so each may open 5 more and refuses the one after.
    for (const limits of [a, b]) {
      connectionOf.get(limits)!.disconnect();
      for (let i = 0; i < 5; i++) releases.push(await limits.acquire('key_1'));
      await refused(limits.acquire('key_1'));
    }
    releases.forEach((r) => r());
  });

  it("frees a crashed replica's streams when their leases expire, while live replicas keep theirs by renewing", async () => {
    const crashed = replica(600);
    const live = replica(600);
    for (let i = 0; i < 5; i++) await crashed.acquire('key_3');
    for (let i = 0; i < 5; i++) await live.acquire('key_3');
    await refused(live.acquire('key_3'));
    // The crash: renewals stop, nothing is removed (close() would remove them: stop the timer only).
    clearInterval((crashed as unknown as { renewal: NodeJS.Timeout }).renewal);
    (crashed as unknown as { leases: Map<string, string> }).leases.clear();
    await new Promise((r) => setTimeout(r, 1500)); // more than two lease lengths: live renewed meanwhile
    for (let i = 0; i < 5; i++) await live.acquire('key_3');
    await refused(live.acquire('key_3'));
  });

  // Replicas' clocks disagree; lease expiries must come from one clock (Redis's), not from each replica's.
  describe('with a replica whose clock is off by an hour', () => {
    const realNow = Date.now.bind(Date);
    const skew = (offsetMs: number) => jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs);
    afterEach(() => jest.restoreAllMocks());

    it("a replica whose clock runs ahead does not take other replicas' live leases for expired", async () => {
      const live = replica(600);
      const ahead = replica(600);
      for (let i = 0; i < 5; i++) await live.acquire('key_5');
      skew(3_600_000);
      for (let i = 0; i < 5; i++) await ahead.acquire('key_5');
      await refused(ahead.acquire('key_5'));
    });

    it('a replica whose clock lags keeps its leases alive by renewing them', async () => {
      const behind = replica(600);
      const other = replica(600);
      for (let i = 0; i < 5; i++) await behind.acquire('key_6');
      const scores = async () => (await connectionOf.get(other)!.zrange(`${prefix}streams:key_6`, 0, -1, 'WITHSCORES')).filter((_, i) => i % 2).join();
      const acquired = await scores();
      skew(-3_600_000);
      await waitFor(async () => (await scores()) !== acquired, 2000, 'a renewal with the clock behind');
      jest.restoreAllMocks();
      for (let i = 0; i < 5; i++) await other.acquire('key_6');
      await refused(other.acquire('key_6'));
    });
  });

  it('counts per replica when Redis does not answer, rather than refusing every stream', async () => {
    const offline = replica(undefined, 'redis://127.0.0.1:1');
    for (let i = 0; i < 10; i++) await offline.acquire('key_4');
    await refused(offline.acquire('key_4'));
  });
});
