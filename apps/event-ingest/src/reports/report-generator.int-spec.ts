import type { ReportType } from '@vigil/contracts';
import type { DataSource } from 'typeorm';
import { type EventIngestTestDatabase, openEventIngestDatabase } from '../testing/event-ingest-database';
import { ReportDefinitions } from './report-definitions';
import { ReportGenerator } from './report-generator';

const HOUR = 3_600_000;

/**
 * The newest privileged statements a "list" section shows (real PostgreSQL): read newest first
 * through the partial index of privileged statements, not by scanning the period's queries.
 */
describe('report generator: privileged statements', () => {
  let opened: EventIngestTestDatabase;
  let dataSource: DataSource;
  const end = new Date(Math.floor(Date.now() / HOUR) * HOUR);
  const start = new Date(end.getTime() - 24 * HOUR);

  beforeAll(async () => {
    opened = await openEventIngestDatabase('report-generator-test');
    ({ dataSource } = opened);
    // Many ordinary queries and a few privileged statements over the period: reading the queries
    // newest first and filtering would be the planner's choice without the partial index.
    await dataSource.query(
      `INSERT INTO event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, risk_score, details, operation)
       SELECT g, 'evt_q' || g, 'database.query', 'info', 'db_a', $1::timestamptz + g * interval '1 second', now(), 'app', 0,
              '{"query": "SELECT 1"}'::jsonb, 'SELECT'
       FROM generate_series(1, 60000) g`,
      [start.toISOString()],
    );
    await dataSource.query(
      `INSERT INTO event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, risk_score, details, operation)
       SELECT 100000 + g, 'evt_p' || g, 'database.query', 'warning', 'db_a', $1::timestamptz + g * interval '1 hour', now(), 'dba', 10,
              jsonb_build_object('query', op || ' something'), op
       FROM generate_series(1, 6) g, LATERAL (SELECT (ARRAY['GRANT', 'REVOKE', 'ALTER', 'DROP', 'CREATE', 'TRUNCATE'])[g] AS op) o`,
      [start.toISOString()],
    );
    await dataSource.query(`ANALYZE event_ingest.events`);
  });

  afterAll(async () => {
    await opened?.close();
  });

  it('lists each section its own operations, newest first', async () => {
    await dataSource.transaction(async (manager) => {
      const sox = await generate(manager, 'sox');
      const operations = (id: string) => sox.sections.find((s) => s.id === id)!.rows.map((r) => r[6]);
      expect(operations('privilege_changes')).toEqual(['REVOKE', 'GRANT']);
      expect(operations('schema_changes')).toEqual(['CREATE', 'DROP', 'ALTER']);
      const pci = await generate(manager, 'pci_dss');
      expect(pci.sections.find((s) => s.id === 'privileged_actions')!.rows.map((r) => r[6])).toEqual(['TRUNCATE', 'CREATE', 'DROP', 'ALTER', 'REVOKE', 'GRANT']);
    });
  });

  it.each(Object.keys(ReportDefinitions) as ReportType[])('%s: reads privileged statements through their partial index', async (type) => {
    const partialIndexes: { name: string }[] = await dataSource.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'event_ingest.events_privileged_time'::regclass`,
    );
    expect(partialIndexes.length).toBeGreaterThan(0);
    await dataSource.transaction(async (manager) => {
      const query = jest.spyOn(manager, 'query');
      await generate(manager, type);
      const privileged = query.mock.calls.filter(([sql]) => /FROM event_ingest\.events\s[\s\S]*AND type = 'database\.query' AND operation/.test(sql));
      expect(privileged).toHaveLength(ReportDefinitions[type].sections.filter((s) => s.kind === 'list' && s.filter.operations?.length).length);
      for (const [sql, params] of privileged) {
        const [plan]: { 'QUERY PLAN': unknown }[] = await manager.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
        const used = JSON.stringify(plan!['QUERY PLAN']);
        expect(partialIndexes.some((i) => used.includes(`"Index Name":"${i.name}"`))).toBe(true);
      }
    });
  });

  function generate(manager: Parameters<ReportGenerator['generate']>[0], type: ReportType) {
    return new ReportGenerator().generate(
      manager,
      ReportDefinitions[type],
      { report_id: 'rpt_test', schedule_id: null, period_start: start, period_end: end, databases: [] },
      new Map(),
      () => undefined,
    );
  }
});
