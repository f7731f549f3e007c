import Redis from 'ioredis';

export interface Hit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
  /** True when a shared revocation marker exists for the credential (Redis only). */
  revoked: boolean;
}

/**
 * Back-off after consecutive failures of one subject (a login e-mail): the `lockAfter`-th
 * consecutive failure locks the subject for `baseMs`, each further one for twice as long as the
 * last, up to `maxMs`. The count is forgotten `memoryMs` after the last failure, or at once on
 * success (`clearFailures`).
 */
export interface BackoffPolicy {
  lockAfter: number;
  baseMs: number;
  maxMs: number;
  memoryMs: number;
}

/** The lock the `failures`-th consecutive failure leaves: 0 below `lockAfter`. */
export function backoffLockMs(failures: number, policy: BackoffPolicy): number {
  if (failures < policy.lockAfter) return 0;
  const doublings = Math.min(failures - policy.lockAfter, 40);
  return Math.min(policy.baseMs * 2 ** doublings, policy.maxMs);
}

/** Fixed-window counters: `hit` adds one to the bucket's current window. */
export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  hit(bucket: string, windowMs: number, revocationMarker?: string): Promise<Hit>;
  /** The bucket's count in the current window, without adding to it. */
  peek(bucket: string, windowMs: number): Promise<Omit<Hit, 'revoked'>>;
  /** Milliseconds the subject stays locked after its failures; 0 when it is not. */
  lockRemaining(subject: string): Promise<number>;
  /** Counts one more consecutive failure; returns the lock it leaves (ms, 0 for none). */
  recordFailure(subject: string, policy: BackoffPolicy): Promise<number>;
  clearFailures(subject: string): Promise<void>;
  markRevoked(marker: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

/** One process's counters: right for a single gateway (standalone); replicas need Redis. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory' as const;
  private windows = new Map<string, { window: number; count: number }>();
  private lastSweep = 0;
  private failures = new Map<string, { count: number; lockedUntil: number; forgetAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(bucket: string, windowMs: number): Promise<Hit> {
    const now = this.now();
    const window = Math.floor(now / windowMs);
    if (window !== this.lastSweep) this.sweep(window, windowMs);
    const entry = this.windows.get(bucket);
    const current = entry && entry.window === window ? entry : { window, count: 0 };
    current.count++;
    this.windows.set(bucket, current);
    return { count: current.count, resetMs: (window + 1) * windowMs - now, revoked: false };
  }

  async peek(bucket: string, windowMs: number): Promise<Omit<Hit, 'revoked'>> {
    const now = this.now();
    const window = Math.floor(now / windowMs);
    const entry = this.windows.get(bucket);
    return { count: entry && entry.window === window ? entry.count : 0, resetMs: (window + 1) * windowMs - now };
  }

  /** Drops buckets of past windows, so memory follows the number of active credentials. */
  private sweep(window: number, _windowMs: number) {
    this.lastSweep = window;
    for (const [key, entry] of this.windows) if (entry.window < window) this.windows.delete(key);
  }

  async markRevoked(): Promise<void> {
    /* one process: the local cache eviction is all there is */
  }

  async lockRemaining(subject: string): Promise<number> {
    const entry = this.failures.get(subject);
    return entry ? Math.max(0, entry.lockedUntil - this.now()) : 0;
  }

  async recordFailure(subject: string, policy: BackoffPolicy): Promise<number> {
    const now = this.now();
    if (this.failures.size > 10_000) for (const [key, e] of this.failures) if (e.forgetAt <= now) this.failures.delete(key);
    const previous = this.failures.get(subject);
    const count = previous && previous.forgetAt > now ? previous.count + 1 : 1;
    const lock = backoffLockMs(count, policy);
    this.failures.set(subject, { count, lockedUntil: lock ? now + lock : 0, forgetAt: now + policy.memoryMs });
    return lock;
  }

  async clearFailures(subject: string): Promise<void> {
    this.failures.delete(subject);
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.failures.clear();
  }
}

// INCR the window's counter (setting its expiry on first use) and, in the same round trip, look
// for a revocation marker: shared revocation costs nothing extra per request.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local revoked = 0
if KEYS[2] ~= '' then revoked = redis.call('EXISTS', KEYS[2]) end
return {count, redis.call('PTTL', KEYS[1]), revoked}
`;

// One more consecutive failure; from the lockAfter-th on, a lock key whose time to live is the lock,
// so every replica sees the same lock without comparing clocks.
const FAILURE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local lock = 0
if count >= tonumber(ARGV[2]) then
  lock = math.min(tonumber(ARGV[3]) * 2 ^ math.min(count - tonumber(ARGV[2]), 40), tonumber(ARGV[4]))
  redis.call('SET', KEYS[2], '1', 'PX', math.floor(lock))
end
return math.floor(lock)
`;

/** Counters shared by every gateway replica. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  /** The gateway replica's one Redis connection (the stream limits use it too). */
  readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'vigil:') {
    this.redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('vigilHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
    this.redis.defineCommand('vigilFailure', { numberOfKeys: 2, lua: FAILURE_SCRIPT });
  }

  private failureKeys(subject: string): [string, string] {
    return [`${this.prefix}fail:${subject}`, `${this.prefix}lock:${subject}`];
  }

  async lockRemaining(subject: string): Promise<number> {
    const ttl = await this.redis.pttl(this.failureKeys(subject)[1]);
    return ttl > 0 ? ttl : 0;
  }

  async recordFailure(subject: string, policy: BackoffPolicy): Promise<number> {
    const [counter, lock] = this.failureKeys(subject);
    const run = (this.redis as unknown as { vigilFailure(...args: unknown[]): Promise<number> }).vigilFailure;
    return Number(await run.call(this.redis, counter, lock, policy.memoryMs, policy.lockAfter, policy.baseMs, policy.maxMs));
  }

  async clearFailures(subject: string): Promise<void> {
    await this.redis.del(...this.failureKeys(subject));
  }

  async hit(bucket: string, windowMs: number, revocationMarker?: string): Promise<Hit> {
    const window = Math.floor(Date.now() / windowMs);
    const key = `${this.prefix}rl:${bucket}:${window}`;
    const marker = revocationMarker ? `${this.prefix}revoked:${revocationMarker}` : '';
    const [count, pttl, revoked] = (await (this.redis as unknown as { vigilHit(...args: unknown[]): Promise<number[]> }).vigilHit(key, marker, windowMs)) as number[];
    return { count: count!, resetMs: pttl! > 0 ? pttl! : windowMs, revoked: revoked === 1 };
  }

  async peek(bucket: string, windowMs: number): Promise<Omit<Hit, 'revoked'>> {
    const window = Math.floor(Date.now() / windowMs);
    const key = `${this.prefix}rl:${bucket}:${window}`;
    const [[, count], [, pttl]] = (await this.redis.multi().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]];
    return { count: Number(count ?? 0), resetMs: pttl > 0 ? pttl : windowMs };
  }

  async markRevoked(marker: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(`${this.prefix}revoked:${marker}`, '1', 'EX', ttlSeconds);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
