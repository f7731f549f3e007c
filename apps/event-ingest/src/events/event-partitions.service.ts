import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { type PartitionInfo, PartitionsRepository } from './partitions.repository';

const DAY_MS = 86_400_000;

export function startOfUtcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The partitions retention drops: whole days entirely older than `retentionDays` before `now`. */
export function expiredPartitions(partitions: PartitionInfo[], now: Date, retentionDays: number): PartitionInfo[] {
  if (retentionDays <= 0) return [];
  const cutoff = startOfUtcDay(now).getTime() - retentionDays * DAY_MS;
  return partitions.filter((p) => p.day.getTime() + DAY_MS <= cutoff);
}

/** The days that must have a partition: yesterday (late events) through `ahead` days from now. */
export function wantedDays(now: Date, ahead: number): Date[] {
  const today = startOfUtcDay(now).getTime();
  const days: Date[] = [];
  for (let d = -1; d <= ahead; d++) days.push(new Date(today + d * DAY_MS));
  return days;
}

/**
 * Keeps event_ingest.events partitioned by day: creates the coming days' partitions, gives days
 * that arrived in the default partition (late or back-filled events) their own partition, and
 * drops whole partitions past EVENTS_RETENTION_DAYS. Runs at start and every
 * EVENTS_MAINTENANCE_INTERVAL_MS; replicas serialise on an advisory lock.
 */
@Injectable()
export class EventPartitions implements OnModuleInit, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(PartitionsRepository) private readonly partitions: PartitionsRepository,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'event-partitions' });
  }

  async onModuleInit() {
    await this.maintain();
    this.timer = setInterval(() => {
      this.maintain().catch((error) => this.logger.error({ err: error }, 'partition maintenance failed'));
    }, this.config.EVENTS_MAINTENANCE_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown() {
    if (this.timer) clearInterval(this.timer);
  }

  async maintain(now = new Date()): Promise<{ created: string[]; dropped: string[]; purged: number }> {
    const created: string[] = [];
    const retention = this.config.EVENTS_RETENTION_DAYS;
    const oldest = retention > 0 ? startOfUtcDay(now).getTime() - retention * DAY_MS : -Infinity;
    const days = [...wantedDays(now, this.config.EVENTS_PARTITIONS_AHEAD_DAYS), ...(await this.partitions.daysInDefault(62))];
    for (const day of days) {
      if (day.getTime() < oldest) continue;
      const moved = await this.partitions.create(day);
      if (moved !== null) created.push(day.toISOString().slice(0, 10));
    }
    // Hourly counts go in the transactions that remove their events (each day's drop, then the
    // default partition's purge): aggregates read whole hours from the counts, so counts left for
    // events already gone would overstate them, and a failure half way must not leave any.
    // The database drops nothing the event log has not taken (a partition waits for a later round)
    // and records the leaf ranges dropped with the setting (docs/integrity.md#retention).
    const dropped: string[] = [];
    for (const partition of expiredPartitions(await this.partitions.list(), now, retention)) {
      if (await this.partitions.drop(partition, retention)) dropped.push(partition.name);
      else this.logger.warn({ partition: partition.name }, 'partition kept until the event log has taken its events');
    }
    const purged = retention > 0 ? await this.partitions.purgeDefault(retention) : 0;
    if (created.length || dropped.length || purged) this.logger.info({ created, dropped, purged }, 'event partitions maintained');
    return { created, dropped, purged };
  }

  /** Partitions for every day of [from, to] (back-fills, benchmarks). */
  async ensureRange(from: Date, to: Date): Promise<void> {
    for (let day = startOfUtcDay(from).getTime(); day <= startOfUtcDay(to).getTime(); day += DAY_MS) {
      await this.partitions.create(new Date(day));
    }
  }
}
