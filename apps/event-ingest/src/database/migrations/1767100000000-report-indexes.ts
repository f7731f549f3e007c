import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statements that change schema or privileges are rare but every compliance report lists the
 * newest of them: a small partial index finds them newest first without reading the period
 * (docs/reports.md#generation).
 */
export class ReportIndexes1767100000000 implements MigrationInterface {
  name = 'ReportIndexes1767100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE INDEX events_privileged_time ON event_ingest.events ("timestamp" DESC, id DESC)
      WHERE type = 'database.query' AND operation IN ('GRANT', 'REVOKE', 'ALTER', 'DROP', 'CREATE', 'TRUNCATE')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX event_ingest.events_privileged_time`);
  }
}
