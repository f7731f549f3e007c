import Redis from 'ioredis';

export interface Hit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
  /** True when a shared revocation marker exists for the credential (Redis only). */
  revoked: boolean;
}

/** Fixed-window counters: `hit` adds one to the bucket's current window. */
export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  hit(bucket: string, windowMs: number, revocationMarker?: string): Promise<Hit>;
  markRevoked(marker: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

/** One process's counters: right for a single gateway (standalone); replicas need Redis. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory' as const;
  private windows = new Map<string, { window: number; count: number }>();
  private lastSweep = 0;

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

  /** Drops buckets of past windows, so memory follows the number of active credentials. */
  private sweep(window: number, _windowMs: number) {
    this.lastSweep = window;
    for (const [key, entry] of this.windows) if (entry.window < window) this.windows.delete(key);
  }

  async markRevoked(): Promise<void> {
    /* one process: the local cache eviction is all there is */
  }

  async close(): Promise<void> {
    this.windows.clear();
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

/** Counters shared by every gateway replica. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  /** The gateway replica's one Redis connection (the stream limits use it too). */
  readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'vigil:') {
    this.redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false });
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('vigilHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
  }

  async hit(bucket: string, windowMs: number, revocationMarker?: string): Promise<Hit> {
    const window = Math.floor(Date.now() / windowMs);
    const key = `${this.prefix}rl:${bucket}:${window}`;
    const marker = revocationMarker ? `${this.prefix}revoked:${revocationMarker}` : '';
    const [count, pttl, revoked] = (await (this.redis as unknown as { vigilHit(...args: unknown[]): Promise<number[]> }).vigilHit(key, marker, windowMs)) as number[];
    return { count: count!, resetMs: pttl! > 0 ? pttl! : windowMs, revoked: revoked === 1 };
  }

  async markRevoked(marker: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(`${this.prefix}revoked:${marker}`, '1', 'EX', ttlSeconds);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
