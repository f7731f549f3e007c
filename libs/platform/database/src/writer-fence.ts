import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { quoteIdent, sqlMigration } from './data-source';

/**
 * The writer fence of a service's schema (docs/operations.md#upgrading-and-migrations): one row,
 * `min_writer`, the oldest release (named by its newest migration's timestamp) that may still write.
 * Most releases leave it alone, and old and new replicas write side by side during a rolling
 * update. A release whose data cannot be kept right by older code (a new table kept up to date by
 * the code that writes events, a new way of recognising redeliveries) raises it in its migration:
 * from that commit on, every replica of an older release refuses to write (its transactions fail
 * before they change anything, nothing is committed or dead-lettered, and its readiness turns
 * 503) until the new release's replicas take its place.
 */
export function writerFenceMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const s = quoteIdent(schema);
  return sqlMigration(
    'WriterFence',
    timestamp,
    [
      `CREATE TABLE ${s}.writer_fence (
         singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
         min_writer bigint      NOT NULL,
         reason     text        NOT NULL,
         raised_at  timestamptz NOT NULL DEFAULT now()
       )`,
      `INSERT INTO ${s}.writer_fence (min_writer, reason) VALUES (0, 'no release fenced older writers')`,
    ],
    [`DROP TABLE ${s}.writer_fence`],
  );
}

/**
 * For a migration that older releases cannot write beside: raises the fence to the migration's own
 * timestamp. Its ACCESS EXCLUSIVE lock waits for every write transaction in flight (each read the
 * fence, and holds the table's ACCESS SHARE lock until it ends), so none of an older replica's
 * commits after the fence is raised; transactions that start meanwhile wait and then read the new value.
 */
export async function raiseWriterFence(runner: QueryRunner, schema: string, timestamp: number, reason: string): Promise<void> {
  await runner.query(`LOCK TABLE ${quoteIdent(schema)}.writer_fence IN ACCESS EXCLUSIVE MODE`);
  await runner.query(`UPDATE ${quoteIdent(schema)}.writer_fence SET min_writer = GREATEST(min_writer, $1::bigint), reason = $2, raised_at = now()`, [timestamp, reason]);
}

/** The timestamp a migration's name ends with (`EventCounts1771100000000`), or undefined. */
function timestampOf(name: string): number | undefined {
  const match = /(\d{13})$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

function migrationName(migration: unknown): string {
  if (typeof migration === 'function') {
    const instance = new (migration as new () => MigrationInterface)();
    return instance.name ?? (migration as { name: string }).name;
  }
  return (migration as MigrationInterface).name ?? (migration as object).constructor.name;
}

/** Thrown in a transaction of a replica older than the fence: nothing it wrote commits. */
export class WriterFenced extends Error {
  constructor(
    readonly release: number,
    readonly minWriter: number,
    readonly reason: string,
  ) {
    super(`writer fenced: this release (migrations up to ${release}) is older than the schema allows writers to be (${minWriter}: ${reason}); replace this replica with the new release`);
  }
}

/**
 * The fence as one release sees it: its own age (its newest migration) and the schema's row. A
 * release whose migrations do not include the fence table has nothing to check.
 */
export class WriterFence {
  private constructor(
    private readonly schema: string,
    readonly release: number,
    private readonly enabled: boolean,
  ) {}

  static of(schema: string, migrations: readonly unknown[] | Record<string, unknown> | undefined): WriterFence {
    const names = (Array.isArray(migrations) ? migrations : Object.values(migrations ?? {})).filter((m) => typeof m === 'function' || typeof m === 'object').map(migrationName);
    const release = Math.max(0, ...names.map((n) => timestampOf(n) ?? 0));
    return new WriterFence(schema, release, names.some((n) => n.startsWith('WriterFence')));
  }

  /** The fence of the schema a service's data source works on (its own migrations name its release). */
  static forDataSource(dataSource: DataSource, schema: string): WriterFence {
    return WriterFence.of(schema, dataSource.options.migrations as unknown[] | undefined);
  }

  /**
   * In a write transaction, before anything is written: reads the fence (the table's ACCESS SHARE
   * lock is then held until the transaction ends, which a raise waits for) and throws WriterFenced
   * when this release is older than the fence. The runtime role only reads the table.
   */
  async check(manager: EntityManager): Promise<void> {
    if (!this.enabled) return;
    const [row]: { min_writer: string; reason: string }[] = await manager.query(`SELECT min_writer::text, reason FROM ${quoteIdent(this.schema)}.writer_fence`);
    if (row && Number(row.min_writer) > this.release) throw new WriterFenced(this.release, Number(row.min_writer), row.reason);
  }

  /** Outside a transaction (start-up, readiness): why this release may not write, or undefined. */
  async refusal(dataSource: DataSource): Promise<WriterFenced | undefined> {
    if (!this.enabled) return undefined;
    const [row]: { min_writer: string; reason: string }[] = await dataSource.query(`SELECT min_writer::text, reason FROM ${quoteIdent(this.schema)}.writer_fence`);
    return row && Number(row.min_writer) > this.release ? new WriterFenced(this.release, Number(row.min_writer), row.reason) : undefined;
  }
}
