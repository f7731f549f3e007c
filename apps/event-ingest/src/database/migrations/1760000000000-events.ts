import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Events1760000000000 implements MigrationInterface {
  name = 'Events1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    // Append-only, partitioned by event time so retention drops whole partitions
    // (docs/architecture.md#event-storage). The primary key must include the partition key.
    await runner.query(`
      CREATE TABLE event_ingest.events (
        id           text        NOT NULL,
        type         text        NOT NULL,
        severity     text        NOT NULL,
        database_id  text        NOT NULL,
        "timestamp"  timestamptz NOT NULL,
        processed_at timestamptz NOT NULL,
        user_name    text,
        source_ip    text,
        session_id   text,
        producer_id  text,
        policy_id    text,
        rule_id      text,
        risk_score   smallint    NOT NULL,
        details      jsonb       NOT NULL,
        PRIMARY KEY ("timestamp", id)
      ) PARTITION BY RANGE ("timestamp")`);
    await runner.query(`CREATE TABLE event_ingest.events_default PARTITION OF event_ingest.events DEFAULT`);
    await runner.query(`CREATE INDEX events_id ON event_ingest.events (id)`);
    await runner.query(`CREATE INDEX events_database_time ON event_ingest.events (database_id, "timestamp" DESC)`);
    await runner.query(`CREATE INDEX events_session ON event_ingest.events (session_id) WHERE session_id IS NOT NULL`);
    // Producer ids are idempotency keys: a record whose id was accepted once is never stored twice,
    // whether it came over Kafka or HTTP.
    await runner.query(`
      CREATE TABLE event_ingest.producer_ids (
        producer_id text        PRIMARY KEY,
        event_id    text        NOT NULL,
        accepted_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE FUNCTION event_ingest.events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit events are immutable'; END $$`);
    await runner.query(`
      CREATE TRIGGER events_immutable BEFORE UPDATE ON event_ingest.events
      FOR EACH ROW EXECUTE FUNCTION event_ingest.events_immutable()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE event_ingest.producer_ids`);
    await runner.query(`DROP TABLE event_ingest.events`);
    await runner.query(`DROP FUNCTION event_ingest.events_immutable()`);
  }
}
