import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { BackoffPolicy } from './rate-limit.store';
import { RateLimiter, tooManyRequests } from './rate-limiter';

/** After 5 consecutive failures 1 s, then doubling to 15 min; forgotten a day after the last one. */
export const LOGIN_BACKOFF: BackoffPolicy = { lockAfter: 5, baseMs: 1000, maxMs: 15 * 60_000, memoryMs: 24 * 3600_000 };

/**
 * Login back-off per account, beside the per-address limit: guessing one account's password from
 * many addresses slows down exponentially. It is keyed by the e-mail as typed (trimmed, lower
 * case), never by whether the account exists, so an unknown e-mail is throttled exactly like a
 * known one and the answer tells nothing. The e-mail is stored hashed. Counters live where the
 * rate limits live (Redis, shared by replicas, when REDIS_URL is set).
 */
@Injectable()
export class LoginThrottle {
  constructor(@Inject(RateLimiter) private readonly limiter: RateLimiter) {}

  private subject(email: string): string {
    return `login:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;
  }

  /** 429 with Retry-After while the account is locked; auth is not asked then. */
  async assertOpen(email: string): Promise<void> {
    const ms = await this.withStore((store) => store.lockRemaining(this.subject(email)));
    if (ms <= 0) return;
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    throw tooManyRequests(`Too many failed logins for this e-mail address. Retry after ${seconds} s.`, seconds);
  }

  async failed(email: string): Promise<void> {
    await this.withStore((store) => store.recordFailure(this.subject(email), LOGIN_BACKOFF));
  }

  async succeeded(email: string): Promise<void> {
    await this.withStore((store) => store.clearFailures(this.subject(email)));
  }

  private async withStore<T>(use: (store: RateLimiter['store']) => Promise<T>): Promise<T> {
    try {
      return await use(this.limiter.store);
    } catch (error) {
      this.limiter.warnUnavailable(error);
      return use(this.limiter.fallback);
    }
  }
}
