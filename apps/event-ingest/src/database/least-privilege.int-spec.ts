import { randomBytes } from 'node:crypto';
import { bootstrapRolesFromEnv, createServiceDataSource, migrateService } from '@vigil/database';
import { createLogger } from '@vigil/platform';
import { createTestDatabase, createTestRoles, type TestDatabase, type TestRoles } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { EventPartitions } from '../events/event-partitions.service';
import { EventsRepository, type StoredEvent } from '../events/events.repository';
import { PartitionsRepository } from '../events/partitions.repository';
import { eventIngestDatabase } from './event-ingest.database';

/**
 * The event store under the distributed deployment's roles, on a real PostgreSQL: the runtime role
 * writes and reads events and nothing more; the triggers hold even for the owner; partition
 * maintenance and retention work through the owner's functions, within the retention floor.
 */
describe('event store least privilege', () => {
  const DAY = 86_400_000;
  const RETENTION = 5;
  const now = new Date();
  let db: TestDatabase;
  let roles: TestRoles;
  let runtime: DataSource;
  let owner: DataSource;

  const open = async (url: string, name: string) => {
    const ds = createServiceDataSource({ url, schema: 'event_ingest', migrations: [], poolSize: 2, applicationName: name });
    await ds.initialize();
    return ds;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    roles = await createTestRoles(db, bootstrapRolesFromEnv);
    await migrateService(eventIngestDatabase, roles.owner.url, { EVENTS_RETENTION_DAYS: String(RETENTION) });
    runtime = await open(roles.services['event-ingest'].url, 'least-privilege-runtime');
    owner = await open(roles.owner.url, 'least-privilege-owner');
  });

  afterAll(async () => {
    await runtime?.destroy();
    await owner?.destroy();
    await db?.drop();
    await roles?.drop();
  });

  const partitions = (dataSource: DataSource, retentionDays: number) =>
    new EventPartitions(
      new PartitionsRepository(dataSource),
      { EVENTS_RETENTION_DAYS: retentionDays, EVENTS_PARTITIONS_AHEAD_DAYS: 1, EVENTS_MAINTENANCE_INTERVAL_MS: 3_600_000 } as EventIngestConfig,
      createLogger('test', 'silent'),
    );

  /** Stores events as ingest does, as the runtime role. */
  async function store(timestamps: Date[]): Promise<string[]> {
    const events = new EventsRepository(runtime);
    return runtime.transaction(async (manager) => {
      const first = await events.reserveSequence(manager, timestamps.length);
      const rows: StoredEvent[] = timestamps.map((t, i) => ({
        id: `evt_${randomBytes(8).toString('hex')}`, type: 'database.query', severity: 'info', database_id: 'db_lp', timestamp: t.toISOString(),
        processed_at: now.toISOString(), details: {}, context: { policy_id: null, rule_id: null, risk_score: 10 }, producer_id: null,
        seq: String(first + BigInt(i)), operation: null, correlation_id: null,
      }));
      await events.insertMany(manager, rows);
      await events.addCounts(manager, rows);
      return rows.map((r) => r.id);
    });
  }

  const partitionOf = (d: Date) => `events_p${d.toISOString().slice(0, 10).replace(/-/g, '')}`;
  const exists = async (name: string) => (await db.query<{ p: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS p`, [`event_ingest.${name}`]))[0]!.p;

  it('lets the runtime role insert and read events, and maintain partitions only through the functions', async () => {
    const late = new Date(now.getTime() - 3 * DAY);
    const [lateId] = await store([late, now]);
    // Late rows wait in the default partition until their day gets one; the runtime role moves them.
    expect((await partitions(runtime, RETENTION).maintain(now)).created).toContain(late.toISOString().slice(0, 10));
    const [row] = await db.query<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM event_ingest.events WHERE id = $1`, [lateId]);
    expect(row!.part).toBe(`event_ingest.${partitionOf(late)}`);
    expect((await runtime.query(`SELECT count(*)::int AS n FROM event_ingest.events WHERE database_id = 'db_lp'`))[0].n).toBe(2);
    const log = await db.query<{ action: string; rows_moved: string }>(`SELECT action, rows_moved::text FROM event_ingest.partition_log WHERE partition_name = $1`, [partitionOf(late)]);
    expect(log).toEqual([{ action: 'created', rows_moved: '1' }]);
  });

  it.each([
    ['UPDATE', `UPDATE event_ingest.events SET severity = 'critical'`],
    ['DELETE', `DELETE FROM event_ingest.events`],
    ['TRUNCATE', `TRUNCATE event_ingest.events`],
    ['ALTER', `ALTER TABLE event_ingest.events DISABLE TRIGGER append_only_rows`],
    ['DROP', `DROP TABLE event_ingest.events`],
    ['DELETE on a partition', `DELETE FROM event_ingest.events_default`],
    ['TRUNCATE on a partition', `TRUNCATE event_ingest.events_default`],
    ['DROP of a partition', `DROP TABLE event_ingest.events_default`],
    ['a new partition', `CREATE TABLE event_ingest.events_p20000101 PARTITION OF event_ingest.events FOR VALUES FROM ('2000-01-01') TO ('2000-01-02')`],
    ['a write to the retention floor', `UPDATE event_ingest.retention_floor SET days = 1`],
    ['the owner-only helper', `SELECT event_ingest.append_only_protect('event_ingest.events'::regclass)`],
  ])('refuses the runtime role %s for want of the privilege (not only by trigger)', async (_what, sql) => {
    await expect(runtime.query(sql)).rejects.toMatchObject({ driverError: { code: '42501', message: expect.stringMatching(/^(permission denied|must be owner)/) } });
  });

  it('refuses UPDATE, DELETE and TRUNCATE to the owner too, on the table and on partitions created later', async () => {
    await store([now]);
    await partitions(owner, RETENTION).maintain(now);
    const today = partitionOf(now);
    for (const sql of [
      `UPDATE event_ingest.events SET severity = 'critical'`,
      `DELETE FROM event_ingest.events`,
      `TRUNCATE event_ingest.events`,
      `UPDATE event_ingest.${today} SET severity = 'critical'`,
      `DELETE FROM event_ingest.${today}`,
      `TRUNCATE event_ingest.${today}`,
      `TRUNCATE event_ingest.events_default`,
    ]) {
      await expect(owner.query(sql)).rejects.toThrow(/append-only: stored rows are immutable/);
    }
    // A partition the function creates from now on carries the guards, like those before it.
    await owner.query(`SELECT event_ingest.create_event_partition('2031-05-05')`);
    const guards = await db.query<{ tgname: string }>(
      `SELECT tgname FROM pg_trigger WHERE tgrelid = 'event_ingest.events_p20310505'::regclass ORDER BY 1`,
    );
    expect(guards.map((g) => g.tgname)).toEqual(['append_only_rows', 'append_only_truncate']);
    await expect(owner.query(`TRUNCATE event_ingest.events_p20310505`)).rejects.toThrow(/append-only/);
  });

  it('drops an expired partition through the retention function and refuses a young one or a shorter retention', async () => {
    const old = new Date(now.getTime() - (RETENTION + 3) * DAY);
    const young = new Date(now.getTime() - (RETENTION - 2) * DAY);
    for (const day of [old, young]) await owner.query(`SELECT event_ingest.create_event_partition($1::date)`, [day.toISOString().slice(0, 10)]);
    const drop = (name: string, retention: number) => runtime.query(`SELECT event_ingest.drop_expired_event_partition($1, $2)`, [name, retention]);

    await expect(drop(partitionOf(young), RETENTION)).rejects.toThrow(/is not older than the retention of 5 days/);
    // A stolen runtime credential cannot shorten retention below what the owner set.
    await expect(drop(partitionOf(young), 1)).rejects.toThrow(/a retention of 1 days is below the floor of 5 days/);
    await expect(runtime.query(`SELECT event_ingest.purge_expired_default_events(1)`)).rejects.toThrow(/below the floor/);
    await expect(drop('events_default', RETENTION)).rejects.toThrow(/is not a day partition/);
    await expect(drop('events_p2020x101; DROP TABLE event_ingest.events', RETENTION)).rejects.toThrow(/is not a day partition/);
    expect(await exists(partitionOf(young))).toBe(true);

    expect((await drop(partitionOf(old), RETENTION))[0].drop_expired_event_partition).toBe(true);
    expect(await exists(partitionOf(old))).toBe(false);
    const log = await db.query<{ action: string }>(`SELECT action FROM event_ingest.partition_log WHERE partition_name = $1 ORDER BY at`, [partitionOf(old)]);
    expect(log.map((l) => l.action)).toEqual(['created', 'dropped']);
  });

  it('drops nothing while retention is off (EVENTS_RETENTION_DAYS=0), then follows the floor the owner sets again', async () => {
    await migrateService(eventIngestDatabase, roles.owner.url, { EVENTS_RETENTION_DAYS: '0' });
    await expect(runtime.query(`SELECT event_ingest.purge_expired_default_events(400)`)).rejects.toThrow(/retention is off/);
    await migrateService(eventIngestDatabase, roles.owner.url, { EVENTS_RETENTION_DAYS: String(RETENTION) });
    expect((await runtime.query(`SELECT event_ingest.purge_expired_default_events($1) AS n`, [RETENTION]))[0].n).toBe('0');
  });

  it('leaves a superuser able to change events with the triggers disabled (what the integrity log detects)', async () => {
    const [id] = await store([now]);
    await db.query(`SET session_replication_role = replica`);
    try {
      await db.query(`UPDATE event_ingest.events SET severity = 'critical' WHERE id = $1`, [id]);
    } finally {
      await db.query(`SET session_replication_role = origin`);
    }
    expect((await db.query<{ severity: string }>(`SELECT severity FROM event_ingest.events WHERE id = $1`, [id]))[0]!.severity).toBe('critical');
  });
});
