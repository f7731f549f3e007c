import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Alerts1770100000000 implements MigrationInterface {
  name = 'Alerts1770100000000';

  async up(runner: QueryRunner): Promise<void> {
    // Non-secret settings as one document (every setting of the destination, defaults filled
    // in); the secret fields sealed together with SecretBox, never returned.
    await runner.query(`
      CREATE TABLE delivery.alert_destinations (
        id             text        PRIMARY KEY,
        name           text        NOT NULL,
        enabled        boolean     NOT NULL DEFAULT true,
        settings       jsonb       NOT NULL,
        secrets_sealed text,
        secrets_set    text[]      NOT NULL DEFAULT '{}',
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT alert_destinations_name UNIQUE (name)
      )`);

    // One alert per condition and subject within the de-duplication window: dedup_key names both.
    await runner.query(`
      CREATE TABLE delivery.alerts (
        id               text        PRIMARY KEY,
        dedup_key        text        NOT NULL,
        type             text        NOT NULL,
        severity         text        NOT NULL,
        status           text        NOT NULL CHECK (status IN ('open', 'acknowledged', 'resolved')),
        title            text        NOT NULL,
        description      text        NOT NULL,
        database_id      text        NOT NULL,
        policy_id        text,
        policy_name      text,
        event_ids        text[]      NOT NULL DEFAULT '{}',
        channels         text[]      NOT NULL DEFAULT '{}',
        occurrences      integer     NOT NULL DEFAULT 1,
        context          jsonb       NOT NULL,
        raw_event        jsonb,
        first_seen_at    timestamptz NOT NULL,
        last_seen_at     timestamptz NOT NULL,
        acknowledged_at  timestamptz,
        resolved_at      timestamptz,
        escalated_at     timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX alerts_dedup ON delivery.alerts (dedup_key, last_seen_at DESC) WHERE status <> 'resolved'`);
    await runner.query(`CREATE INDEX alerts_created ON delivery.alerts (created_at DESC, id DESC)`);

    // The queue of sends: one row per (alert, destination, severity reached), so an escalation
    // sends again and a redelivered bus message does not. alert is the snapshot that is rendered.
    await runner.query(`
      CREATE TABLE delivery.alert_deliveries (
        id               text        PRIMARY KEY,
        destination_id   text        NOT NULL REFERENCES delivery.alert_destinations (id) ON DELETE CASCADE,
        alert_id         text        NOT NULL,
        severity         text        NOT NULL,
        test             boolean     NOT NULL DEFAULT false,
        alert            jsonb       NOT NULL,
        status           text        NOT NULL CHECK (status IN ('pending', 'in_flight', 'succeeded', 'failed')),
        due_at           timestamptz,
        lease_owner      text,
        attempt_count    integer     NOT NULL DEFAULT 0,
        last_status_code integer,
        last_latency_ms  integer,
        last_error       text,
        created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at     timestamptz,
        CONSTRAINT alert_deliveries_once UNIQUE (alert_id, destination_id, severity)
      )`);
    await runner.query(`
      CREATE INDEX alert_deliveries_due ON delivery.alert_deliveries (destination_id, due_at, created_at)
      WHERE status IN ('pending', 'in_flight')`);
    await runner.query(`CREATE INDEX alert_deliveries_history ON delivery.alert_deliveries (destination_id, created_at DESC, id DESC)`);

    // Every request sent; also what the per-destination rate limit counts (started_at in the window).
    await runner.query(`
      CREATE TABLE delivery.alert_attempts (
        id              text        PRIMARY KEY,
        delivery_id     text        NOT NULL REFERENCES delivery.alert_deliveries (id) ON DELETE CASCADE,
        destination_id  text        NOT NULL,
        attempt         integer     NOT NULL,
        started_at      timestamptz NOT NULL,
        latency_ms      integer     NOT NULL,
        status_code     integer,
        success         boolean     NOT NULL,
        error           text
      )`);
    await runner.query(`CREATE INDEX alert_attempts_delivery ON delivery.alert_attempts (delivery_id, attempt)`);
    await runner.query(`CREATE INDEX alert_attempts_window ON delivery.alert_attempts (destination_id, started_at DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE delivery.alert_attempts`);
    await runner.query(`DROP TABLE delivery.alert_deliveries`);
    await runner.query(`DROP TABLE delivery.alerts`);
    await runner.query(`DROP TABLE delivery.alert_destinations`);
  }
}
