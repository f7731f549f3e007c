import { Inject, Injectable } from '@nestjs/common';
import { type AlertCountsRequest, type AlertListRequest, type AlertReportRequest, AlertSeverities } from '@vigil/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from '../database/rows';
import type { AlertInsert, AlertUpdate } from './alert-batch';
import type { AlertContext } from './alert-sources';

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
/** The WHERE clause of the alert list's filters (and of its counts), with its parameters. */
function whereOf(filter: AlertCountsRequest): { clause: string; params: unknown[] } {
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
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

@Injectable()
export class AlertsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Serializes writers of these dedup keys until the transaction ends (two sources, or two
   * consumers, may race on a key). The locks are taken in one order (by hash), so two batches
   * that share keys wait for each other instead of deadlocking.
   */
  async lockKeys(manager: EntityManager, keys: string[]): Promise<void> {
    await manager.query(
      `SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(key, 7001) AS h FROM unnest($1::text[]) AS k (key) ORDER BY h) locks`,
      [keys],
    );
  }

  /** Per key, the unresolved alert with that key last seen most recently, locked. */
  async findNewestOpen(manager: EntityManager, keys: string[]): Promise<Map<string, AlertRow>> {
    const rows: AlertRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM delivery.alerts
       WHERE id IN (SELECT newest.id FROM unnest($1::text[]) AS k (key)
                    CROSS JOIN LATERAL (SELECT id FROM delivery.alerts
                                        WHERE dedup_key = k.key AND status <> 'resolved'
                                        ORDER BY last_seen_at DESC LIMIT 1) newest)
         AND status <> 'resolved'
       FOR UPDATE`,
      [keys],
    );
    return new Map(rows.map((row) => [row.dedup_key, row]));
  }

  /** New alerts in their state at the end of the consumed batch. */
  async insertMany(manager: EntityManager, alerts: AlertInsert[]): Promise<void> {
    if (!alerts.length) return;
    await manager.query(
      `INSERT INTO delivery.alerts (id, dedup_key, type, severity, status, title, description, database_id, policy_id, policy_name,
                                    event_ids, channels, occurrences, context, raw_event, first_seen_at, last_seen_at, escalated_at)
       SELECT id, dedup_key, type, severity, 'open', title, description, database_id, policy_id, policy_name,
              event_ids, channels, occurrences, context, raw_event, first_seen_at, last_seen_at, CASE WHEN escalated THEN now() END
       FROM jsonb_to_recordset($1::jsonb) AS r (id text, dedup_key text, type text, severity text, title text, description text, database_id text,
              policy_id text, policy_name text, event_ids text[], channels text[], occurrences integer, context jsonb, raw_event jsonb,
              first_seen_at timestamptz, last_seen_at timestamptz, escalated boolean)`,
      [JSON.stringify(alerts.map(({ row, first_seen_at, last_seen_at, escalated }) => ({
        id: row.id, dedup_key: row.dedup_key, type: row.type, severity: row.severity, title: row.title, description: row.description,
        database_id: row.database_id, policy_id: row.policy_id, policy_name: row.policy_name, event_ids: row.event_ids, channels: row.channels,
        occurrences: row.occurrences, context: row.context, raw_event: row.raw_event ?? null, first_seen_at, last_seen_at, escalated,
      })))],
    );
  }

  /** Folds a batch's occurrences into alerts that were open (and are locked); `escalated` = severity raised. */
  async recordOccurrences(manager: EntityManager, alerts: AlertUpdate[]): Promise<void> {
    if (!alerts.length) return;
    await manager.query(
      `UPDATE delivery.alerts a SET
         occurrences = a.occurrences + r.added,
         last_seen_at = GREATEST(a.last_seen_at, r.last_seen_at),
         event_ids = r.event_ids,
         channels = r.channels,
         context = r.context,
         raw_event = r.raw_event,
         severity = r.severity,
         escalated_at = CASE WHEN r.escalated THEN now() ELSE a.escalated_at END,
         updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS r (id text, added integer, last_seen_at timestamptz, event_ids text[], channels text[],
              context jsonb, raw_event jsonb, severity text, escalated boolean)
       WHERE a.id = r.id`,
      [JSON.stringify(alerts.map(({ row, added, last_seen_at, escalated }) => ({
        id: row.id, added, last_seen_at, event_ids: row.event_ids, channels: row.channels, context: row.context, raw_event: row.raw_event ?? null,
        severity: row.severity, escalated,
      })))],
    );
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
    const { clause, params } = whereOf(filter);
    const rows: (AlertRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM delivery.alerts ${clause}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.per_page, (filter.page - 1) * filter.per_page],
    );
    if (rows.length) return { rows, total: rows[0]!.total };
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM delivery.alerts ${clause}`, params);
    return { rows, total };
  }

  /** How many alerts match the list's filters, by severity and status (only the pairs that occur). */
  async counts(filter: AlertCountsRequest): Promise<{ severity: string; status: string; count: number }[]> {
    const { clause, params } = whereOf(filter);
    return this.dataSource.query(`SELECT severity, status, count(*)::int AS count FROM delivery.alerts ${clause} GROUP BY severity, status`, params);
  }

  /**
   * A compliance report's alert figures (docs/reports.md#alerts), aggregated here in one snapshot:
   * one grouping-sets pass over the period's alerts (index alerts_first_seen) and the most severe
   * `limit` + 1 of them.
   */
  async report(request: AlertReportRequest): Promise<{ groups: AlertReportGroup[]; top: AlertRow[] }> {
    const params = [request.period_start, request.period_end, request.databases.length ? request.databases : null];
    const inPeriod = `first_seen_at >= $1::timestamptz AND first_seen_at < $2::timestamptz AND ($3::text[] IS NULL OR database_id = ANY($3::text[]))`;
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const groups: AlertReportGroup[] = await manager.query(
        `SELECT GROUPING(severity, status, type)::int AS grouping, severity, status, type,
                count(*)::int AS alerts,
                COALESCE(sum(occurrences), 0)::bigint AS occurrences,
                count(DISTINCT database_id)::int AS databases,
                count(escalated_at)::int AS escalated,
                count(acknowledged_at)::int AS acknowledged,
                avg(extract(epoch FROM acknowledged_at - created_at))::float8 AS ack_mean,
                max(extract(epoch FROM acknowledged_at - created_at))::float8 AS ack_max,
                count(resolved_at)::int AS resolved,
                avg(extract(epoch FROM resolved_at - created_at))::float8 AS resolve_mean,
                max(extract(epoch FROM resolved_at - created_at))::float8 AS resolve_max
         FROM delivery.alerts WHERE ${inPeriod}
         GROUP BY GROUPING SETS ((), (severity), (status), (type))`,
        params,
      );
      const top: AlertRow[] = await manager.query(
        `SELECT ${COLUMNS} FROM delivery.alerts WHERE ${inPeriod}
         ORDER BY array_position($5::text[], severity) NULLS LAST, first_seen_at DESC, id DESC
         LIMIT $4`,
        [...params, request.limit + 1, AlertSeverities],
      );
      return { groups, top };
    });
  }
}

/** One row of the report's grouping sets: `grouping` 7 = all alerts, 3 = per severity, 5 = per status, 6 = per type. */
export interface AlertReportGroup {
  grouping: number;
  severity: string | null;
  status: string | null;
  type: string | null;
  alerts: number;
  occurrences: string;
  databases: number;
  escalated: number;
  acknowledged: number;
  ack_mean: number | null;
  ack_max: number | null;
  resolved: number;
  resolve_mean: number | null;
  resolve_max: number | null;
}
