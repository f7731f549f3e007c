import { backoffLockMs, MemoryRateLimitStore, type RateLimitStore } from './rate-limit.store';
import { LOGIN_BACKOFF } from './login-throttle';
import { rateLimitRules } from './rate-limits';

describe('in-memory rate-limit windows', () => {
  it('counts per bucket within a window and starts again in the next one', async () => {
    let now = 120_000;
    const store = new MemoryRateLimitStore(() => now);
    expect((await store.hit('a', 60_000)).count).toBe(1);
    expect((await store.hit('a', 60_000)).count).toBe(2);
    expect((await store.hit('b', 60_000)).count).toBe(1);
    now += 30_000;
    const third = await store.hit('a', 60_000);
    expect(third).toEqual({ count: 3, resetMs: 30_000, revoked: false });
    now += 30_000;
    expect((await store.hit('a', 60_000)).count).toBe(1);
  });
});

describe('login back-off', () => {
  it('locks from the 5th consecutive failure for 1 s, doubling to a 15-minute cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffLockMs(n, LOGIN_BACKOFF))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => backoffLockMs(n, LOGIN_BACKOFF))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffLockMs(15, LOGIN_BACKOFF)).toBe(15 * 60_000);
    expect(backoffLockMs(10_000, LOGIN_BACKOFF)).toBe(15 * 60_000);
  });

  it('in memory: locks after the failures, lets the lock run out, resets on success and forgets after a day', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 4; i++) expect(await store.recordFailure('login:x', LOGIN_BACKOFF)).toBe(0);
    expect(await store.lockRemaining('login:x')).toBe(0);
    expect(await store.recordFailure('login:x', LOGIN_BACKOFF)).toBe(1000);
    expect(await store.lockRemaining('login:x')).toBe(1000);
    expect(await store.lockRemaining('login:y')).toBe(0);
    now += 400;
    expect(await store.lockRemaining('login:x')).toBe(600);
    now += 600;
    expect(await store.lockRemaining('login:x')).toBe(0);
    expect(await store.recordFailure('login:x', LOGIN_BACKOFF)).toBe(2000);
    await store.clearFailures('login:x');
    expect(await store.lockRemaining('login:x')).toBe(0);
    expect(await store.recordFailure('login:x', LOGIN_BACKOFF)).toBe(0);
    for (let i = 0; i < 3; i++) await store.recordFailure('login:x', LOGIN_BACKOFF);
    now += LOGIN_BACKOFF.memoryMs;
    expect(await store.recordFailure('login:x', LOGIN_BACKOFF)).toBe(0);
  });

  it('peeks at a window without counting', async () => {
    const now = 120_000;
    const store: RateLimitStore = new MemoryRateLimitStore(() => now);
    expect(await store.peek('a', 60_000)).toEqual({ count: 0, resetMs: 60_000 });
    await store.hit('a', 60_000);
    expect(await store.peek('a', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
    expect(await store.peek('a', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
  });
});

describe('rate-limit rules', () => {
  const rules = rateLimitRules({ RATE_LIMIT_DEFAULT_PER_MINUTE: 500, RATE_LIMIT_LOGIN_PER_MINUTE: 7, RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: 50 });

  it('gives the events routes their fixed limits: 1000 a minute to list, 2000 to read one', () => {
    expect(rules.forRoute('GET', '/v1/events')).toMatchObject({ limit: 1000, windowSeconds: 60 });
    expect(rules.forRoute('GET', '/v1/events/:event_id')).toMatchObject({ limit: 2000, windowSeconds: 60 });
  });

  it('holds password and secret checks to the stricter login limit, and everything else to the default', () => {
    for (const route of ['/v1/auth/login', '/oauth/token', '/oauth/authorize']) expect(rules.forRoute('POST', route)?.limit).toBe(7);
    expect(rules.forRoute('POST', '/v1/policies')).toMatchObject({ name: 'default', limit: 500 });
    expect(rules.forRoute('GET', '/health/ready')).toBeNull();
  });
});
