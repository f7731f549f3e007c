import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface PartitionInfo {
  name: string;
  /** First day covered (UTC midnight). */
  day: Date;
}

/**
 * The daily partitions of event_ingest.events. Names: events_pYYYYMMDD. Every change goes through
 * the owner's SECURITY DEFINER functions (migration 1772600000000-least-privilege): the runtime
 * role holds no DDL right on the table and cannot delete a stored event, and the functions only
 * create day partitions, move late rows out of the default partition, and drop what is older than
 * the retention (never below the floor the owner set). Each call is one transaction.
 */
@Injectable()
export class PartitionsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async list(): Promise<PartitionInfo[]> {
    const rows: { name: string }[] = await this.dataSource.query(
      `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
       WHERE n.nspname = 'event_ingest' AND p.relname = 'events' AND c.relname ~ '^events_p[0-9]{8}$'`,
    );
    return rows
      .map((r) => ({ name: r.name, day: dayOfName(r.name) }))
      .sort((a, b) => a.day.getTime() - b.day.getTime());
  }

  /** Days (UTC) that have rows waiting in the default partition. */
  async daysInDefault(limit: number): Promise<Date[]> {
    const rows: { day: Date }[] = await this.dataSource.query(`SELECT day FROM event_ingest.days_in_default_partition($1) AS day`, [limit]);
    return rows.map((r) => r.day);
  }

  /**
   * Creates the partition of one day. Rows of that day already in the default partition move
   * into it in the same transaction (PostgreSQL refuses to attach a range the default holds).
   * Returns how many rows moved, or null when the partition existed.
   */
  async create(day: Date): Promise<number | null> {
    const [row]: { moved: number | null }[] = await this.dataSource.query(`SELECT event_ingest.create_event_partition($1::date) AS moved`, [
      day.toISOString().slice(0, 10),
    ]);
    return row!.moved;
  }

  /**
   * Drops one day's partition whole (no row-by-row delete, no bloat) and, in the same transaction,
   * that day's hourly counts (docs/events.md#aggregate): counts never outlive their events. The
   * database refuses a day younger than `retentionDays`, or a retention below its floor.
   */
  async drop(partition: PartitionInfo, retentionDays: number): Promise<boolean> {
    const [row]: { dropped: boolean }[] = await this.dataSource.query(`SELECT event_ingest.drop_expired_event_partition($1, $2) AS dropped`, [partition.name, retentionDays]);
    return row!.dropped;
  }

  /**
   * Rows older than the retention that never got a partition of their own and, in the same
   * transaction, every hourly count before the cut-off. Called once the partitions before the
   * cut-off are dropped.
   */
  async purgeDefault(retentionDays: number): Promise<number> {
    const [row]: { n: string }[] = await this.dataSource.query(`SELECT event_ingest.purge_expired_default_events($1) AS n`, [retentionDays]);
    return Number(row!.n);
  }
}

export function partitionName(day: Date): string {
  return `events_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

function dayOfName(name: string): Date {
  const d = name.slice('events_p'.length);
  return new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T00:00:00.000Z`);
}
