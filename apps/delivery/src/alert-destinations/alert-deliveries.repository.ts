import { Inject, Injectable } from '@nestjs/common';
import type { AlertDeliveryStatus, AlertDestinationSettings } from '@vigil/contracts';
import { currentTraceCarrier } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from '../database/rows';
import type { AlertSnapshot } from './alert-payload';

export const ALERT_DELIVERIES_CHANNEL = 'vigil_alert_deliveries';

export interface NewAlertDelivery {
  id: string;
  destination_id: string;
  alert: AlertSnapshot;
}

export interface ClaimedAlertDelivery {
  id: string;
  destination_id: string;
  attempt_count: number;
  alert: AlertSnapshot;
  settings: AlertDestinationSettings;
  secrets_sealed: string | null;
  /** W3C trace context of the work that created the delivery (tracing on), or null. */
  trace_context: Record<string, string> | null;
}

export interface AlertAttemptRecord {
  id: string;
  deliveryId: string;
  destinationId: string;
  attempt: number;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  /** The delivery's state after this attempt; `pending` comes back after delayMs. */
  status: 'succeeded' | 'failed' | 'pending';
  delayMs: number;
}

export interface AlertDeliveryRow {
  id: string;
  destination_id: string;
  alert_id: string;
  severity: string;
  test: boolean;
  status: AlertDeliveryStatus;
  due_at: Date | null;
  attempt_count: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface AlertAttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  latency_ms: number;
  status_code: number | null;
  success: boolean;
  error: string | null;
}

const COLUMNS = 'id, destination_id, alert_id, severity, test, status, due_at, attempt_count, last_status_code, last_latency_ms, last_error, created_at, completed_at';

/** SQL for the alert delivery queue, its attempts and history; no business rules. */
@Injectable()
export class AlertDeliveriesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** In the caller's transaction: one delivery per (alert, destination, severity), at most once. */
  async enqueue(manager: EntityManager, deliveries: NewAlertDelivery[]): Promise<number> {
    if (!deliveries.length) return 0;
    const rows: unknown[] = await manager.query(
      `INSERT INTO delivery.alert_deliveries (id, destination_id, alert_id, severity, alert, status, due_at, trace_context)
       SELECT id, destination_id, alert->>'id', alert->>'severity', alert, 'pending', now(), $4::jsonb
       FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS n (id, destination_id, alert)
       ON CONFLICT (alert_id, destination_id, severity) DO NOTHING RETURNING 1`,
      // The attempts' spans continue the trace that raised the alert.
      [deliveries.map((d) => d.id), deliveries.map((d) => d.destination_id), deliveries.map((d) => JSON.stringify(d.alert)), JSON.stringify(currentTraceCarrier() ?? null)],
    );
    await manager.query('SELECT pg_notify($1, $2)', [ALERT_DELIVERIES_CHANNEL, '']);
    return rows.length;
  }

  /**
   * Takes due deliveries for `owner` under a lease, per destination no more than its rate budget
   * allows: `rate_limit` minus the requests started in the last window minus the live leases (sent
   * or about to be). Destinations are locked while their budget is computed, so two workers cannot
   * both spend it. Deliveries beyond the budget stay queued, oldest first.
   */
  async claim(owner: string, limit: number, perDestination: number, windowMs: number): Promise<ClaimedAlertDelivery[]> {
    return this.dataSource.transaction(async (manager) => {
      const destinations: { id: string; rate_limit: number }[] = await manager.query(
        `SELECT d.id, (d.settings->>'rate_limit')::int AS rate_limit
         FROM delivery.alert_destinations d
         WHERE d.id IN (SELECT DISTINCT destination_id FROM delivery.alert_deliveries
                        WHERE status IN ('pending', 'in_flight') AND due_at <= now() LIMIT 500)
         ORDER BY d.id
         FOR UPDATE OF d SKIP LOCKED`,
      );
      const claimed: ClaimedAlertDelivery[] = [];
      const windowStart = new Date(Date.now() - windowMs);
      for (const destination of destinations) {
        if (claimed.length >= limit) break;
        const [usage]: { sent: number; leased: number }[] = await manager.query(
          `SELECT (SELECT count(*)::int FROM delivery.alert_attempts WHERE destination_id = $1 AND started_at > $2) AS sent,
                  (SELECT count(*)::int FROM delivery.alert_deliveries WHERE destination_id = $1 AND status = 'in_flight' AND due_at > now()) AS leased`,
          [destination.id, windowStart],
        );
        const room = Math.min(destination.rate_limit - usage!.sent - usage!.leased, perDestination - usage!.leased, limit - claimed.length);
        if (room <= 0) continue;
        const rows = rowsOf<ClaimedAlertDelivery>(await manager.query(
          `WITH chosen AS (
             SELECT id FROM delivery.alert_deliveries
             WHERE destination_id = $1 AND status IN ('pending', 'in_flight') AND due_at <= now()
             ORDER BY due_at, created_at LIMIT $2
             FOR UPDATE SKIP LOCKED
           )
           UPDATE delivery.alert_deliveries a
           SET status = 'in_flight', lease_owner = $3,
               due_at = clock_timestamp() + ((w.settings->>'timeout_seconds')::int + 30) * interval '1 second'
           FROM chosen c, delivery.alert_destinations w
           WHERE a.id = c.id AND w.id = a.destination_id
           RETURNING a.id, a.destination_id, a.attempt_count, a.alert, w.settings, w.secrets_sealed, a.trace_context`,
          [destination.id, room, owner],
        ));
        claimed.push(...rows);
      }
      return claimed;
    });
  }

  /** Records attempts and moves their deliveries on, in one transaction; only leases `owner` still holds change. */
  async complete(owner: string | null, outcomes: AlertAttemptRecord[]): Promise<void> {
    if (!outcomes.length) return;
    await this.dataSource.transaction(async (manager) => {
      const updated = rowsOf<{ id: string }>(await manager.query(
        `UPDATE delivery.alert_deliveries d SET
           status = o.status,
           due_at = CASE WHEN o.status = 'pending' AND NOT d.test THEN now() + o.delay_ms * interval '1 millisecond' END,
           lease_owner = NULL,
           attempt_count = d.attempt_count + 1,
           last_status_code = o.status_code,
           last_latency_ms = o.latency_ms,
           last_error = o.error,
           completed_at = CASE WHEN o.status IN ('succeeded', 'failed') THEN now() END
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int[], $6::int[], $7::text[]) AS o (id, status, delay_ms, status_code, latency_ms, error)
         WHERE d.id = o.id AND d.lease_owner IS NOT DISTINCT FROM $1
         RETURNING d.id`,
        [owner, outcomes.map((o) => o.deliveryId), outcomes.map((o) => o.status), outcomes.map((o) => o.delayMs), outcomes.map((o) => o.statusCode), outcomes.map((o) => o.latencyMs), outcomes.map((o) => o.error)],
      ));
      const kept = new Set(updated.map((u) => u.id));
      const recorded = outcomes.filter((o) => kept.has(o.deliveryId));
      if (!recorded.length) return;
      await manager.query(
        `INSERT INTO delivery.alert_attempts (id, delivery_id, destination_id, attempt, started_at, latency_ms, status_code, success, error)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::timestamptz[], $6::int[], $7::int[], $8::boolean[], $9::text[])`,
        [
          recorded.map((o) => o.id),
          recorded.map((o) => o.deliveryId),
          recorded.map((o) => o.destinationId),
          recorded.map((o) => o.attempt),
          recorded.map((o) => o.startedAt),
          recorded.map((o) => o.latencyMs),
          recorded.map((o) => o.statusCode),
          recorded.map((o) => o.success),
          recorded.map((o) => o.error),
        ],
      );
    });
  }

  /** A test delivery, sent inline by the caller (no due time: workers never claim it). */
  async insertTest(id: string, destinationId: string, alert: AlertSnapshot, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO delivery.alert_deliveries (id, destination_id, alert_id, severity, test, alert, status, due_at, lease_owner)
       VALUES ($1, $2, $3, $4, true, $5, 'in_flight', NULL, NULL)`,
      [id, destinationId, alert.id, alert.severity, JSON.stringify(alert)],
    );
  }

  async list(destinationId: string, page: number, perPage: number, status?: string): Promise<{ rows: AlertDeliveryRow[]; total: number }> {
    const rows: (AlertDeliveryRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM delivery.alert_deliveries
       WHERE destination_id = $1 AND ($4::text IS NULL OR status = $4)
       ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [destinationId, perPage, (page - 1) * perPage, status ?? null],
    );
    if (rows.length) return { rows, total: rows[0]!.total };
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM delivery.alert_deliveries WHERE destination_id = $1 AND ($2::text IS NULL OR status = $2)`,
      [destinationId, status ?? null],
    );
    return { rows, total };
  }

  async attemptsOf(deliveryIds: string[]): Promise<AlertAttemptRow[]> {
    if (!deliveryIds.length) return [];
    return this.dataSource.query(
      `SELECT delivery_id, attempt, started_at, latency_ms, status_code, success, error FROM delivery.alert_attempts
       WHERE delivery_id = ANY($1) ORDER BY delivery_id, attempt`,
      [deliveryIds],
    );
  }
}
