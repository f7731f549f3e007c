import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a webhook or alert delivery keeps the W3C trace context of the work that created
 * it, so each attempt's span joins that trace (docs/operations.md#tracing). NULL otherwise.
 */
export class DeliveryTraceContext1772000000000 implements MigrationInterface {
  name = 'DeliveryTraceContext1772000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE delivery.webhook_deliveries ADD COLUMN trace_context jsonb`);
    await runner.query(`ALTER TABLE delivery.alert_deliveries ADD COLUMN trace_context jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE delivery.alert_deliveries DROP COLUMN trace_context`);
    await runner.query(`ALTER TABLE delivery.webhook_deliveries DROP COLUMN trace_context`);
  }
}
