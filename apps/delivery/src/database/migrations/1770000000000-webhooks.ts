import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1770000000000 implements MigrationInterface {
  name = 'Webhooks1770000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE delivery.webhooks (
        id                   text        PRIMARY KEY,
        url                  text        NOT NULL,
        events               text[]      NOT NULL,
        form                 char(1)     NOT NULL CHECK (form IN ('A', 'B')),
        secret_sealed        text        NOT NULL,
        secret_key_id        text        NOT NULL,
        description          text        NOT NULL DEFAULT '',
        active               boolean     NOT NULL DEFAULT true,
        failing_since        timestamptz,
        last_success_at      timestamptz,
        consecutive_failures integer     NOT NULL DEFAULT 0,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX webhooks_active ON delivery.webhooks (id) WHERE active`);

    // What was sent, byte for byte: each form's body is built once per event and reused by every
    // attempt and every subscription of that form.
    await runner.query(`
      CREATE TABLE delivery.webhook_events (
        id          text        PRIMARY KEY,
        type        text        NOT NULL,
        test        boolean     NOT NULL DEFAULT false,
        body_a      text        NOT NULL,
        body_b      text        NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);

    // One row per (subscription, event). due_at is when a worker may take it: the next attempt's
    // time while pending, the lease's end while in flight (an expired lease means the worker died).
    await runner.query(`
      CREATE TABLE delivery.webhook_deliveries (
        id                text        PRIMARY KEY,
        webhook_id        text        NOT NULL REFERENCES delivery.webhooks (id) ON DELETE CASCADE,
        event_id          text        NOT NULL REFERENCES delivery.webhook_events (id),
        event_type        text        NOT NULL,
        test              boolean     NOT NULL DEFAULT false,
        status            text        NOT NULL CHECK (status IN ('pending', 'in_flight', 'succeeded', 'failed', 'held')),
        due_at            timestamptz,
        lease_owner       text,
        attempt_count     integer     NOT NULL DEFAULT 0,
        schedule_index    integer     NOT NULL DEFAULT 0,
        first_attempt_at  timestamptz,
        last_attempt_at   timestamptz,
        last_status_code  integer,
        last_latency_ms   integer,
        last_error        text,
        created_at        timestamptz NOT NULL DEFAULT now(),
        completed_at      timestamptz,
        CONSTRAINT webhook_deliveries_once UNIQUE (webhook_id, event_id)
      )`);
    await runner.query(`
      CREATE INDEX webhook_deliveries_due ON delivery.webhook_deliveries (webhook_id, due_at)
      WHERE status IN ('pending', 'in_flight')`);
    await runner.query(`
      CREATE INDEX webhook_deliveries_due_global ON delivery.webhook_deliveries (due_at)
      WHERE status IN ('pending', 'in_flight')`);
    await runner.query(`CREATE INDEX webhook_deliveries_history ON delivery.webhook_deliveries (webhook_id, created_at DESC, id DESC)`);

    await runner.query(`
      CREATE TABLE delivery.webhook_attempts (
        id           text        PRIMARY KEY,
        delivery_id  text        NOT NULL REFERENCES delivery.webhook_deliveries (id) ON DELETE CASCADE,
        attempt      integer     NOT NULL,
        started_at   timestamptz NOT NULL,
        latency_ms   integer     NOT NULL,
        status_code  integer,
        success      boolean     NOT NULL,
        error        text
      )`);
    await runner.query(`CREATE INDEX webhook_attempts_delivery ON delivery.webhook_attempts (delivery_id, attempt)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE delivery.webhook_attempts`);
    await runner.query(`DROP TABLE delivery.webhook_deliveries`);
    await runner.query(`DROP TABLE delivery.webhook_events`);
    await runner.query(`DROP TABLE delivery.webhooks`);
  }
}
