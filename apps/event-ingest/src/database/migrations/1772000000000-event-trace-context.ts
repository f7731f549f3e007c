import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events table is the outbox of audit.events.v1: with tracing on, each event keeps the W3C
 * trace context of the request that stored it, so the relay's publish continues that trace
 * (docs/operations.md#tracing). NULL when tracing is off; adding a nullable column rewrites nothing.
 */
export class EventTraceContext1772000000000 implements MigrationInterface {
  name = 'EventTraceContext1772000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events ADD COLUMN trace_context jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events DROP COLUMN trace_context`);
  }
}
