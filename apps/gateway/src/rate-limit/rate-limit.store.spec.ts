import { MemoryRateLimitStore } from './rate-limit.store';
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
