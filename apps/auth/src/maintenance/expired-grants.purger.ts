import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import type { AuthConfig } from '../auth.service-definition';
import { EXPIRING_TABLES, ExpiredGrantsRepository } from './expired-grants.repository';

/** Rows deleted per statement: short transactions, short locks. */
export const PURGE_BATCH = 1000;
/** Batches per table and run: a backlog is worked off over several runs rather than in one long one. */
const MAX_BATCHES_PER_RUN = 50;

/**
 * Deletes expired authorization requests, authorization codes and refresh tokens on a schedule
 * (AUTH_PURGE_INTERVAL_SECONDS). They can no longer be used: an expired code or request is refused
 * and an expired refresh token too (reuse detection needs a used token only while it could still
 * have been valid). Without the purge these tables only grow.
 */
@Injectable()
export class ExpiredGrantsPurger implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(ExpiredGrantsRepository) private readonly grants: ExpiredGrantsRepository,
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.running ??= this.purge()
        .then(() => undefined)
        .catch((error: unknown) => this.logger.error({ err: error }, 'purging expired grants failed; retried at the next run'))
        .finally(() => (this.running = undefined));
    }, this.config.AUTH_PURGE_INTERVAL_SECONDS * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.running;
  }

  /** One run: every table, in bounded batches. */
  async purge(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const target of EXPIRING_TABLES) {
      let total = 0;
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
        const count = await this.grants.deleteExpired(target, PURGE_BATCH);
        total += count;
        if (count < PURGE_BATCH) break;
      }
      deleted[target.table] = total;
    }
    if (Object.values(deleted).some((n) => n > 0)) this.logger.info({ deleted }, 'purged expired grants');
    return deleted;
  }
}
