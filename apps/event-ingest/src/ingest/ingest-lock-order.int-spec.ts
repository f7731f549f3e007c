import { type AuditRecord, MessageHeaders, Topics } from '@vigil/contracts';
import { type ConsumedMessage, type InboxConsumerOptions, type IncomingMessage, type MessagingRuntime, OutboxWriter } from '@vigil/messaging';
import { createLogger, Registry } from '@vigil/platform';
import { PolicyEngine } from '@vigil/policy-engine';
import { waitFor } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { DatabaseMonitor } from '../databases/database-monitor.service';
import { DatabasesRepository } from '../databases/databases.repository';
import { EnforcementService } from '../enforcement/enforcement.service';
import type { PolicyCache } from '../enforcement/policy-cache';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { CommittedEvents } from '../events/committed-events';
import { EventsRepository } from '../events/events.repository';
import { CommittedLeaves } from '../integrity/committed-leaves';
import { type EventIngestTestDatabase, openEventIngestDatabase } from '../testing/event-ingest-database';
import { AuditIngestConsumer } from './audit-ingest.consumer';
import { IngestService } from './ingest.service';

/**
 * Lock order of the write path on the real PostgreSQL. Every ingest transaction locks the
 * registry rows of its databases (sorted), then the event sequence row: two transactions that take
 * them in that order wait for each other, never deadlock. An audit.ingest batch holding records of
 * two producers (pg-proxy's and another's, as after a broker outage, when both flush their
 * backlog) stored each producer's run as its own step: the second run's registry rows were then
 * locked while the transaction already held the sequence, and an HTTP ingest holding one of those
 * rows and waiting for the sequence deadlocked with it. PostgreSQL aborted one of the two, and when
 * that was the HTTP ingest it answered 500 (seen once in the fault suite's "broker unreachable for
 * 30 s, pg-proxy spill full", docs/operations.md#faults).
 *
 * Without the fix (one store per producer run in audit-ingest.consumer.ts) this test fails with
 * `deadlock detected` (40P01) from one of the two transactions.
 */
describe('ingest lock order (real PostgreSQL)', () => {
  let opened: EventIngestTestDatabase;
  let dataSource: DataSource;
  let ingest: IngestService;
  let handle: InboxConsumerOptions<AuditRecord>['handle'];
  let monitor: DatabaseMonitor;

  beforeAll(async () => {
    opened = await openEventIngestDatabase('ingest-lock-order');
    dataSource = opened.dataSource;
    const logger = createLogger('test', 'error');
    const outbox = new OutboxWriter('event_ingest');
    // The policies as loaded (none enabled): an empty engine, ready.
    const cache = { engine: new PolicyEngine(), isLoaded: true, whenReady: async () => true, reportRefused: () => undefined } as unknown as PolicyCache;
    const config = { INGEST_BATCH_SIZE: 1000, EVENTS_RELAY_BATCH: 100, INTEGRITY_LOG: true, DATABASE_SILENCE_SECONDS: 300, DATABASE_MONITOR_INTERVAL_MS: 60_000 } as EventIngestConfig;
    const consumers: InboxConsumerOptions<unknown>[] = [];
    const messaging = { addConsumer: (options: InboxConsumerOptions<unknown>) => consumers.push(options) } as unknown as MessagingRuntime;
    monitor = new DatabaseMonitor(dataSource, new DatabasesRepository(), outbox, messaging, config, logger);
    ingest = new IngestService(
      dataSource,
      new EventsRepository(dataSource),
      new EnforcementService(cache, outbox, new Registry()),
      monitor,
      new CommittedEvents(config),
      new CommittedLeaves(),
      config,
    );
    new AuditIngestConsumer(messaging, ingest, config).onModuleInit();
    handle = consumers.find((c) => c.name === 'event-ingest.audit-ingest')!.handle as typeof handle;
  }, 120_000);

  afterAll(async () => {
    await opened?.close();
  });

  const record = (id: string, database: string): AuditRecord => ({ id, type: 'database.query', database_id: database, details: { query: `SELECT '${id}'` } });
  let offset = 0;
  const consumed = (value: AuditRecord, producer?: string): ConsumedMessage<AuditRecord> => {
    const message: IncomingMessage = {
      topic: Topics.auditIngest,
      partition: 0,
      offset: String(offset++),
      key: value.database_id,
      value: JSON.stringify(value),
      headers: producer ? { [MessageHeaders.producer]: producer } : {},
    };
    return { messageId: `${message.topic}:0:${message.offset}`, value, message };
  };

  it('an audit.ingest batch of two producers and an HTTP ingest sharing a database both commit, neither deadlocks', async () => {
    // Both databases registered (rows to lock), as in a running installation.
    await ingest.ingest([record('seed-a', 'db_lock_a'), record('seed-b', 'db_lock_b')], null);
    const user = { kind: 'user', id: 'usr_lock' } as const;

    // The HTTP ingest of db_lock_b holds that database's row when the batch comes to it (the lock
    // taken here first stands for the moment the race needs; the store then takes its locks as always).
    let httpHoldsRow!: () => void;
    const rowHeld = new Promise<void>((resolve) => (httpHoldsRow = resolve));
    let batchWaiting!: () => void;
    const waiting = new Promise<void>((resolve) => (batchWaiting = resolve));
    const http = dataSource.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM event_ingest.databases WHERE id = 'db_lock_b' FOR UPDATE`);
      httpHoldsRow();
      await waiting;
      return ingest.store(manager, [record('http-1', 'db_lock_b')], user);
    });
    await rowHeld;

    // pg-proxy's record of db_lock_a, then another producer's record of db_lock_b: one batch.
    const batch = dataSource.transaction((manager) => handle(manager, [consumed(record('proxy-1', 'db_lock_a'), 'pg-proxy@host'), consumed(record('kafka-1', 'db_lock_b'))]));
    // The batch waits for the row the HTTP ingest holds; then the HTTP ingest goes on.
    await someoneWaitsForALock(dataSource, 'the batch waiting for a lock');
    batchWaiting();

    const outcomes = await Promise.allSettled([http, batch]);
    expect(rejections(outcomes)).toEqual([]);
    const stored = await dataSource.query(`SELECT producer_id, ingested_by FROM event_ingest.events WHERE producer_id IN ('http-1', 'proxy-1', 'kafka-1') ORDER BY producer_id`);
    expect(stored).toEqual([
      { producer_id: 'http-1', ingested_by: user },
      { producer_id: 'kafka-1', ingested_by: { kind: 'producer', id: `kafka:${Topics.auditIngest}` } },
      { producer_id: 'proxy-1', ingested_by: { kind: 'proxy', id: 'pg-proxy@host' } },
    ]);
  }, 60_000);

  it("the silence sweep and an ingest of two silent databases both commit: the sweep locks registry rows in the ingest's order", async () => {
    // Two connected databases, db_sweep_z registered (and last updated) before db_sweep_a: a scan
    // of the table meets z first, the ingest's sorted order takes a first.
    await ingest.ingest([record('sweep-seed-z', 'db_sweep_z')], null);
    await ingest.ingest([record('sweep-seed-a', 'db_sweep_a')], null);
    await dataSource.query(`UPDATE event_ingest.databases SET last_event_at = now() - interval '1 hour' WHERE id = 'db_sweep_z'`);
    await dataSource.query(`UPDATE event_ingest.databases SET last_event_at = now() - interval '1 hour' WHERE id = 'db_sweep_a'`);

    // The ingest holds db_sweep_a (its first row) when the sweep comes to it.
    let holdsFirstRow!: () => void;
    const held = new Promise<void>((resolve) => (holdsFirstRow = resolve));
    let sweepWaiting!: () => void;
    const waiting = new Promise<void>((resolve) => (sweepWaiting = resolve));
    const http = dataSource.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM event_ingest.databases WHERE id = 'db_sweep_a' FOR UPDATE`);
      holdsFirstRow();
      await waiting;
      return ingest.store(manager, [record('sweep-1', 'db_sweep_a'), record('sweep-2', 'db_sweep_z')], { kind: 'user', id: 'usr_lock' });
    });
    await held;
    const sweep = monitor.sweep(new Date());
    await someoneWaitsForALock(dataSource, 'the sweep waiting for a lock');
    sweepWaiting();

    const outcomes = await Promise.allSettled([http, sweep]);
    expect(rejections(outcomes)).toEqual([]);
    // The ingest committed first: both databases have fresh events, so the sweep left them connected.
    const rows = await dataSource.query(`SELECT id, connection_status FROM event_ingest.databases WHERE id IN ('db_sweep_a', 'db_sweep_z') ORDER BY id`);
    expect(rows).toEqual([
      { id: 'db_sweep_a', connection_status: 'connected' },
      { id: 'db_sweep_z', connection_status: 'connected' },
    ]);
  }, 60_000);
});

/** Waits until a session of this database waits for a lock (the staged race has begun). */
async function someoneWaitsForALock(dataSource: DataSource, what: string): Promise<void> {
  await waitFor(
    async () => (await dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length > 0,
    20_000,
    what,
  );
}

/** The messages of the transactions that failed (a deadlock aborts one of them). */
function rejections(outcomes: PromiseSettledResult<unknown>[]): string[] {
  return outcomes.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).message)] : []));
}
