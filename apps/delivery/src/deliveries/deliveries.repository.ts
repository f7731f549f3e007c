import { Inject, Injectable } from '@nestjs/common';
import type { DeliveryStatus, WebhookForm } from '@vigil/contracts';
import { currentTraceCarrier } from '@vigil/platform';
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
  /** W3C trace context of the work that created the delivery (tracing on), or null. */
  trace_context: Record<string, string> | null;
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

export interface ClaimRequest {
  owner: string;
  /** Deliveries wanted at most. */
  limit: number;
  /** Live leases one endpoint may hold, counted over all workers. */
  perEndpoint: number;
  leaseMs: number;
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
    // Each attempt's span continues the trace that created the delivery (the consumer's span).
    const trace = currentTraceCarrier() ?? null;
    for (let start = 0; start < deliveries.length; start += 5000) {
      const chunk = deliveries.slice(start, start + 5000);
      const rows: unknown[] = await manager.query(
        `INSERT INTO delivery.webhook_deliveries (id, webhook_id, event_id, event_type, test, status, due_at, trace_context)
         SELECT id, webhook_id, event_id, event_type, test,
                CASE WHEN held THEN 'held' ELSE 'pending' END,
                CASE WHEN held THEN NULL ELSE now() + delay_ms * interval '1 millisecond' END,
                $8::jsonb
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
          trace && JSON.stringify(trace),
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
   * are skipped (SKIP LOCKED). An endpoint with live leases of another owner is skipped (one owner
   * per endpoint at a time, so the owner alone keeps the endpoint's request limit), and no owner
   * holds more than `perEndpoint` live leases of one endpoint.
   */
  async claim(owner: string, limit: number, perEndpoint: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.claimWith(this.dataSource.manager, { owner, limit, perEndpoint, leaseMs });
  }

  /**
   * Endpoints with due work are found with a skip scan of the (webhook_id, due_at) index: one index
   * probe per endpoint, whatever the backlog behind each one.
   */
  private async claimWith(manager: EntityManager, { owner, limit, perEndpoint, leaseMs }: ClaimRequest): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const result: unknown = await manager.query(
      `WITH RECURSIVE ready (webhook_id, n) AS (
         (SELECT webhook_id, 1 FROM delivery.webhook_deliveries
          WHERE status IN ('pending', 'in_flight') AND due_at <= now()
          ORDER BY webhook_id LIMIT 1)
         UNION ALL
         SELECT (SELECT d.webhook_id FROM delivery.webhook_deliveries d
                 WHERE d.status IN ('pending', 'in_flight') AND d.due_at <= now() AND d.webhook_id > r.webhook_id
                 ORDER BY d.webhook_id LIMIT 1), r.n + 1
         FROM ready r WHERE r.webhook_id IS NOT NULL AND r.n < 1000
       ), leases AS (
         -- Live leases per endpoint: this owner's count, and whether another owner holds any.
         SELECT r.webhook_id, l.mine, l.others
         FROM ready r
         CROSS JOIN LATERAL (
           SELECT count(*) FILTER (WHERE x.lease_owner = $1) AS mine, count(*) FILTER (WHERE x.lease_owner IS DISTINCT FROM $1) AS others
           FROM delivery.webhook_deliveries x
           WHERE x.webhook_id = r.webhook_id AND x.status = 'in_flight' AND x.due_at > now()
         ) l
         WHERE r.webhook_id IS NOT NULL
       ), picked AS (
         SELECT d.id, d.due_at,
                row_number() OVER (PARTITION BY l.webhook_id ORDER BY d.due_at) AS rn,
                $3::int - l.mine AS room
         FROM leases l
         CROSS JOIN LATERAL (
           SELECT id, due_at FROM delivery.webhook_deliveries d
           WHERE d.webhook_id = l.webhook_id AND d.status IN ('pending', 'in_flight') AND d.due_at <= now()
           ORDER BY d.due_at LIMIT $3
           FOR UPDATE SKIP LOCKED
         ) d
         WHERE l.others = 0
       ), chosen AS (
         SELECT id FROM picked WHERE rn <= room ORDER BY due_at LIMIT $2
       )
       UPDATE delivery.webhook_deliveries d
       SET status = 'in_flight', lease_owner = $1, due_at = now() + $4 * interval '1 millisecond'
       FROM chosen c, delivery.webhooks w, delivery.webhook_events e
       WHERE d.id = c.id AND w.id = d.webhook_id AND e.id = d.event_id
       RETURNING d.id, d.webhook_id, d.event_id, d.event_type, d.test, d.attempt_count, d.schedule_index, d.first_attempt_at,
                 w.url, w.form, w.secret_sealed, CASE WHEN w.form = 'A' THEN e.body_a ELSE e.body_b END AS body, d.trace_context`,
      [owner, limit, perEndpoint, leaseMs],
    );
    return rowsOf<ClaimedDelivery>(result);
  }

  /**
   * Records attempts and moves their deliveries on, in one transaction. Only deliveries still leased
   * by `owner` change: a worker whose lease expired (and whose delivery another worker took) records
   * nothing. With `next`, the same transaction then claims more due deliveries: the endpoint slots
   * these attempts held go straight to the next deliveries, without a trip through the poll loop.
   */
  async complete(owner: string, outcomes: AttemptOutcome[], next?: Omit<ClaimRequest, 'owner'>): Promise<ClaimedDelivery[]> {
    if (!outcomes.length) return next ? this.claim(owner, next.limit, next.perEndpoint, next.leaseMs) : [];
    return this.dataSource.transaction(async (manager) => {
      // One statement: the deliveries still leased by `owner` move on, and exactly their attempts are written.
      const updated = rowsOf<{ id: string }>(await manager.query(
        `WITH o AS (
           SELECT * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::int[], $6::timestamptz[], $7::int[], $8::int[], $9::text[],
                                $10::text[], $11::int[], $12::boolean[])
                    AS o (id, status, delay_ms, schedule_index, started_at, status_code, latency_ms, error, attempt_id, attempt, success)
         ), moved AS (
           UPDATE delivery.webhook_deliveries d SET
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
           FROM o
           WHERE d.id = o.id AND d.status = 'in_flight' AND d.lease_owner = $1
           RETURNING d.id
         ), attempts AS (
           INSERT INTO delivery.webhook_attempts (id, delivery_id, attempt, started_at, latency_ms, status_code, success, error)
           SELECT o.attempt_id, o.id, o.attempt, o.started_at, o.latency_ms, o.status_code, o.success, o.error
           FROM o JOIN moved USING (id)
         )
         SELECT id FROM moved`,
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
          outcomes.map((o) => o.attemptId),
          outcomes.map((o) => o.attempt),
          outcomes.map((o) => o.success),
        ],
      ));
      const kept = new Set(updated.map((r) => r.id));
      const recorded = outcomes.filter((o) => kept.has(o.deliveryId));
      if (recorded.length) await this.updateEndpointHealth(manager, recorded);
      return next ? this.claimWith(manager, { owner, ...next }) : [];
    });
  }

  /** Leased deliveries given back unsent: due again at once, for any worker. */
  async release(owner: string, deliveryIds: string[]): Promise<void> {
    if (!deliveryIds.length) return;
    await this.dataSource.query(
      `UPDATE delivery.webhook_deliveries SET status = 'pending', due_at = now(), lease_owner = NULL
       WHERE id = ANY($2::text[]) AND status = 'in_flight' AND lease_owner = $1`,
      [owner, deliveryIds],
    );
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
      // Locks the rows, notes which were flagged, and clears them, in one statement.
      const recovered = rowsOf<{ id: string }>(await manager.query(
        `WITH before AS (
           SELECT id, failing_since FROM delivery.webhooks WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE
         ), cleared AS (
           UPDATE delivery.webhooks w SET last_success_at = now(), consecutive_failures = 0, failing_since = NULL
           FROM before b WHERE w.id = b.id RETURNING w.id
         )
         SELECT b.id FROM before b JOIN cleared USING (id) WHERE b.failing_since IS NOT NULL`,
        [succeeded],
      ));
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
    /** Runs in the transaction of the requeue (the administrative record of it). */
    alsoInTransaction?: (manager: EntityManager, requeued: string[]) => Promise<void>,
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
      await alsoInTransaction?.(manager, requeued.map((r) => r.id));
      return requeued;
    });
    return rows.map((r) => r.id);
  }
}
