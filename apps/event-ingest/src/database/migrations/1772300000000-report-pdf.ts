import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The PDF of a completed report, rendered once when the report is generated (docs/reports.md#pdf)
 * so a download only reads it. Stored out of line without compression: a PDF is compressed already.
 */
export class ReportPdf1772300000000 implements MigrationInterface {
  name = 'ReportPdf1772300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.reports ADD COLUMN pdf bytea`);
    await runner.query(`ALTER TABLE event_ingest.reports ALTER COLUMN pdf SET STORAGE EXTERNAL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.reports DROP COLUMN pdf`);
  }
}
