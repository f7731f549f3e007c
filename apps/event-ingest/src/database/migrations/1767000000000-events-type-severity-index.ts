import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Type and severity together (`type=security.*&severity=critical`): each type of a wildcard reads
 * this index in time order and stops at the page, and the capped count reads it without the rows.
 */
export class EventsTypeSeverityIndex1767000000000 implements MigrationInterface {
  name = 'EventsTypeSeverityIndex1767000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX events_type_severity_time ON event_ingest.events (type, severity, "timestamp" DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX event_ingest.events_type_severity_time`);
  }
}
