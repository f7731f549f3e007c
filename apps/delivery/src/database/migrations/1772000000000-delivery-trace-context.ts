import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * With tracing on, a webhook delivery keeps the W3C trace context of the event consumption that
 * created it, so each attempt's span joins that trace (docs/operations.md#tracing). NULL otherwise.
 */
export class DeliveryTraceContext1772000000000 implements MigrationInterface {
  name = 'DeliveryTraceContext1772000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE delivery.webhook_deliveries ADD COLUMN trace_context jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE delivery.webhook_deliveries DROP COLUMN trace_context`);
  }
}
