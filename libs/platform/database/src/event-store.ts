import type { EntityManager, MigrationInterface } from 'typeorm';
import { appendOnlyTable } from './append-only';
import { isUniqueViolation, quoteIdent, sqlMigration } from './data-source';

export interface NewEvent<T = unknown> {
  type: string;
  data: T;
  metadata?: Record<string, unknown>;
}

export interface StoredEvent<T = unknown> {
  position: number;
  stream_id: string;
  version: number;
  type: string;
  data: T;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

/** Another writer appended to the stream first: the caller reloads and decides again. */
export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
  ) {
    super(`stream ${streamId} is no longer at version ${expectedVersion}`);
    this.name = 'ConcurrencyError';
  }
}

/**
 * Append-only event store in a service's own schema. (stream_id, version) is unique, so two
 * writers that loaded the same version cannot both append: optimistic concurrency without locks.
 * Events are never updated or deleted; read models are projections of them.
 */
export class EventStore {
  private readonly table: string;

  constructor(schema: string) {
    this.table = `${quoteIdent(schema)}.event_store`;
  }

  async append(
    manager: EntityManager,
    streamId: string,
    expectedVersion: number,
    events: NewEvent[],
  ): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const values: unknown[] = [];
    const rows = events.map((event, i) => {
      values.push(streamId, expectedVersion + i + 1, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata ?? {}));
      const b = i * 5;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}::jsonb, $${b + 5}::jsonb)`;
    });
    try {
      const inserted: RawEvent[] = await manager.query(
        `INSERT INTO ${this.table} (stream_id, version, type, data, metadata) VALUES ${rows.join(', ')}
         RETURNING position, stream_id, version, type, data, metadata, recorded_at`,
        values,
      );
      return inserted.map(toStored);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConcurrencyError(streamId, expectedVersion);
      throw error;
    }
  }

  async readStream(manager: EntityManager, streamId: string): Promise<StoredEvent[]> {
    const rows: RawEvent[] = await manager.query(
      `SELECT position, stream_id, version, type, data, metadata, recorded_at FROM ${this.table}
       WHERE stream_id = $1 ORDER BY version`,
      [streamId],
    );
    return rows.map(toStored);
  }

  /** Every stored event after `position`, in commit order of positions; used to rebuild projections. */
  async readAll(manager: EntityManager, afterPosition: number, limit: number): Promise<StoredEvent[]> {
    const rows: RawEvent[] = await manager.query(
      `SELECT position, stream_id, version, type, data, metadata, recorded_at FROM ${this.table}
       WHERE position > $1 ORDER BY position LIMIT $2`,
      [afterPosition, limit],
    );
    return rows.map(toStored);
  }
}

interface RawEvent {
  position: string;
  stream_id: string;
  version: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

function toStored(row: RawEvent): StoredEvent {
  return { ...row, position: Number(row.position) };
}

/** The event store table of a schema, as a migration the service includes in its list. */
export function eventStoreMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const s = quoteIdent(schema);
  return sqlMigration(
    'EventStore',
    timestamp,
    [
      `
        CREATE TABLE ${s}.event_store (
          position    bigserial PRIMARY KEY,
          stream_id   text        NOT NULL,
          version     integer     NOT NULL CHECK (version > 0),
          type        text        NOT NULL,
          data        jsonb       NOT NULL,
          metadata    jsonb       NOT NULL DEFAULT '{}',
          recorded_at timestamptz NOT NULL DEFAULT now(),
          CONSTRAINT event_store_stream_version UNIQUE (stream_id, version)
        )`,
      // Immutable by construction, not by convention.
      `
        CREATE FUNCTION ${s}.event_store_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'event_store rows are immutable'; END $$`,
      `
        CREATE TRIGGER event_store_immutable BEFORE UPDATE OR DELETE ON ${s}.event_store
        FOR EACH ROW EXECUTE FUNCTION ${s}.event_store_immutable()`,
    ],
    [`DROP TABLE ${s}.event_store`, `DROP FUNCTION ${s}.event_store_immutable()`],
  );
}

/**
 * Makes the schema's event store append-only for every role (appendOnlyTable): TRUNCATE is refused
 * too, and no runtime role keeps UPDATE or DELETE. Replaces the UPDATE/DELETE trigger of
 * eventStoreMigration; include it after that one.
 */
export function eventStoreAppendOnlyMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const s = quoteIdent(schema);
  return sqlMigration(
    'EventStoreAppendOnly',
    timestamp,
    [`DROP TRIGGER IF EXISTS event_store_immutable ON ${s}.event_store`, `DROP FUNCTION IF EXISTS ${s}.event_store_immutable()`, ...appendOnlyTable(schema, 'event_store')],
    [
      `DROP TRIGGER IF EXISTS append_only_rows ON ${s}.event_store`,
      `DROP TRIGGER IF EXISTS append_only_truncate ON ${s}.event_store`,
      `CREATE FUNCTION ${s}.event_store_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'event_store rows are immutable'; END $$`,
      `CREATE TRIGGER event_store_immutable BEFORE UPDATE OR DELETE ON ${s}.event_store
       FOR EACH ROW EXECUTE FUNCTION ${s}.event_store_immutable()`,
    ],
  );
}
