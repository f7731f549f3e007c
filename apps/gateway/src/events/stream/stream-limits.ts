import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { DomainException, type Logger } from '@vigil/platform';
import { EventsApiErrorCode } from '../event-filters';

// Lease expiries are read on Redis's clock, never a replica's: a replica whose clock runs ahead
// would otherwise drop other replicas' live leases, and one whose clock lags would give its own
// leases an expiry already past. (Writing after TIME needs effects replication: Redis 5 and later.)
const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// Drop expired leases, count the rest, take one if there is room. One round trip, atomic.
// KEYS[1] the credential's set; ARGV: lease length (ms), limit, lease id.
const ACQUIRE_SCRIPT = `${NOW_MS}
local lease_ms = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local open = redis.call('ZCARD', KEYS[1])
if open >= tonumber(ARGV[2]) then return {0, open} end
redis.call('ZADD', KEYS[1], now + lease_ms, ARGV[3])
redis.call('PEXPIRE', KEYS[1], lease_ms * 2)
return {1, open + 1}
`;

// Extends one lease by a lease length from now. KEYS[1] the credential's set; ARGV: lease length (ms), lease id.
const RENEW_SCRIPT = `${NOW_MS}
local lease_ms = tonumber(ARGV[1])
redis.call('ZADD', KEYS[1], now + lease_ms, ARGV[2])
redis.call('PEXPIRE', KEYS[1], lease_ms * 2)
return 1
`;

/** The scripts as ioredis commands (defineCommand adds them to the connection and its pipelines). */
interface LeaseCommands {
  vigilStreamAcquire(key: string, leaseMs: number, limit: number, lease: string): Promise<[number, number]>;
  vigilStreamRenew(key: string, leaseMs: number, lease: string): unknown;
}

export interface StreamLimitsOptions {
  perCredential: number;
  /** The replica's Redis connection (shared by every replica, owned by the caller); unset: this replica counts its own streams. */
  redis?: Redis;
  prefix?: string;
  /** How long a replica's claim on a stream lasts without renewal (a crashed replica's streams free up after it). */
  leaseMs?: number;
  logger: Logger;
}

/**
 * Open streams per credential (at most 10 concurrent connections). With Redis (`REDIS_URL`, as
 * compose and Kubernetes run the gateway) the count is shared by every replica: each open stream
 * holds a lease in a sorted set per credential (score = expiry, on Redis's clock), renewed by its
 * replica every third of the lease and removed when the stream ends; a replica that dies without
 * removing its leases frees them when they expire. Without Redis, or while Redis does not answer, each replica
 * counts its own streams (logged): the stream limit must not take streaming down.
 * acquire() refuses the one over the limit with 429; the returned release is idempotent.
 */
export class StreamLimits {
  private readonly local = new Map<string, number>();
  private readonly leases = new Map<string, string>(); // lease id -> redis key
  private readonly redis: Redis | undefined;
  private readonly leaseMs: number;
  private readonly renewal: NodeJS.Timeout | undefined;
  private lastWarning = 0;
  /** After a failed call, Redis is left alone for a few seconds: opening a stream must not wait on it each time. */
  private redisBackoffUntil = 0;

  constructor(private readonly options: StreamLimitsOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    if (options.redis) {
      this.redis = options.redis;
      this.redis.defineCommand('vigilStreamAcquire', { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
      this.redis.defineCommand('vigilStreamRenew', { numberOfKeys: 1, lua: RENEW_SCRIPT });
      this.renewal = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
      this.renewal.unref();
    }
  }

  async acquire(credentialId: string): Promise<() => void> {
    const limit = this.options.perCredential;
    if (this.redis && Date.now() >= this.redisBackoffUntil) {
      const key = `${this.options.prefix ?? 'vigil:'}streams:${credentialId}`;
      const lease = randomUUID();
      try {
        const [taken, open] = await (this.redis as unknown as LeaseCommands).vigilStreamAcquire(key, this.leaseMs, limit, lease);
        if (!taken) throw tooMany(open, limit);
        this.leases.set(lease, key);
        this.count(credentialId, +1);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.leases.delete(lease);
          this.count(credentialId, -1);
          this.redis!.zrem(key, lease).catch(() => undefined); // else it expires with its lease
        };
      } catch (error) {
        if (error instanceof DomainException) throw error;
        this.warn(error);
      }
    }
    const current = this.local.get(credentialId) ?? 0;
    if (current >= limit) throw tooMany(current, limit);
    this.count(credentialId, +1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count(credentialId, -1);
    };
  }

  /** Stops renewing and gives back this replica's leases (the connection stays its owner's). */
  async close(): Promise<void> {
    clearInterval(this.renewal);
    if (this.redis && this.leases.size) {
      const pipeline = this.redis.pipeline();
      for (const [lease, key] of this.leases) pipeline.zrem(key, lease);
      await pipeline.exec().catch(() => undefined);
    }
    this.leases.clear();
  }

  private count(credentialId: string, delta: number) {
    const next = (this.local.get(credentialId) ?? 0) + delta;
    if (next <= 0) this.local.delete(credentialId);
    else this.local.set(credentialId, next);
  }

  private async renew() {
    if (!this.redis || !this.leases.size) return;
    const pipeline = this.redis.pipeline();
    for (const [lease, key] of this.leases) (pipeline as unknown as LeaseCommands).vigilStreamRenew(key, this.leaseMs, lease);
    // A pipeline resolves with each command's error rather than rejecting: look at them too.
    const results = await pipeline.exec().catch((error: unknown) => [[error, null] as const]);
    const failed = results?.find(([error]) => error)?.[0];
    if (failed) this.warn(failed);
  }

  private warn(error: unknown) {
    this.redisBackoffUntil = Date.now() + 5000;
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.options.logger.warn({ err: error }, 'Redis does not answer: open event streams are counted per gateway replica meanwhile');
  }
}

function tooMany(open: number, limit: number): DomainException {
  return new DomainException(
    429,
    EventsApiErrorCode.TooManyStreams,
    `This credential already has ${open} open event streams; at most ${limit} may be open at once.`,
    undefined,
    { 'Retry-After': '5' },
  );
}
