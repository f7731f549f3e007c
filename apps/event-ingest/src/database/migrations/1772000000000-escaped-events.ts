import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records holding text PostgreSQL cannot store (U+0000, lone surrogates) are stored escaped and
 * flagged (docs/events.md#records-with-nul-characters). The flag is a column with a constant
 * default: PostgreSQL adds it to the partitioned table without rewriting a row.
 *
 * Producer ids are claimed under their escaped form from now on (a backslash doubled), so an id
 * holding U+0000 and an id holding a literal `\0` never share a claim: ids claimed before that hold
 * a backslash are rewritten once, in one statement (deleted and inserted anew, so no key is ever
 * briefly taken twice).
 */
export class EscapedEvents1772000000000 implements MigrationInterface {
  name = 'EscapedEvents1772000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events ADD COLUMN escaped boolean NOT NULL DEFAULT false`);
    await runner.query(`
      WITH moved AS (DELETE FROM event_ingest.producer_ids WHERE strpos(producer_id, E'\\\\') > 0 RETURNING *)
      INSERT INTO event_ingest.producer_ids SELECT replace(producer_id, E'\\\\', E'\\\\\\\\'), event_id FROM moved`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      WITH moved AS (DELETE FROM event_ingest.producer_ids WHERE strpos(producer_id, E'\\\\') > 0 RETURNING *)
      INSERT INTO event_ingest.producer_ids SELECT replace(producer_id, E'\\\\\\\\', E'\\\\'), event_id FROM moved`);
    await runner.query(`ALTER TABLE event_ingest.events DROP COLUMN escaped`);
  }
}
