import { Inject, Injectable } from '@nestjs/common';
import type { DeliveryStatus, WebhookForm } from '@vigil/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { rowsOf } from '../database/rows';

export const DELIVERIES_CHANNEL = 'vigil_webhook_deliveries';

export interface NewEventRow {
  id: string;
  type: string;
  test: boolean;
  body_a: string;
  body_b: string;
}

export interface NewDeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  test: boolean;
  held: boolean;
  delay_ms: number;
}

/** A delivery claimed by a worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  test: boolean;
  attempt_count: number;
  schedule_index: number;
  first_attempt_at: Date | null;
  url: string;
  form: WebhookForm;
  secret_sealed: string;
  body: string;
}

export interface AttemptOutcome {
  deliveryId: string;
  webhookId: string;
  test: boolean;
  attemptId: string;
  attempt: number;
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  /** The delivery's state after this attempt. */
  status: 'succeeded' | 'pending' | 'failed';
  scheduleIndex: number;
  /** For `pending`: when the next attempt is due, in ms from now. */
  nextDelayMs: number | null;
  firstAttemptAt: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  test: boolean;
  status: DeliveryStatus;
  due_at: Date | null;
  attempt_count: number;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface AttemptRow {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: Date;
  latency_ms: number;
  status_code: number | null;
  success: boolean;
  error: string | null;
}

const DELIVERY_COLUMNS =
  'id, webhook_id, event_id, event_type, test, status, due_at, attempt_count, last_attempt_at, last_status_code, last_latency_ms, last_error, created_at, completed_at';

/** SQL for webhook events, deliveries and attempts: the durable queue the workers share. */
@Injectable()
export class DeliveriesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Inside the consumer's transaction: the events and their deliveries, each at most once. */
  async insert(manager: EntityManager, events: NewEventRow[], deliveries: NewDeliveryRow[]): Promise<number> {
    if (!deliveries.length) return 0;
    await manager.query(
      `INSERT INTO delivery.webhook_events (id, type, test, body_a, body_b)
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[]) ON CONFLICT (id) DO NOTHING`,
      [events.map((e) => e.id), events.map((e) => e.type), events.map((e) => e.test), events.map((e) => e.body_a), events.map((e) => e.body_b)],
    );
    let inserted = 0;
    for (let start = 0; start < deliveries.length; start += 5000) {
      const chunk = deliveries.slice(start, start + 5000);
      const rows: unknown[] = await manager.query(
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, test, status, due_at)
         SELECT id, webhook_id, event_id, event_type, test,
                CASE WHEN held THEN 'held' ELSE 'pending' END,
                CASE WHEN held THEN NULL ELSE now() + delay_ms * interval '1 millisecond' END
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::boolean[], $7::bigint[])
              AS n (id, webhook_id, event_id, event_type, test, held, delay_ms)
         ON CONFLICT (webhook_id, event_id) DO NOTHING RETURNING 1`,
        [
          chunk.map((d) => d.id),
          chunk.map((d) => d.webhook_id),
          chunk.map((d) => d.event_id),
          chunk.map((d) => d.event_type),
          chunk.map((d) => d.test),
          chunk.map((d) => d.held),
          chunk.map((d) => d.delay_ms),
        ],
      );
      inserted += rows.length;
    }
    // Delivered at commit: idle workers wake at once instead of at their next poll.
    await manager.query('SELECT pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
    return inserted;
  }

  /**
   * Takes up to `limit` due deliveries for `owner` under a lease. Due means pending and its time
   * has come, or in flight with an expired lease (its worker died). Rows other workers are claiming
   * are skipped (SKIP LOCKED), and no endpoint gets more than `perEndpoint` live leases.
   */
  async claim(owner: string, limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const result: unknown = await this.dataSource.query(
      `WITH ready AS (
         SELECT DISTINCT webhook_id FROM delivery.webhook_deliveries
         WHERE status IN ('pending', 'in_flight') AND due_at <= now()
         LIMIT 1000
       ), picked AS (
         SELECT d.id, d.due_at,
                row_number() OVER (PARTITION BY r.webhook_id ORDER BY d.due_at) AS rn,
                $3::int - (SELECT count(*) FROM delivery.webhook_deliveries x
                           WHERE x.webhook_id = r.webhook_id AND x.status = 'in_flight' AND x.due_at > now()) AS room
         FROM ready r
         CROSS JOIN LATERAL (
           SELECT id, due_at FROM delivery.webhook_deliveries d
           WHERE d.webhook_id = r.webhook_id AND d.status IN ('pending', 'in_flight') AND d.due_at <= now()
           ORDER BY d.due_at LIMIT $3
           FOR UPDATE SKIP LOCKED
         ) d
       ), chosen AS (
         SELECT id FROM picked WHERE rn <= room ORDER BY due_at LIMIT $2
       )
       UPDATE delivery.webhook_deliveries d
       SET status = 'in_flight', lease_owner = $1, due_at = now() + $4 * interval '1 millisecond'
       FROM chosen c, delivery.webhooks w, delivery.webhook_events e
       WHERE d.id = c.id AND w.id = d.webhook_id AND e.id = d.event_id
       RETURNING d.id, d.webhook_id, d.event_id, d.event_type, d.test, d.attempt_count, d.schedule_index, d.first_attempt_at,
                 w.url, w.form, w.secret_sealed, CASE WHEN w.form = 'A' THEN e.body_a ELSE e.body_b END AS body`,
      [owner, limit, perEndpoint, leaseMs],
    );
    return rowsOf<ClaimedDelivery>(result);
  }

  /**
   * Records attempts and moves their deliveries on, in one transaction. Only deliveries still leased
   * by `owner` change: a worker whose lease expired (and whose delivery another worker took) records
   * nothing.
   */
  async complete(owner: string, outcomes: AttemptOutcome[]): Promise<void> {
    if (!outcomes.length) return;
    await this.dataSource.transaction(async (manager) => {
      const updated = rowsOf<{ id: string }>(await manager.query(
        `UPDATE delivery.webhook_deliveries d SET
           status = o.status,
           due_at = CASE WHEN o.status = 'pending' THEN now() + o.delay_ms * interval '1 millisecond' END,
           lease_owner = NULL,
           attempt_count = d.attempt_count + 1,
           schedule_index = o.schedule_index,
           first_attempt_at = COALESCE(d.first_attempt_at, o.started_at),
           last_attempt_at = o.started_at,
           last_status_code = o.status_code,
           last_latency_ms = o.latency_ms,
           last_error = o.error,
           completed_at = CASE WHEN o.status IN ('succeeded', 'failed') THEN now() END
         FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int[], $6::timestamptz[], $7::int[], $8::int[], $9::text[])
              AS o (id, status, delay_ms, schedule_index, started_at, status_code, latency_ms, error)
         WHERE d.id = o.id AND d.status = 'in_flight' AND d.lease_owner = $1
         RETURNING d.id`,
        [
          owner,
          outcomes.map((o) => o.deliveryId),
          outcomes.map((o) => o.status),
          outcomes.map((o) => o.nextDelayMs ?? 0),
          outcomes.map((o) => o.scheduleIndex),
          outcomes.map((o) => o.startedAt.toISOString()),
          outcomes.map((o) => o.statusCode),
          outcomes.map((o) => o.latencyMs),
          outcomes.map((o) => o.error?.slice(0, 1000) ?? null),
        ],
      ));
      const kept = new Set(updated.map((r) => r.id));
      const recorded = outcomes.filter((o) => kept.has(o.deliveryId));
      if (!recorded.length) return;
      await manager.query(
        `INSERT INTO delivery.webhook_attempts (id, delivery_id, attempt, started_at, latency_ms, status_code, success, error)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::boolean[], $8::text[])`,
        [
          recorded.map((o) => o.attemptId),
          recorded.map((o) => o.deliveryId),
          recorded.map((o) => o.attempt),
          recorded.map((o) => o.startedAt.toISOString()),
          recorded.map((o) => o.latencyMs),
          recorded.map((o) => o.statusCode),
          recorded.map((o) => o.success),
          recorded.map((o) => o.error?.slice(0, 1000) ?? null),
        ],
      );
      await this.updateEndpointHealth(manager, recorded);
    });
  }

  /**
   * Endpoint health (docs/webhooks.md): a success clears the failing flag and releases held
   * deliveries; a delivery whose final attempt fails, with no success at that endpoint since the
   * delivery's first attempt, flags the endpoint as failing and holds its pending deliveries.
   */
  private async updateEndpointHealth(manager: EntityManager, outcomes: AttemptOutcome[]): Promise<void> {
    const succeeded = [...new Set(outcomes.filter((o) => o.success).map((o) => o.webhookId))];
    const failedAttempts = new Map<string, number>();
    for (const o of outcomes) if (!o.success) failedAttempts.set(o.webhookId, (failedAttempts.get(o.webhookId) ?? 0) + 1);
    if (succeeded.length) {
      const recovered: { id: string }[] = await manager.query(
        `SELECT id FROM delivery.webhooks WHERE id = ANY($1::text[]) AND failing_since IS NOT NULL FOR UPDATE`,
        [succeeded],
      );
      await manager.query(
        `UPDATE delivery.webhooks SET last_success_at = now(), consecutive_failures = 0, failing_since = NULL WHERE id = ANY($1::text[])`,
        [succeeded],
      );
      const released = recovered.map((r) => r.id);
      if (released.length) await this.releaseHeld(manager, released);
    }
    if (failedAttempts.size) {
      const ids = [...failedAttempts.keys()];
      await manager.query(
        `UPDATE delivery.webhooks w SET consecutive_failures = w.consecutive_failures + f.n
         FROM unnest($1::text[], $2::int[]) AS f (id, n) WHERE w.id = f.id`,
        [ids, ids.map((id) => failedAttempts.get(id))],
      );
    }
    // Test deliveries say nothing about the endpoint's health beyond their own attempt.
    const finals = outcomes.filter((o) => o.status === 'failed' && !o.test);
    if (finals.length) {
      const flagged = rowsOf<{ id: string }>(await manager.query(
        `UPDATE delivery.webhooks w SET failing_since = COALESCE(w.failing_since, now())
         FROM unnest($1::text[], $2::timestamptz[]) AS f (id, first_attempt_at)
         WHERE w.id = f.id AND (w.last_success_at IS NULL OR w.last_success_at < f.first_attempt_at)
         RETURNING w.id`,
        [finals.map((o) => o.webhookId), finals.map((o) => o.firstAttemptAt.toISOString())],
      ));
      if (flagged.length) {
        await manager.query(
          `UPDATE delivery.webhook_deliveries SET status = 'held', due_at = NULL
           WHERE webhook_id = ANY($1::text[]) AND status = 'pending' AND NOT test`,
          [flagged.map((f) => f.id)],
        );
      }
    }
  }

  /** Held deliveries of these endpoints go out again from the start of the schedule. */
  async releaseHeld(manager: EntityManager, webhookIds: string[]): Promise<void> {
    await manager.query(
      `UPDATE delivery.webhook_deliveries SET status = 'pending', due_at = now(), schedule_index = 0
       WHERE webhook_id = ANY($1::text[]) AND status = 'held'`,
      [webhookIds],
    );
    await manager.query('SELECT pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
  }

  async list(webhookId: string, page: number, perPage: number, status?: DeliveryStatus): Promise<{ rows: DeliveryRow[]; total: number }> {
    const rows: (DeliveryRow & { total: number })[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS}, count(*) OVER ()::int AS total FROM delivery.webhook_deliveries
       WHERE webhook_id = $1 AND ($2::text IS NULL OR status = $2)
       ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [webhookId, status ?? null, perPage, (page - 1) * perPage],
    );
    if (rows.length) return { rows, total: rows[0]!.total };
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM delivery.webhook_deliveries WHERE webhook_id = $1 AND ($2::text IS NULL OR status = $2)`,
      [webhookId, status ?? null],
    );
    return { rows, total };
  }

  async findOne(webhookId: string, deliveryId: string): Promise<DeliveryRow | null> {
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT ${DELIVERY_COLUMNS} FROM delivery.webhook_deliveries WHERE webhook_id = $1 AND id = $2`,
      [webhookId, deliveryId],
    );
    return rows[0] ?? null;
  }

  async attemptsOf(deliveryIds: string[]): Promise<AttemptRow[]> {
    if (!deliveryIds.length) return [];
    return this.dataSource.query(
      `SELECT id, delivery_id, attempt, started_at, latency_ms, status_code, success, error FROM delivery.webhook_attempts
       WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt`,
      [deliveryIds],
    );
  }

  /**
   * Sends deliveries again from the start of the schedule (a receiver that was down recovers what
   * it missed). Deliveries in flight or already pending are left alone. Returns the ids requeued.
   */
  async requeue(
    webhookId: string,
    filter: { deliveryId?: string; statuses: DeliveryStatus[]; since?: string; until?: string },
  ): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.transaction(async (manager) => {
      const requeued = rowsOf<{ id: string }>(await manager.query(
        `UPDATE delivery.webhook_deliveries SET status = 'pending', due_at = now(), schedule_index = 0, completed_at = NULL
         WHERE webhook_id = $1 AND status = ANY($2::text[])
           AND ($3::text IS NULL OR id = $3)
           AND ($4::timestamptz IS NULL OR created_at >= $4)
           AND ($5::timestamptz IS NULL OR created_at < $5)
         RETURNING id`,
        [webhookId, filter.statuses, filter.deliveryId ?? null, filter.since ?? null, filter.until ?? null],
      ));
      await manager.query('SELECT pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
      return requeued;
    });
    return rows.map((r) => r.id);
  }
}
