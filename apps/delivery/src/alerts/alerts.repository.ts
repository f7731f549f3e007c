import { Inject, Injectable } from '@nestjs/common';
import type { AlertListRequest } from '@vigil/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from '../database/rows';
import type { AlertContext, NewAlert } from './alert-sources';

export interface AlertRow {
  id: string;
  dedup_key: string;
  type: string;
  severity: string;
  status: string;
  title: string;
  description: string;
  database_id: string;
  policy_id: string | null;
  policy_name: string | null;
  event_ids: string[];
  channels: string[];
  occurrences: number;
  context: AlertContext;
  raw_event: unknown;
  first_seen_at: Date;
  last_seen_at: Date;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  escalated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, dedup_key, type, severity, status, title, description, database_id, policy_id, policy_name, event_ids, channels,
  occurrences, context, raw_event, first_seen_at, last_seen_at, acknowledged_at, resolved_at, escalated_at, created_at, updated_at`;

/** Event ids kept on one alert; the oldest go first when a long-lived alert collects more. */
export const MAX_EVENT_IDS = 100;

/** SQL for alerts; no business rules. */
@Injectable()
export class AlertsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Serializes writers of one dedup key until the transaction ends (two sources may race on it). */
  async lockKey(manager: EntityManager, key: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 7001))`, [key]);
  }

  /** The unresolved alert with this key last seen within `windowMs` of `at`, locked. */
  async findOpen(manager: EntityManager, key: string, at: string, windowMs: number): Promise<AlertRow | null> {
    const rows: AlertRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM delivery.alerts
       WHERE dedup_key = $1 AND status <> 'resolved' AND last_seen_at >= $2::timestamptz - $3 * interval '1 millisecond'
       ORDER BY last_seen_at DESC LIMIT 1 FOR UPDATE`,
      [key, at, windowMs],
    );
    return rows[0] ?? null;
  }

  async insert(manager: EntityManager, id: string, alert: NewAlert): Promise<AlertRow> {
    const [row]: AlertRow[] = await manager.query(
      `INSERT INTO delivery.alerts (id, dedup_key, type, severity, status, title, description, database_id, policy_id, policy_name,
                                    event_ids, channels, context, raw_event, first_seen_at, last_seen_at)
       VALUES ($1, $2, $3, $4, 'open', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING ${COLUMNS}`,
      [id, alert.dedup_key, alert.type, alert.severity, alert.title, alert.description, alert.database_id, alert.policy_id, alert.policy_name,
        alert.event_ids.slice(-MAX_EVENT_IDS), alert.channels, JSON.stringify(alert.context), JSON.stringify(alert.raw_event ?? null), alert.occurred_at],
    );
    return row!;
  }

  /** Folds one more occurrence into an open alert; `severity` set = escalated at the same time. */
  async recordOccurrence(manager: EntityManager, id: string, alert: NewAlert, severity: string | null): Promise<AlertRow> {
    const [row] = rowsOf<AlertRow>(await manager.query(
      `UPDATE delivery.alerts SET
         occurrences = occurrences + 1,
         last_seen_at = GREATEST(last_seen_at, $2::timestamptz),
         event_ids = (SELECT COALESCE(array_agg(e ORDER BY n), '{}') FROM (
                        SELECT e, n FROM unnest(event_ids || $3::text[]) WITH ORDINALITY AS x (e, n)
                        ORDER BY n DESC LIMIT ${MAX_EVENT_IDS}) kept),
         channels = ARRAY(SELECT DISTINCT unnest(channels || $4::text[])),
         context = $5,
         raw_event = $6,
         severity = COALESCE($7, severity),
         escalated_at = CASE WHEN $7::text IS NULL THEN escalated_at ELSE now() END,
         updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, alert.occurred_at, alert.event_ids, alert.channels, JSON.stringify(alert.context), JSON.stringify(alert.raw_event ?? null), severity],
    ));
    return row!;
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<AlertRow | null> {
    const rows: AlertRow[] = await manager.query(`SELECT ${COLUMNS} FROM delivery.alerts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] ?? null;
  }

  async setState(manager: EntityManager, id: string, change: { status?: string; severity?: string }): Promise<AlertRow> {
    const [row] = rowsOf<AlertRow>(await manager.query(
      `UPDATE delivery.alerts SET
         status = COALESCE($2, status),
         severity = COALESCE($3, severity),
         acknowledged_at = CASE WHEN $2 = 'acknowledged' THEN now() ELSE acknowledged_at END,
         resolved_at = CASE WHEN $2 = 'resolved' THEN now() ELSE resolved_at END,
         escalated_at = CASE WHEN $3::text IS NOT NULL THEN now() ELSE escalated_at END,
         updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, change.status ?? null, change.severity ?? null],
    ));
    return row!;
  }

  async list(filter: AlertListRequest): Promise<{ rows: AlertRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.start_date) add('created_at >= ?::timestamptz', filter.start_date);
    if (filter.end_date) add('created_at < ?::timestamptz', filter.end_date);
    if (filter.severity?.length) add('severity = ANY(?)', filter.severity);
    if (filter.status?.length) add('status = ANY(?)', filter.status);
    if (filter.type?.length) add('type = ANY(?)', filter.type);
    if (filter.database_id) add('database_id = ?', filter.database_id);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows: (AlertRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM delivery.alerts ${clause}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.per_page, (filter.page - 1) * filter.per_page],
    );
    if (rows.length) return { rows, total: rows[0]!.total };
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM delivery.alerts ${clause}`, params);
    return { rows, total };
  }
}
