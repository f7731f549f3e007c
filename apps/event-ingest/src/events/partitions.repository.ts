import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface PartitionInfo {
  name: string;
  /** First day covered (UTC midnight). */
  day: Date;
}

const LOCK = `hashtext('vigil:events-partitions')`;

/** DDL for the daily partitions of event_ingest.events. Names: events_pYYYYMMDD. */
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
    const rows: { day: Date }[] = await this.dataSource.query(
      `SELECT DISTINCT date_trunc('day', "timestamp", 'UTC') AS day FROM event_ingest.events_default ORDER BY 1 DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.day);
  }

  /**
   * Creates the partition of one day. Rows of that day already in the default partition move
   * into it in the same transaction (PostgreSQL refuses to attach a range the default holds).
   * Returns how many rows moved, or null when the partition existed.
   */
  async create(day: Date): Promise<number | null> {
    const name = partitionName(day);
    const from = day.toISOString();
    const to = new Date(day.getTime() + 86_400_000).toISOString();
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
      const [exists] = await manager.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`event_ingest.${name}`]);
      if (exists.present) return null;
      const [{ waiting }] = await manager.query(
        `SELECT EXISTS (SELECT 1 FROM event_ingest.events_default WHERE "timestamp" >= $1 AND "timestamp" < $2) AS waiting`,
        [from, to],
      );
      let moved = 0;
      if (waiting) {
        await manager.query(`LOCK TABLE event_ingest.events_default IN SHARE ROW EXCLUSIVE MODE`);
        await manager.query(`CREATE TABLE event_ingest.${name} (LIKE event_ingest.events)`);
        const result: { n: number }[] = await manager.query(
          `WITH moved AS (DELETE FROM event_ingest.events_default WHERE "timestamp" >= $1 AND "timestamp" < $2 RETURNING *),
                copied AS (INSERT INTO event_ingest.${name} SELECT * FROM moved RETURNING 1)
           SELECT count(*)::int AS n FROM copied`,
          [from, to],
        );
        moved = result[0]!.n;
        await manager.query(`ALTER TABLE event_ingest.events ATTACH PARTITION event_ingest.${name} FOR VALUES FROM ('${from}') TO ('${to}')`);
      } else {
        await manager.query(`CREATE TABLE event_ingest.${name} PARTITION OF event_ingest.events FOR VALUES FROM ('${from}') TO ('${to}')`);
      }
      await manager.query(
        `INSERT INTO event_ingest.partition_log (partition_name, action, range_start, range_end, rows_moved) VALUES ($1, 'created', $2, $3, $4)`,
        [name, from, to, moved],
      );
      return moved;
    });
  }

  /**
   * Drops one day's partition whole (no row-by-row delete, no bloat) and, in the same transaction,
   * that day's hourly counts (docs/events.md#aggregate): counts never outlive their events. The
   * counts go after the DROP, which waits for writers to the day to commit, so none of their
   * counts are left behind.
   */
  async drop(partition: PartitionInfo, setting = 'retention', waitForTree = false): Promise<boolean> {
    const from = partition.day.toISOString();
    const to = new Date(partition.day.getTime() + 86_400_000).toISOString();
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
      const [exists] = await manager.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`event_ingest.${partition.name}`]);
      if (!exists.present) return false;
      // The verifiable log keeps the leaves of dropped events (docs/integrity.md#retention): a
      // partition holding events the tree has not taken yet waits, and the leaf ranges dropped are
      // recorded, with when and under which setting, so verification counts them as retained: false.
      if (waitForTree) {
        const [pending] = await manager.query(
          `SELECT EXISTS (SELECT 1 FROM event_ingest.${partition.name} WHERE seq > (SELECT tree_size FROM event_ingest.integrity_tree)) AS waiting`,
        );
        if (pending.waiting) return false;
      }
      await manager.query(`LOCK TABLE event_ingest.${partition.name} IN ACCESS EXCLUSIVE MODE`);
      await recordDroppedLeaves(manager, `SELECT seq FROM event_ingest.${partition.name}`, [], partition.name, from, to, setting);
      await manager.query(`DROP TABLE event_ingest.${partition.name}`);
      await manager.query(`DELETE FROM event_ingest.event_counts WHERE hour >= $1 AND hour < $2`, [from, to]);
      await manager.query(
        `INSERT INTO event_ingest.partition_log (partition_name, action, range_start, range_end) VALUES ($1, 'dropped', $2, $3)`,
        [partition.name, from, to],
      );
      return true;
    });
  }

  /**
   * Rows older than the cut-off that never got a partition of their own and, in the same
   * transaction, every hourly count before the cut-off. Called once the partitions before the
   * cut-off are dropped.
   */
  async purgeDefault(before: Date, setting = 'retention', waitForTree = false): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      // With the log on, only events the tree has taken (their leaves stay); the rest go next time.
      const condition = `"timestamp" < $1${waitForTree ? ' AND seq <= (SELECT tree_size FROM event_ingest.integrity_tree)' : ''}`;
      await recordDroppedLeaves(manager, `SELECT seq FROM event_ingest.events_default WHERE ${condition}`, [before.toISOString()], 'events_default', '-infinity', before.toISOString(), setting);
      const result: { n: number }[] = await manager.query(
        `WITH gone AS (DELETE FROM event_ingest.events_default WHERE ${condition} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
        [before.toISOString()],
      );
      await manager.query(`DELETE FROM event_ingest.event_counts WHERE hour < $1`, [before.toISOString()]);
      return result[0]!.n;
    });
  }
}

/**
 * Records the leaf ranges (index = seq - 1) of the events `seqSql` selects as dropped by retention:
 * runs of consecutive sequences, one row each.
 */
async function recordDroppedLeaves(manager: EntityManager, seqSql: string, params: unknown[], name: string, from: string, to: string, setting: string): Promise<void> {
  const n = params.length;
  await manager.query(
    `INSERT INTO event_ingest.integrity_retained_gaps (first_index, last_index, events, partition_name, range_start, range_end, setting)
     SELECT min(seq) - 1, max(seq) - 1, count(*), $${n + 1}, $${n + 2}::timestamptz, $${n + 3}::timestamptz, $${n + 4}
     FROM (SELECT seq, seq - row_number() OVER (ORDER BY seq) AS run FROM (${seqSql}) d) s
     GROUP BY run ORDER BY 1`,
    [...params, name, from, to, setting],
  );
}

export function partitionName(day: Date): string {
  return `events_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

function dayOfName(name: string): Date {
  const d = name.slice('events_p'.length);
  return new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T00:00:00.000Z`);
}
