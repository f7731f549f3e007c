import { LOGIN_BACKOFF } from './login-throttle';
import { RedisRateLimitStore } from './rate-limit.store';

describe('Redis rate-limit store (real Redis): back-off and peek shared by replicas', () => {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `vigil-test-${process.pid}-${Date.now()}:`;
  const a = new RedisRateLimitStore(url, prefix);
  const b = new RedisRateLimitStore(url, prefix);
  afterAll(async () => {
    const keys = await a.redis.keys(`${prefix}*`);
    if (keys.length) await a.redis.del(...keys);
    await a.close();
    await b.close();
  });

  it('counts failures of one subject across two connections, locks, and clears', async () => {
    for (let i = 0; i < 4; i++) expect(await (i % 2 ? a : b).recordFailure('login:s', LOGIN_BACKOFF)).toBe(0);
    expect(await a.recordFailure('login:s', LOGIN_BACKOFF)).toBe(1000);
    const remaining = await b.lockRemaining('login:s');
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(1000);
    expect(await b.recordFailure('login:s', LOGIN_BACKOFF)).toBe(2000);
    expect(await a.lockRemaining('login:other')).toBe(0);
    await b.clearFailures('login:s');
    expect(await a.lockRemaining('login:s')).toBe(0);
    expect(await a.recordFailure('login:s', LOGIN_BACKOFF)).toBe(0);
  });

  it('peeks at a window without counting', async () => {
    expect((await a.peek('p', 60_000)).count).toBe(0);
    await a.hit('p', 60_000);
    await b.hit('p', 60_000);
    expect((await a.peek('p', 60_000)).count).toBe(2);
    expect((await b.peek('p', 60_000)).count).toBe(2);
  });
});
