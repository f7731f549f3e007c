import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Compliance reports read the alerts first seen in a period, per database (docs/reports.md#alerts). */
export class AlertsReportIndex1770200000000 implements MigrationInterface {
  name = 'AlertsReportIndex1770200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX alerts_first_seen ON delivery.alerts (first_seen_at, database_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX delivery.alerts_first_seen`);
  }
}
