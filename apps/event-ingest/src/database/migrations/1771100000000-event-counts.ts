import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hourly event counts (docs/events.md#aggregate): how many events each database had per hour,
 * type and severity. Ingest adds to them in the transaction that stores the events, so they are
 * always exactly the events table summed; `POST /v1/events/aggregate` reads whole hours here and
 * only the partial hours at the edges of its range from the events table. The BRIN index finds
 * those edge hours (events arrive roughly in time order) at almost no cost to ingest.
 * Existing events are counted once here.
 */
export class EventCounts1771100000000 implements MigrationInterface {
  name = 'EventCounts1771100000000';

  async up(runner: QueryRunner): Promise<void> {
    // The partitions are counted in separate statements, each seeing what had committed when it
    // began: writes (and partition maintenance moving rows out of the default partition) wait until
    // this migration commits, so the counts are those of one state of the table, not of a
    // transaction half counted. Reads go on.
    await runner.query(`LOCK TABLE event_ingest.events IN SHARE MODE`);
    await runner.query(`
      CREATE TABLE event_ingest.event_counts (
        hour        timestamptz NOT NULL,
        database_id text        NOT NULL,
        type        text        NOT NULL,
        severity    text        NOT NULL,
        events      bigint      NOT NULL,
        PRIMARY KEY (hour, database_id, type, severity)
      )`);
    // One statement per partition (a day each): every statement stays within the statement timeout.
    const partitions: { name: string }[] = await runner.query(`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'event_ingest.events'::regclass ORDER BY c.relname`);
    for (const { name } of partitions) {
      await runner.query(`
        INSERT INTO event_ingest.event_counts (hour, database_id, type, severity, events)
        SELECT date_trunc('hour', "timestamp", 'UTC'), database_id, type, severity, count(*)
        FROM event_ingest."${name.replace(/"/g, '""')}" GROUP BY 1, 2, 3, 4
        ON CONFLICT (hour, database_id, type, severity) DO UPDATE SET events = event_ingest.event_counts.events + EXCLUDED.events`);
    }
    await runner.query(`CREATE INDEX events_time_brin ON event_ingest.events USING brin ("timestamp")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX event_ingest.events_time_brin`);
    await runner.query(`DROP TABLE event_ingest.event_counts`);
  }
}
