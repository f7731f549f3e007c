import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CommonErrorCode, CONFIG, DomainException, LOGGER, type Logger } from '@vigil/platform';
import type { GatewayConfig } from '../gateway.service-definition';
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from './rate-limit.store';
import { type RateLimitRule, rateLimitRules } from './rate-limits';

/** 429 with Retry-After (and `retry_after` in the problem document). */
export function tooManyRequests(detail: string, retryAfterSeconds: number): DomainException {
  return new DomainException(429, CommonErrorCode.RateLimited, detail, undefined, { 'Retry-After': String(retryAfterSeconds) });
}

export interface HeaderSink {
  setHeader(name: string, value: string): unknown;
}

/**
 * Counts a request against its rule, sets the RateLimit headers (draft-ietf-httpapi-ratelimit-headers)
 * and refuses with 429 + Retry-After past the limit. Redis when REDIS_URL is set (shared by all
 * replicas), in memory otherwise. If Redis fails, the request is counted in memory instead:
 * an outage of the counter store must not take the API down.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  readonly store: RateLimitStore;
  readonly fallback = new MemoryRateLimitStore();
  readonly rules: ReturnType<typeof rateLimitRules>;
  private warned = 0;

  constructor(@Inject(CONFIG) config: GatewayConfig, @Inject(LOGGER) private readonly logger: Logger) {
    this.store = config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL, `vigil:${config.KAFKA_TOPIC_PREFIX}`) : this.fallback;
    this.rules = rateLimitRules(config);
  }

  /** The Redis connection shared by all replicas' counters (REDIS_URL), if any; it closes with the limiter. */
  get sharedRedis(): RedisRateLimitStore['redis'] | undefined {
    return this.store instanceof RedisRateLimitStore ? this.store.redis : undefined;
  }

  /** Returns whether a shared revocation marker was found for `revocationMarker`. */
  async consume(subject: string, rule: RateLimitRule | null, res: HeaderSink, revocationMarker?: string): Promise<{ revoked: boolean }> {
    if (!rule) return { revoked: false };
    const windowMs = rule.windowSeconds * 1000;
    const bucket = `${rule.name}:${subject}`;
    let hit;
    try {
      hit = await this.store.hit(bucket, windowMs, revocationMarker);
    } catch (error) {
      this.warnUnavailable(error);
      hit = await this.fallback.hit(bucket, windowMs);
    }
    const reset = Math.max(1, Math.ceil(hit.resetMs / 1000));
    res.setHeader('RateLimit-Policy', `${rule.limit};w=${rule.windowSeconds}`);
    res.setHeader('RateLimit-Limit', String(rule.limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, rule.limit - hit.count)));
    res.setHeader('RateLimit-Reset', String(reset));
    if (hit.count > rule.limit) {
      throw tooManyRequests(`Too many requests: ${rule.limit} per ${rule.windowSeconds} s. Retry after ${reset} s.`, reset);
    }
    return { revoked: hit.revoked };
  }

  /**
   * Refuses with 429 when the bucket is already spent, without counting this request: lets the
   * guard turn away an address that has used up its failed-authentication budget before its
   * credential is checked (no call to auth), while a request that then succeeds costs nothing.
   */
  async refuseIfSpent(subject: string, rule: RateLimitRule, res: HeaderSink): Promise<void> {
    const windowMs = rule.windowSeconds * 1000;
    const bucket = `${rule.name}:${subject}`;
    let seen;
    try {
      seen = await this.store.peek(bucket, windowMs);
    } catch (error) {
      this.warnUnavailable(error);
      seen = await this.fallback.peek(bucket, windowMs);
    }
    if (seen.count < rule.limit) return;
    const reset = Math.max(1, Math.ceil(seen.resetMs / 1000));
    res.setHeader('RateLimit-Policy', `${rule.limit};w=${rule.windowSeconds}`);
    res.setHeader('RateLimit-Limit', String(rule.limit));
    res.setHeader('RateLimit-Remaining', '0');
    res.setHeader('RateLimit-Reset', String(reset));
    throw tooManyRequests(`Too many requests: ${rule.limit} per ${rule.windowSeconds} s. Retry after ${reset} s.`, reset);
  }

  /** A failing Redis is logged at most every 10 s; the caller counts in memory meanwhile. */
  warnUnavailable(error: unknown) {
    if (Date.now() - this.warned > 10_000) {
      this.warned = Date.now();
      this.logger.warn({ err: error }, 'rate-limit store unavailable; counting in memory');
    }
  }

  async onApplicationShutdown() {
    await this.store.close();
  }
}
