import type { TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { type EventIngestTestDatabase, openEventIngestDatabase } from '../testing/event-ingest-database';
import { copyText, EventsRepository, type StoredEvent } from './events.repository';

/** Events are stored with COPY's text format: whatever a producer sends comes back unchanged. */
describe('storing events with COPY (PostgreSQL)', () => {
  let opened: EventIngestTestDatabase;
  let db: TestDatabase;
  let dataSource: DataSource;
  let events: EventsRepository;

  beforeAll(async () => {
    opened = await openEventIngestDatabase('copy-test');
    ({ db, dataSource } = opened);
    events = new EventsRepository(dataSource);
  });

  afterAll(async () => {
    await opened?.close();
  });

  it('escapes exactly backslash, tab, newline and carriage return', () => {
    expect(copyText('plain text, "quotes", \'single\' and ünïcödé')).toBe('plain text, "quotes", \'single\' and ünïcödé');
    expect(copyText('a\\b\tc\nd\re\\.')).toBe('a\\\\b\\tc\\nd\\re\\\\.');
  });

  it('round-trips hostile text in every column, nulls as nulls and empty strings as empty strings', async () => {
    const hostile = 'tab\there, newline\nthere, cr\r, backslash \\ and \\N and \\. and "quotes" and ünïcödé 🎉';
    const stored: StoredEvent[] = [
      {
        id: 'evt_copy_1',
        type: 'database.query',
        severity: 'warning',
        database_id: 'db_copy',
        timestamp: '2026-11-21T10:00:00.123Z',
        processed_at: '2026-11-21T10:00:01.456Z',
        details: { user: hostile, source_ip: '10.0.0.1', session_id: '', query: `SELECT '${hostile}'`, nested: { list: [1, 'two', null], text: hostile } } as StoredEvent['details'],
        context: { policy_id: 'pol_x', rule_id: 'rule\ty', risk_score: 42 },
        producer_id: 'producer\\id',
        ingested_by: { kind: 'producer', id: 'tab\there\\ "x"' },
        seq: '1',
        operation: 'SELECT',
        correlation_id: null,
      },
      {
        id: 'evt_copy_2',
        type: 'user.login_failed',
        severity: 'info',
        database_id: 'db_copy',
        timestamp: '2026-11-21T10:00:02.000Z',
        processed_at: '2026-11-21T10:00:02.000Z',
        details: {},
        context: { policy_id: null, rule_id: null, risk_score: 0 },
        producer_id: null,
        seq: '2',
        operation: null,
        correlation_id: 'corr',
      },
    ];
    await dataSource.transaction((manager) => events.insertMany(manager, stored));
    const rows = await db.query(
      `SELECT id, user_name, source_ip, session_id, producer_id, policy_id, rule_id, risk_score, details, operation, correlation_id, "timestamp", ingested_by
       FROM event_ingest.events ORDER BY seq`,
    );
    expect(rows).toEqual([
      {
        id: 'evt_copy_1', user_name: hostile, source_ip: '10.0.0.1', session_id: '', producer_id: 'producer\\id', policy_id: 'pol_x', rule_id: 'rule\ty',
        risk_score: 42, details: stored[0]!.details, operation: 'SELECT', correlation_id: null, timestamp: new Date('2026-11-21T10:00:00.123Z'),
        ingested_by: { kind: 'producer', id: 'tab\there\\ "x"' },
      },
      {
        id: 'evt_copy_2', user_name: null, source_ip: null, session_id: null, producer_id: null, policy_id: null, rule_id: null,
        risk_score: 0, details: {}, operation: null, correlation_id: 'corr', timestamp: new Date('2026-11-21T10:00:02.000Z'),
        ingested_by: null,
      },
    ]);
    // A batch PostgreSQL refuses (here a sequence that is not a number) leaves nothing behind.
    await expect(
      dataSource.transaction((manager) => events.insertMany(manager, [{ ...stored[1]!, id: 'evt_copy_3', seq: 'not-a-number' }])),
    ).rejects.toThrow();
    expect(await db.query(`SELECT count(*)::int AS n FROM event_ingest.events`)).toEqual([{ n: 2 }]);
  });
});
