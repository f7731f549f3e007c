import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitored databases and compliance reports (docs/reports.md). They live beside the audit events
 * because reports read millions of them: no copy, no cross-schema read.
 */
export class DatabasesReports1766000000000 implements MigrationInterface {
  name = 'DatabasesReports1766000000000';

  async up(runner: QueryRunner): Promise<void> {
    // One row per database: registered by a person, or discovered from audit records and policies.
    // The activity columns are kept by one upsert per ingest batch.
    await runner.query(`
      CREATE TABLE event_ingest.databases (
        id                   text        PRIMARY KEY,
        name                 text        NOT NULL,
        type                 text,
        host                 text,
        port                 integer,
        database_name        text,
        environment          text,
        description          text        NOT NULL DEFAULT '',
        tags                 text[]      NOT NULL DEFAULT '{}',
        status               text        NOT NULL CHECK (status IN ('registered', 'discovered')),
        connection_status    text        NOT NULL DEFAULT 'unknown',
        connection_status_changed_at timestamptz,
        last_error           text,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now(),
        first_event_at       timestamptz,
        last_event_at        timestamptz,
        event_count          bigint      NOT NULL DEFAULT 0,
        info_count           bigint      NOT NULL DEFAULT 0,
        warning_count        bigint      NOT NULL DEFAULT 0,
        critical_count       bigint      NOT NULL DEFAULT 0
      )`);
    await runner.query(`CREATE UNIQUE INDEX databases_name ON event_ingest.databases (lower(name))`);
    await runner.query(`CREATE INDEX databases_connected ON event_ingest.databases (last_event_at) WHERE connection_status = 'connected'`);

    await runner.query(`
      CREATE TABLE event_ingest.report_schedules (
        id             text        PRIMARY KEY,
        name           text        NOT NULL,
        type           text        NOT NULL,
        cron           text        NOT NULL,
        timezone       text        NOT NULL,
        period_days    integer     NOT NULL,
        databases      text[]      NOT NULL DEFAULT '{}',
        formats        text[]      NOT NULL,
        enabled        boolean     NOT NULL,
        next_run_at    timestamptz,
        last_run_at    timestamptz,
        last_report_id text,
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX report_schedules_name ON event_ingest.report_schedules (lower(name))`);
    await runner.query(`CREATE INDEX report_schedules_due ON event_ingest.report_schedules (next_run_at) WHERE enabled`);

    // A scheduled report is unique per (schedule, slot): however many instances see the slot due,
    // one report exists for it.
    await runner.query(`
      CREATE TABLE event_ingest.reports (
        id            text        PRIMARY KEY,
        type          text        NOT NULL,
        status        text        NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        progress      smallint    NOT NULL DEFAULT 0,
        period_start  timestamptz NOT NULL,
        period_end    timestamptz NOT NULL,
        databases     text[]      NOT NULL DEFAULT '{}',
        formats       text[]      NOT NULL,
        schedule_id   text,
        slot          timestamptz,
        created_at    timestamptz NOT NULL DEFAULT now(),
        started_at    timestamptz,
        completed_at  timestamptz,
        lease_until   timestamptz,
        attempts      integer     NOT NULL DEFAULT 0,
        error         text,
        summary       jsonb,
        document      jsonb,
        UNIQUE (schedule_id, slot)
      )`);
    await runner.query(`CREATE INDEX reports_pending ON event_ingest.reports (created_at) WHERE status IN ('queued', 'running')`);
    await runner.query(`CREATE INDEX reports_created ON event_ingest.reports (created_at DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE event_ingest.reports`);
    await runner.query(`DROP TABLE event_ingest.report_schedules`);
    await runner.query(`DROP TABLE event_ingest.databases`);
  }
}
