import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storage built for volume (docs/events.md#storage):
 * - `seq`: every event's place in the global commit order, dense and gap-free. It is handed out
 *   from `event_sequence` under that row's lock, taken as the last step of an ingest transaction,
 *   so a later sequence always commits later. The SSE stream and the relay of audit.events.v1
 *   rely on it: everything up to the newest visible sequence is committed.
 * - `event_relay`: how far audit.events.v1 has been published. The events table itself is the
 *   outbox of audit events (no copy of each event in `outbox`).
 * - `operation`, `correlation_id`: the statement's first keyword (search) and the request's
 *   correlation id (carried on the published message).
 * - One index per list filter, each ending in "timestamp" so newest-first reads stop early.
 * Time partitions are created and dropped by EventPartitions at run time (a migration runs once;
 * days keep coming).
 */
export class EventStorage1763700000000 implements MigrationInterface {
  name = 'EventStorage1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events ADD COLUMN seq bigint, ADD COLUMN operation text, ADD COLUMN correlation_id text`);
    // Rows stored before this migration get sequences in the order they were processed. The
    // immutability trigger is lifted for this one backfill only.
    await runner.query(`DROP TRIGGER events_immutable ON event_ingest.events`);
    await runner.query(`
      UPDATE event_ingest.events e SET seq = o.seq,
        operation = upper(substring(e.details->>'query' from '^\\s*([A-Za-z]+)'))
      FROM (SELECT id, row_number() OVER (ORDER BY processed_at, id) AS seq FROM event_ingest.events) o
      WHERE e.id = o.id`);
    await runner.query(`
      CREATE TRIGGER events_immutable BEFORE UPDATE ON event_ingest.events
      FOR EACH ROW EXECUTE FUNCTION event_ingest.events_immutable()`);
    await runner.query(`ALTER TABLE event_ingest.events ALTER COLUMN seq SET NOT NULL`);

    await runner.query(`
      CREATE TABLE event_ingest.event_sequence (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        last_seq  bigint  NOT NULL
      )`);
    await runner.query(`INSERT INTO event_ingest.event_sequence (last_seq) SELECT COALESCE(max(seq), 0) FROM event_ingest.events`);
    await runner.query(`
      CREATE TABLE event_ingest.event_relay (
        singleton     boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
        published_seq bigint      NOT NULL,
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    // Events stored before went out through the generic outbox already.
    await runner.query(`INSERT INTO event_ingest.event_relay (published_seq) SELECT COALESCE(max(seq), 0) FROM event_ingest.events`);

    await runner.query(`CREATE INDEX events_seq ON event_ingest.events (seq)`);
    await runner.query(`CREATE INDEX events_type_time ON event_ingest.events (type, "timestamp" DESC)`);
    await runner.query(`CREATE INDEX events_user_time ON event_ingest.events (user_name, "timestamp" DESC) WHERE user_name IS NOT NULL`);
    await runner.query(`CREATE INDEX events_source_ip_time ON event_ingest.events (source_ip, "timestamp" DESC) WHERE source_ip IS NOT NULL`);
    await runner.query(`
      CREATE TABLE event_ingest.partition_log (
        partition_name text        NOT NULL,
        action         text        NOT NULL,
        range_start    timestamptz NOT NULL,
        range_end      timestamptz NOT NULL,
        rows_moved     bigint      NOT NULL DEFAULT 0,
        at             timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE event_ingest.partition_log`);
    await runner.query(`DROP INDEX event_ingest.events_source_ip_time`);
    await runner.query(`DROP INDEX event_ingest.events_user_time`);
    await runner.query(`DROP INDEX event_ingest.events_type_time`);
    await runner.query(`DROP INDEX event_ingest.events_seq`);
    await runner.query(`DROP TABLE event_ingest.event_relay`);
    await runner.query(`DROP TABLE event_ingest.event_sequence`);
    await runner.query(`ALTER TABLE event_ingest.events DROP COLUMN seq, DROP COLUMN operation, DROP COLUMN correlation_id`);
  }
}
