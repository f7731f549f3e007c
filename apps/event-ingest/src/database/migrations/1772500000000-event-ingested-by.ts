import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every stored event records who submitted it: `ingested_by` = `{kind, id}` (docs/events.md#attribution).
 * A nullable column with no default: PostgreSQL adds it to the partitioned table without rewriting
 * a row; events stored before it read back with `ingested_by: null`.
 */
export class EventIngestedBy1772500000000 implements MigrationInterface {
  name = 'EventIngestedBy1772500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events ADD COLUMN ingested_by jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events DROP COLUMN ingested_by`);
  }
}
