import { randomBytes } from 'node:crypto';
import type { AggregateBucket, AggregateGroupField, AuditEvent, EventFilters } from '@vigil/contracts';
import { createServiceDataSource, runMigrations } from '@vigil/database';
import { createLogger } from '@vigil/platform';
import { createTestDatabase, type TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { eventIngestMigrations } from '../database/migrations';
import { type EventIngestTestDatabase, openEventIngestDatabase } from '../testing/event-ingest-database';
import { EventCounts1771100000000 } from '../database/migrations/1771100000000-event-counts';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { EventPartitions } from './event-partitions.service';
import { EventsRepository, hourlyCountsSource, type StoredEvent } from './events.repository';
import { Where } from './event-query';
import { PartitionsRepository } from './partitions.repository';

const HOUR = 3_600_000;

/**
 * The hourly counts behind count aggregates (real PostgreSQL): for every request they can serve,
 * the answer is the one counting the events table gives, whatever the range's edges.
 */
describe('hourly event counts', () => {
  let opened: EventIngestTestDatabase;
  let db: TestDatabase;
  let dataSource: DataSource;
  let events: EventsRepository;
  const base = Math.floor(Date.now() / HOUR) * HOUR - 30 * HOUR; // 30 hours ago, on the hour
  const types: AuditEvent['type'][] = ['database.query', 'security.threat_detected', 'user.login_failed'];
  const severities: AuditEvent['severity'][] = ['info', 'warning', 'critical'];

  async function store(batch: { at: number; db: string; type: AuditEvent['type']; severity: AuditEvent['severity'] }[]) {
    await dataSource.transaction(async (manager) => {
      const first = await events.reserveSequence(manager, batch.length);
      const rows: StoredEvent[] = batch.map((e, i) => ({
        id: `evt_${randomBytes(8).toString('hex')}${i}`,
        type: e.type,
        severity: e.severity,
        database_id: e.db,
        timestamp: new Date(e.at).toISOString(),
        processed_at: new Date().toISOString(),
        details: {},
        context: { policy_id: null, rule_id: null, risk_score: 10 },
        producer_id: null,
        seq: String(first + BigInt(i)),
        operation: null,
        correlation_id: null,
      }));
      await events.insertMany(manager, rows);
      await events.addCounts(manager, rows);
    });
  }

  beforeAll(async () => {
    opened = await openEventIngestDatabase('counts-test');
    ({ db, dataSource } = opened);
    events = new EventsRepository(dataSource);
    // Events every 7 minutes and 13 seconds over 32 hours, in several batches (counts add up across batches).
    const all = [];
    for (let i = 0, at = base - 37_000; at < base + 32 * HOUR; i++, at += 433_000) {
      all.push({ at, db: `db_${i % 3}`, type: types[i % 3]!, severity: severities[(i * 7) % 3]! });
    }
    for (let i = 0; i < all.length; i += 97) await store(all.slice(i, i + 97));
  });

  afterAll(async () => {
    await opened?.close();
  });

  const both = async (filters: EventFilters, groupBy: AggregateGroupField[], bucket?: AggregateBucket) => {
    const request = { filters, groupBy, bucket, metrics: ['count' as const], limit: 1000 };
    const sort = (rows: Awaited<ReturnType<EventsRepository['aggregate']>>) =>
      rows
        .map((r) => ({ ...r, bucket: r.bucket ? new Date(r.bucket).toISOString() : null, metrics: { count: Number(r.metrics.count) } }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const fromCounts = sort(await events.aggregate(request));
    const fromEvents = sort(await events.aggregate({ ...request, useHourlyCounts: false }));
    return { fromCounts, fromEvents };
  };

  const at = (ms: number) => new Date(ms).toISOString();
  const ranges: [string, EventFilters][] = [
    ['whole hours', { start: at(base + 2 * HOUR), end: at(base + 20 * HOUR) }],
    ['ragged edges', { start: at(base + 2 * HOUR + 123_456), end: at(base + 20 * HOUR + 2_345_678) }],
    ['a last-24h range ending now', { start: at(Date.now() - 24 * HOUR), end: at(Date.now()) }],
    ['less than one whole hour', { start: at(base + 5 * HOUR + 60_000), end: at(base + 6 * HOUR + 30_000) }],
    ['filters on database, type and severity', { start: at(base + HOUR / 2), end: at(base + 31 * HOUR + 999), database_ids: ['db_1', 'db_2'], types: ['security.threat_detected', 'user.login_failed'], severities: ['warning'] }],
  ];

  it.each(ranges)('give the same groups and totals as counting the events: %s', async (_label, filters) => {
    for (const [groupBy, bucket] of [
      [[], undefined],
      [['database_name'], undefined],
      [['database_id', 'type', 'severity'], undefined],
      [['type'], 'hour'],
      [['severity'], 'day'],
    ] as [AggregateGroupField[], AggregateBucket | undefined][]) {
      const { fromCounts, fromEvents } = await both(filters, groupBy, bucket);
      expect(fromCounts).toEqual(fromEvents);
      expect(fromEvents.find((r) => r.total)!.metrics.count).toBeGreaterThan(0);
    }
  });

  it('serve exactly the requests they can answer: count only, by database, type, severity, hour or day', () => {
    const source = (over: Partial<Parameters<typeof hourlyCountsSource>[1]>) =>
      hourlyCountsSource(new Where(), { filters: ranges[1]![1], groupBy: ['database_name'], metrics: ['count'], ...over });
    expect(source({})).toContain('event_ingest.event_counts');
    expect(source({ bucket: 'day', groupBy: ['type', 'severity', 'database_id'] })).not.toBeNull();
    expect(source({ metrics: ['count', 'unique_users'] })).toBeNull();
    expect(source({ groupBy: ['user'] })).toBeNull();
    expect(source({ bucket: 'minute' })).toBeNull();
    expect(source({ filters: { ...ranges[1]![1], source_ips: ['10.0.0.1'] } })).toBeNull();
    expect(source({ filters: ranges[3]![1] })).toBeNull(); // no whole hour inside
  });

  it('(listing totals) count as of the snapshot, reading a bounded number of the events stored after it', async () => {
    const one = (db: string) => ({ at: base + HOUR, db, type: types[0]!, severity: severities[0]! });
    await store([one('db_total'), one('db_total'), one('db_total')]);
    const snapshot = await events.headSequence();
    // After the snapshot: 2 more matches among 30 others.
    await store([one('db_total'), one('db_total'), ...Array.from({ length: 30 }, () => one('db_flood'))]);
    const filters: EventFilters = { database_ids: ['db_total'] };
    expect(await events.count(filters, snapshot, 1000)).toEqual({ total: 3, estimated: false });
    expect(await events.count(filters, snapshot, 1000, 32)).toEqual({ total: 3, estimated: false });
    // More newer events than it may read, though only 2 of them match: estimated, not scanned.
    expect((await events.count(filters, snapshot, 1000, 31)).estimated).toBe(true);
  });

  it('are dropped with the days retention drops', async () => {
    const partitions = new EventPartitions(
      new PartitionsRepository(dataSource),
      { EVENTS_RETENTION_DAYS: 1, EVENTS_PARTITIONS_AHEAD_DAYS: 1, EVENTS_MAINTENANCE_INTERVAL_MS: 3_600_000 } as EventIngestConfig,
      createLogger('test', 'silent'),
    );
    await partitions.maintain();
    const cutoff = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
    const [old] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.event_counts WHERE hour < $1`, [at(cutoff)]);
    expect(old).toEqual({ n: 0 });
    // What is left still matches the events left.
    const { fromCounts, fromEvents } = await both({ start: at(cutoff - 5 * HOUR), end: at(Date.now() + HOUR) }, ['database_id']);
    expect(fromCounts).toEqual(fromEvents);
  });
});

describe('hourly event counts migration', () => {
  it('counts the events stored before it, partition by partition', async () => {
    const db = await createTestDatabase();
    const before = eventIngestMigrations.filter((m) => m !== EventCounts1771100000000);
    const open = async (migrations: typeof eventIngestMigrations) => {
      const ds = createServiceDataSource({ url: db.url, schema: 'event_ingest', migrations, poolSize: 2, applicationName: 'counts-migration-test' });
      await ds.initialize();
      await runMigrations(ds, 'event_ingest');
      return ds;
    };
    try {
      const old = await open(before);
      const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
      const partition = `events_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')}`;
      await old.query(`CREATE TABLE event_ingest.${partition} PARTITION OF event_ingest.events FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + 86_400_000).toISOString()}')`);
      const repository = new EventsRepository(old);
      await old.transaction(async (manager) => {
        const rows: StoredEvent[] = [day + 60_000, day + 120_000, day + HOUR + 1, day - 10 * 86_400_000].map((t, i) => ({
          id: `evt_m${i}`, type: 'database.query', severity: 'info', database_id: 'db_m', timestamp: new Date(t).toISOString(),
          processed_at: new Date().toISOString(), details: {}, context: { policy_id: null, rule_id: null, risk_score: 10 }, producer_id: null,
          seq: String(i + 1), operation: null, correlation_id: null,
        }));
        await repository.insertMany(manager, rows);
      });
      await old.destroy();
      const migrated = await open(eventIngestMigrations);
      const counts = await migrated.query(`SELECT hour, events::int FROM event_ingest.event_counts ORDER BY hour`);
      await migrated.destroy();
      expect(counts.map((c: { hour: Date; events: number }) => [c.hour.getTime(), c.events])).toEqual([
        [day - 10 * 86_400_000, 1], // in the default partition
        [day, 2],
        [day + HOUR, 1],
      ]);
    } finally {
      await db.drop();
    }
  });

  it('counts a transaction committed while it runs whole or not at all', async () => {
    const db = await createTestDatabase();
    const ds = createServiceDataSource({
      url: db.url, schema: 'event_ingest', migrations: eventIngestMigrations.filter((m) => m !== EventCounts1771100000000), poolSize: 3, applicationName: 'counts-migration-test',
    });
    const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const event = (id: string, t: number, seq: number): StoredEvent => ({
      id, type: 'database.query', severity: 'info', database_id: 'db_w', timestamp: new Date(t).toISOString(), processed_at: new Date().toISOString(),
      details: {}, context: { policy_id: null, rule_id: null, risk_score: 10 }, producer_id: null, seq: String(seq), operation: null, correlation_id: null,
    });
    try {
      await ds.initialize();
      await runMigrations(ds, 'event_ingest');
      await ds.query(`CREATE TABLE event_ingest.events_p${new Date(day).toISOString().slice(0, 10).replace(/-/g, '')} PARTITION OF event_ingest.events
        FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + 86_400_000).toISOString()}')`);
      const repository = new EventsRepository(ds);
      await ds.transaction((manager) => repository.insertMany(manager, [event('evt_a', day - 5 * 86_400_000, 1), event('evt_b', day + 60_000, 2)]));

      // A writer commits one event to the default partition (counted first) and one to the day's
      // partition (counted next) just after the default partition was counted.
      let writer: Promise<void> | undefined;
      const runner = ds.createQueryRunner();
      await runner.connect();
      const query = runner.query.bind(runner);
      runner.query = (async (sql: string, parameters?: unknown[]) => {
        const result = await query(sql, parameters);
        if (!writer && /FROM event_ingest\."events_default"/.test(sql)) {
          writer = ds.transaction((manager) => repository.insertMany(manager, [event('evt_c', day - 5 * 86_400_000, 3), event('evt_d', day + 120_000, 4)]));
          let waiting = false;
          let done = false;
          void writer.then(() => (done = true), () => (done = true));
          // Until the writer has either committed or is waiting for a lock.
          while (!waiting && !done) {
            const [row]: { n: number }[] = await ds.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'counts-migration-test' AND wait_event_type = 'Lock'`,
            );
            waiting = row!.n > 0;
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
        return result;
      }) as typeof runner.query;
      await runner.startTransaction();
      await new EventCounts1771100000000().up(runner);
      await runner.commitTransaction();
      await runner.release();
      await writer;

      const [{ counted }] = await ds.query(`SELECT sum(events)::int AS counted FROM event_ingest.event_counts`);
      expect([2, 4]).toContain(counted); // before the writer (it waited), or with both of its events
    } finally {
      await ds.destroy().catch(() => undefined);
      await db.drop();
    }
  });
});
