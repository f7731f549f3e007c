import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Records holding text PostgreSQL cannot store (U+0000, lone surrogates) are stored escaped and
 * flagged (docs/events.md#records-with-nul-characters). The flag is a column with a constant
 * default: PostgreSQL adds it to the partitioned table without rewriting a row.
 *
 * Producer ids are claimed under their escaped form from now on (a backslash doubled), so an id
 * holding U+0000 and an id holding a literal `\0` never share a claim: ids claimed before that hold
 * a backslash are rewritten once. They are set aside, deleted, then inserted anew in separate
 * statements: rewritten in place, `a\b` would briefly take the key `a\\b` still held by another.
 */
export class EscapedEvents1772100000000 implements MigrationInterface {
  name = 'EscapedEvents1772100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events ADD COLUMN escaped boolean NOT NULL DEFAULT false`);
    await rewriteClaims(runner, `replace(producer_id, E'\\\\', E'\\\\\\\\')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await rewriteClaims(runner, `replace(producer_id, E'\\\\\\\\', E'\\\\')`);
    await runner.query(`ALTER TABLE event_ingest.events DROP COLUMN escaped`);
  }
}

async function rewriteClaims(runner: QueryRunner, rewritten: string): Promise<void> {
  const holdsBackslash = `strpos(producer_id, E'\\\\') > 0`;
  await runner.query(`CREATE TEMP TABLE producer_ids_rewritten AS
    SELECT ${rewritten} AS producer_id, event_id, accepted_at FROM event_ingest.producer_ids WHERE ${holdsBackslash}`);
  await runner.query(`DELETE FROM event_ingest.producer_ids WHERE ${holdsBackslash}`);
  await runner.query(`INSERT INTO event_ingest.producer_ids (producer_id, event_id, accepted_at)
    SELECT producer_id, event_id, accepted_at FROM producer_ids_rewritten`);
  await runner.query(`DROP TABLE producer_ids_rewritten`);
}
