import { randomBytes } from 'node:crypto';
import { createLogger } from '@vigil/platform';
import type { TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { EventPartitions } from './event-partitions.service';
import { EventsRepository, type StoredEvent } from './events.repository';
import { PartitionsRepository } from './partitions.repository';
import { type EventIngestTestDatabase, openEventIngestDatabase } from '../testing/event-ingest-database';

/** Daily partitions on a real PostgreSQL: created ahead, late rows moved out of the default, expired days dropped whole. */
describe('event partitions', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let events: EventsRepository;
  const now = new Date();
  const day = 86_400_000;

  let opened: EventIngestTestDatabase;

  beforeAll(async () => {
    opened = await openEventIngestDatabase('partitions-test');
    ({ db, dataSource } = opened);
    events = new EventsRepository(dataSource);
  });

  afterAll(async () => {
    await opened?.close();
  });

  const partitions = (retentionDays: number) =>
    new EventPartitions(
      new PartitionsRepository(dataSource),
      { EVENTS_RETENTION_DAYS: retentionDays, EVENTS_PARTITIONS_AHEAD_DAYS: 2, EVENTS_MAINTENANCE_INTERVAL_MS: 3_600_000 } as EventIngestConfig,
      createLogger('test', 'silent'),
    );

  /** Stores events as ingest does; `counted`: with their hourly counts too. */
  async function store(timestamps: Date[], { databaseId = 'db_p', counted = false } = {}): Promise<void> {
    await dataSource.transaction(async (manager) => {
      const first = await events.reserveSequence(manager, timestamps.length);
      const rows: StoredEvent[] = timestamps.map((t, i) => ({
        id: `evt_${randomBytes(8).toString("hex")}${i}`, type: 'database.query', severity: 'info', database_id: databaseId, timestamp: t.toISOString(),
        processed_at: now.toISOString(), details: {}, context: { policy_id: null, rule_id: null, risk_score: 10 }, producer_id: null,
        seq: String(first + BigInt(i)), operation: null, correlation_id: null,
      }));
      await events.insertMany(manager, rows);
      if (counted) await events.addCounts(manager, rows);
    });
  }

  /**
   * The event log's tree takes every stored event (as its builder would, with placeholder hashes):
   * retention drops only what the tree has taken.
   */
  const treeTakesAll = () =>
    db.query(`UPDATE event_ingest.integrity_tree SET tree_size = s.n, tail = decode(repeat('00', ((s.n % 256) * 32)::int), 'hex')
              FROM (SELECT coalesce(max(seq), 0) AS n FROM event_ingest.events) s`);

  const where = async () =>
    db.query<{ part: string; n: number }>(`SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM event_ingest.events GROUP BY 1 ORDER BY 1`);
  const name = (d: Date) => `event_ingest.events_p${d.toISOString().slice(0, 10).replace(/-/g, '')}`;

  it('creates the coming days, moves late rows out of the default partition, then drops expired days whole', async () => {
    const lateDay = new Date(now.getTime() - 10 * day);
    // Before maintenance ran, everything lands in the default partition.
    await store([lateDay, lateDay, now]);
    expect(await where()).toEqual([{ part: 'event_ingest.events_default', n: 3 }]);

    const first = await partitions(400).maintain(now);
    expect(first.created).toHaveLength(5); // the late day, yesterday, today, two ahead
    expect(await where()).toEqual(
      [
        { part: name(lateDay), n: 2 },
        { part: name(now), n: 1 },
      ].sort((a, b) => a.part.localeCompare(b.part)),
    );
    // New rows go straight to their day, and indexes exist on the new partitions.
    await store([new Date(now.getTime() + day)]);
    expect((await where()).find((r) => r.part === name(new Date(now.getTime() + day)))?.n).toBe(1);
    const indexes = await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'event_ingest' AND tablename = $1`, [name(lateDay).split('.')[1]]);
    expect(indexes.length).toBeGreaterThanOrEqual(7);

    // Running again changes nothing.
    expect((await partitions(400).maintain(now)).created).toEqual([]);

    // Not before the event log has taken the day's events: it keeps their leaves (docs/integrity.md#retention).
    expect((await partitions(5).maintain(now)).dropped).toEqual([]);
    await treeTakesAll();
    const second = await partitions(5).maintain(now);
    expect(second.dropped).toEqual([name(lateDay).split('.')[1]]);
    const gaps = await db.query(`SELECT partition_name, events::int, setting FROM event_ingest.integrity_retained_gaps WHERE partition_name = $1`, [name(lateDay).split('.')[1]]);
    expect(gaps).toEqual([{ partition_name: name(lateDay).split('.')[1], events: 2, setting: 'EVENTS_RETENTION_DAYS=5' }]);
    expect((await where()).some((r) => r.part === name(lateDay))).toBe(false);
    const log = await db.query<{ action: string }>(`SELECT action FROM event_ingest.partition_log WHERE partition_name = $1 ORDER BY at`, [name(lateDay).split('.')[1]]);
    expect(log.map((l) => l.action)).toEqual(['created', 'dropped']);
  });

  it('removes hourly counts with their events, even when maintenance fails half way', async () => {
    const hourly = async (table: 'counts' | 'events') =>
      db.query<{ hour: string; n: number }>(
        table === 'counts'
          ? `SELECT hour::text, sum(events)::int AS n FROM event_ingest.event_counts WHERE database_id = 'db_c' GROUP BY 1 ORDER BY 1`
          : `SELECT date_trunc('hour', "timestamp", 'UTC')::text AS hour, count(*)::int AS n FROM event_ingest.events WHERE database_id = 'db_c' GROUP BY 1 ORDER BY 1`,
      );
    const ago = (days: number) => new Date(now.getTime() - days * day);
    await store([ago(20), ago(20), ago(30), now], { databaseId: 'db_c', counted: true });
    await partitions(400).maintain(now); // the days 20 and 30 days ago get partitions
    await store([ago(40)], { databaseId: 'db_c', counted: true }); // no partition: the default one
    expect((await hourly('counts')).length).toBe(4);

    await treeTakesAll();
    // The expired days are dropped, then purging the default partition fails.
    const failing = partitions(5);
    const repository = (failing as unknown as { partitions: PartitionsRepository }).partitions;
    jest.spyOn(repository, 'purgeDefault').mockRejectedValueOnce(new Error('connection lost'));
    await expect(failing.maintain(now)).rejects.toThrow('connection lost');
    expect(await hourly('counts')).toEqual(await hourly('events'));
    expect((await hourly('events')).length).toBe(2); // 40 days ago (default partition) and now

    await failing.maintain(now);
    expect(await hourly('counts')).toEqual(await hourly('events'));
    expect((await hourly('events')).length).toBe(1);
  });

  it('keeps stored events immutable in every partition', async () => {
    await expect(db.query(`UPDATE event_ingest.events SET severity = 'critical'`)).rejects.toThrow(/immutable/);
  });

  it('hands out dense sequences that commit in order', async () => {
    const before = BigInt(await events.headSequence());
    await Promise.all(Array.from({ length: 8 }, () => store([now, now, now])));
    const seqs = (await db.query<{ seq: string }>(`SELECT e.seq::text AS seq FROM event_ingest.events e WHERE e.seq > $1 ORDER BY e.seq`, [String(before)])).map((r) => BigInt(r.seq));
    expect(seqs).toHaveLength(24);
    seqs.forEach((s, i) => expect(s).toBe(before + BigInt(i) + 1n));
    expect(BigInt(await events.headSequence())).toBe(before + 24n);
  });
});
