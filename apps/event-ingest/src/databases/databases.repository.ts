import { Injectable } from '@nestjs/common';
import type { DatabaseConnectionState, DatabaseResponse, ListDatabasesRequest } from '@vigil/contracts';
import type { EntityManager } from 'typeorm';
import { returned } from '../reports/reports.repository';

export interface DatabaseRow {
  id: string;
  name: string;
  type: string | null;
  host: string | null;
  port: number | null;
  database_name: string | null;
  environment: string | null;
  description: string;
  tags: string[];
  status: 'registered' | 'discovered';
  connection_status: DatabaseConnectionState;
  connection_status_changed_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  first_event_at: Date | null;
  last_event_at: Date | null;
  event_count: string;
  info_count: string;
  warning_count: string;
  critical_count: string;
}

export interface DatabaseFields {
  name: string;
  type: string | null;
  host: string | null;
  port: number | null;
  database_name: string | null;
  environment: string | null;
  description: string;
  tags: string[];
}

/** One database's share of an ingest batch. */
export interface DatabaseActivity {
  database_id: string;
  first: string;
  last: string;
  info: number;
  warning: number;
  critical: number;
  /** An agent reported a monitoring error (database.disconnect with details.error). */
  error: string | null;
}

export interface ActivityOutcome {
  id: string;
  name: string;
  type: string | null;
  environment: string | null;
  status: string;
  previous: DatabaseConnectionState;
  current: DatabaseConnectionState;
  last_event_at: Date | null;
  last_error: string | null;
}

const T = 'event_ingest.databases';
const FIELDS = ['name', 'type', 'host', 'port', 'database_name', 'environment', 'description', 'tags'] as const;

export function toDatabaseResponse(row: DatabaseRow): DatabaseResponse {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    name: row.name,
    type: row.type as DatabaseResponse['type'],
    host: row.host,
    port: row.port,
    database: row.database_name,
    environment: row.environment,
    description: row.description,
    tags: row.tags,
    status: row.status,
    connection_status: row.connection_status,
    connection_status_changed_at: iso(row.connection_status_changed_at),
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    first_event_at: iso(row.first_event_at),
    last_event_at: iso(row.last_event_at),
    event_count: Number(row.event_count),
    event_counts: { info: Number(row.info_count), warning: Number(row.warning_count), critical: Number(row.critical_count) },
  };
}

/** SQL of the databases registry; no rules here. */
@Injectable()
export class DatabasesRepository {
  async find(manager: EntityManager, id: string, lock = false): Promise<DatabaseRow | undefined> {
    const rows: DatabaseRow[] = await manager.query(`SELECT * FROM ${T} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0];
  }

  async nameTaken(manager: EntityManager, name: string, exceptId: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM ${T} WHERE lower(name) = lower($1) AND id <> $2`, [name, exceptId]);
    return rows.length > 0;
  }

  async insert(manager: EntityManager, id: string, fields: DatabaseFields): Promise<DatabaseRow> {
    const rows: DatabaseRow[] = await manager.query(
      `INSERT INTO ${T} (id, ${FIELDS.join(', ')}, status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'registered') RETURNING *`,
      [id, ...FIELDS.map((f) => fields[f])],
    );
    return rows[0]!;
  }

  /** Registers a database with its details; a discovered row keeps its activity. */
  async register(manager: EntityManager, id: string, fields: DatabaseFields): Promise<DatabaseRow> {
    const rows = returned<DatabaseRow>(await manager.query(
      `UPDATE ${T} SET ${FIELDS.map((f, i) => `${f} = $${i + 2}`).join(', ')}, status = 'registered', updated_at = now() WHERE id = $1 RETURNING *`,
      [id, ...FIELDS.map((f) => fields[f])],
    ));
    return rows[0]!;
  }

  async update(manager: EntityManager, id: string, fields: Partial<DatabaseFields>): Promise<DatabaseRow | undefined> {
    const keys = FIELDS.filter((f) => fields[f] !== undefined);
    const sets = keys.map((f, i) => `${f} = $${i + 2}`);
    const rows = returned<DatabaseRow>(await manager.query(
      `UPDATE ${T} SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...keys.map((f) => fields[f])],
    ));
    return rows[0];
  }

  async delete(manager: EntityManager, id: string): Promise<boolean> {
    const rows = returned(await manager.query(`DELETE FROM ${T} WHERE id = $1 RETURNING id`, [id]));
    return rows.length > 0;
  }

  async list(manager: EntityManager, query: ListDatabasesRequest): Promise<{ rows: DatabaseRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (query.status) add('status = ?', query.status);
    if (query.type) add('type = ?', query.type);
    if (query.environment) add('environment = ?', query.environment);
    if (query.tag) add('? = ANY(tags)', query.tag);
    if (query.connection_status) add('connection_status = ?', query.connection_status);
    if (query.q) add(`(name ILIKE ? ESCAPE '\\' OR id ILIKE $${params.length + 1} ESCAPE '\\')`, `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = (await manager.query(`SELECT count(*)::int AS total FROM ${T} ${filter}`, params)) as { total: number }[];
    const rows: DatabaseRow[] = await manager.query(
      `SELECT * FROM ${T} ${filter} ORDER BY lower(name), id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.per_page, (query.page - 1) * query.per_page],
    );
    return { rows, total };
  }

  /**
   * Discovered databases: ids named by policies or records that are not in the registry yet.
   * The name is the id until someone registers the database (a clash with a registered name
   * is avoided by keeping the id, which is unique).
   */
  async discover(manager: EntityManager, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await manager.query(
      `INSERT INTO ${T} (id, name, status) SELECT id, id, 'discovered' FROM unnest($1::text[]) AS id ORDER BY id ON CONFLICT DO NOTHING`,
      [ids],
    );
  }

  /**
   * One upsert per ingest batch: creates unknown databases as discovered, adds the batch's counts,
   * and moves the connection status (events flowing: connected; an agent-reported error: error).
   * Rows are touched in id order so concurrent batches cannot deadlock. Returns every row whose
   * connection status changed, with the status it had before.
   */
  async recordActivity(manager: EntityManager, activity: DatabaseActivity[]): Promise<ActivityOutcome[]> {
    if (!activity.length) return [];
    const sorted = [...activity].sort((a, b) => (a.database_id < b.database_id ? -1 : 1));
    const rows: ActivityOutcome[] = await manager.query(
      `WITH batch AS (
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[])
           AS b(id, first_at, last_at, info, warning, critical, error)
       ), previous AS (
         SELECT d.id, d.connection_status FROM ${T} d JOIN batch USING (id) ORDER BY d.id FOR UPDATE OF d
       ), upserted AS (
         INSERT INTO ${T} AS d (id, name, status, first_event_at, last_event_at, event_count, info_count, warning_count, critical_count,
                                connection_status, connection_status_changed_at, last_error)
         SELECT id, id, 'discovered', first_at, last_at, info + warning + critical, info, warning, critical,
                CASE WHEN error IS NULL THEN 'connected' ELSE 'error' END, now(), error
         FROM batch ORDER BY id
         ON CONFLICT (id) DO UPDATE SET
           first_event_at = LEAST(d.first_event_at, EXCLUDED.first_event_at),
           last_event_at = GREATEST(d.last_event_at, EXCLUDED.last_event_at),
           event_count = d.event_count + EXCLUDED.event_count,
           info_count = d.info_count + EXCLUDED.info_count,
           warning_count = d.warning_count + EXCLUDED.warning_count,
           critical_count = d.critical_count + EXCLUDED.critical_count,
           connection_status = EXCLUDED.connection_status,
           connection_status_changed_at = CASE WHEN d.connection_status = EXCLUDED.connection_status THEN d.connection_status_changed_at ELSE now() END,
           last_error = COALESCE(EXCLUDED.last_error, d.last_error)
         RETURNING d.id, d.name, d.type, d.environment, d.status, d.connection_status AS current, d.last_event_at, d.last_error
       )
       SELECT u.*, COALESCE(p.connection_status, 'unknown') AS previous
       FROM upserted u LEFT JOIN previous p USING (id)
       WHERE u.current <> COALESCE(p.connection_status, 'unknown')`,
      [
        sorted.map((a) => a.database_id),
        sorted.map((a) => a.first),
        sorted.map((a) => a.last),
        sorted.map((a) => a.info),
        sorted.map((a) => a.warning),
        sorted.map((a) => a.critical),
        sorted.map((a) => a.error),
      ],
    );
    return rows;
  }

  /**
   * Connected databases silent since `before` become disconnected; returns them. The rows are
   * locked in id order, as an ingest locks its databases' rows (recordActivity): locked in the
   * order of a table scan, a sweep and an ingest of two silent databases deadlocked.
   */
  async markSilent(manager: EntityManager, before: Date): Promise<ActivityOutcome[]> {
    return returned<ActivityOutcome>(await manager.query(
      `UPDATE ${T} d SET connection_status = 'disconnected', connection_status_changed_at = now()
       FROM (SELECT id FROM ${T} WHERE connection_status = 'connected' AND last_event_at < $1 ORDER BY id FOR UPDATE) silent
       WHERE d.id = silent.id
       RETURNING d.id, d.name, d.type, d.environment, d.status, 'connected' AS previous, 'disconnected' AS current, d.last_event_at, d.last_error`,
      [before],
    ));
  }

  async names(manager: EntityManager, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows: { id: string; name: string }[] = await manager.query(`SELECT id, name FROM ${T} WHERE id = ANY($1::text[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
