import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Topics } from '@vigil/contracts';
import { MemoryBus } from '@vigil/messaging';
import { createLogger } from '@vigil/platform';
import { CaptureBuffer, type RecordSink, serializeRecord } from './capture-buffer';

const logger = createLogger('pg-proxy', 'silent');
const dirs: string[] = [];

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The in-process bus, with the size of every publish it receives noted. */
class CountingSink implements RecordSink {
  readonly bus = new MemoryBus();
  readonly publishes: number[] = [];
  publish(batches: Parameters<RecordSink['publish']>[0]) {
    this.publishes.push(batches.reduce((n, b) => n + b.messages.length, 0));
    return this.bus.publish(batches);
  }
}

function buffer(sink: RecordSink, options: { lingerMs?: number; batchSize?: number; maxBatchBytes?: number } = {}) {
  const spillDir = mkdtempSync(join(tmpdir(), 'pg-proxy-capture-'));
  dirs.push(spillDir);
  return new CaptureBuffer({ sink, logger, maxRecords: 1000, spillDir, maxSpillBytes: 1_000_000, publishTimeoutMs: 5000, failMode: () => 'open', ...options });
}

const record = (i: number) => {
  const r = { id: `pgp_${i}`, type: 'database.query' as const, database_id: 'db_shop', timestamp: new Date(0).toISOString(), details: { query: `SELECT ${i}` } };
  return { id: r.id, type: r.type, database_id: r.database_id, json: JSON.stringify(r) };
};

describe('CaptureBuffer publishing', () => {
  it('publishes records added before its loop first waited (no record left behind until the next one)', async () => {
    const sink = new CountingSink();
    await sink.bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async () => undefined });
    const capture = buffer(sink, { lingerMs: 0 });
    capture.start();
    capture.add(record(1));
    for (let turns = 0; capture.depth > 0 && turns < 10_000; turns++) await new Promise((r) => setImmediate(r));
    expect(sink.publishes).toEqual([1]);
    await capture.stop();
  });

  it('publishes records added while it lingers as one batch, and stop delivers what is left', async () => {
    const sink = new CountingSink();
    const seen: string[] = [];
    await sink.bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async (messages) => void seen.push(...messages.map((m) => (JSON.parse(m.value) as { id: string }).id)) });
    // A long linger: the batch can only go out because stop() ends the wait.
    const capture = buffer(sink, { lingerMs: 60_000 });
    capture.start();
    for (let i = 0; i < 5; i++) capture.add(record(i));
    await capture.stop();
    expect(sink.publishes).toEqual([5]);
    expect(seen).toEqual(['pgp_0', 'pgp_1', 'pgp_2', 'pgp_3', 'pgp_4']);
    expect(capture.depth).toBe(0);
  });

  it('does not wait for the linger once a full batch is waiting', async () => {
    const sink = new CountingSink();
    await sink.bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async () => undefined });
    const capture = buffer(sink, { lingerMs: 60_000, batchSize: 3 });
    capture.start();
    for (let i = 0; i < 3; i++) capture.add(record(i));
    // Published without stop(): the full batch ended the linger.
    for (let turns = 0; capture.depth > 0 && turns < 10_000; turns++) await new Promise((r) => setImmediate(r));
    expect(sink.publishes).toEqual([3]);
    await capture.stop();
  });

  it('bounds each publish by bytes as well as by count, in order, a record over the bound going alone', async () => {
    const sink = new CountingSink();
    const seen: string[] = [];
    await sink.bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async (messages) => void seen.push(...messages.map((m) => (JSON.parse(m.value) as { id: string }).id)) });
    // Each record is about 1,000 bytes of JSON plus its key and headers: two fit in 3,000 bytes.
    const big = (i: number) => {
      const r = { id: `pgp_${i}`, type: 'database.query' as const, database_id: 'db_shop', details: { query: `SELECT '${'é'.repeat(i === 3 ? 2000 : 400)}'` } };
      return { id: r.id, type: r.type, database_id: r.database_id, json: JSON.stringify(r) };
    };
    const capture = buffer(sink, { lingerMs: 60_000, maxBatchBytes: 3000 });
    capture.start();
    for (let i = 0; i < 6; i++) capture.add(big(i));
    await capture.stop();
    // Record 3 holds 2,000 two-byte characters (4,000 bytes): over the bound, published alone.
    expect(sink.publishes).toEqual([2, 1, 1, 2]);
    expect(seen).toEqual(['pgp_0', 'pgp_1', 'pgp_2', 'pgp_3', 'pgp_4', 'pgp_5']);
  });
});

describe('CaptureBuffer batch bounds', () => {
  it('takes every record whose JSON fits the byte bound, whether or not it fits at 3 bytes per character', async () => {
    // About 1,000 ASCII characters each: 5 fit 6,000 bytes exactly measured, 1 at 3 bytes per character.
    const sized = (i: number) => {
      const r = { id: `pgp_${i}`, type: 'database.query' as const, database_id: 'db_shop', details: { query: `SELECT '${'x'.repeat(880)}'` } };
      return { id: r.id, type: r.type, database_id: r.database_id, json: JSON.stringify(r) };
    };
    for (const [maxBatchBytes, publishes] of [
      [100_000, [10]],
      [6_000, [5, 5]],
    ] as const) {
      const sink = new CountingSink();
      await sink.bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async () => undefined });
      const capture = buffer(sink, { lingerMs: 60_000, maxBatchBytes });
      capture.start();
      for (let i = 0; i < 10; i++) capture.add(sized(i));
      await capture.stop();
      expect(sink.publishes).toEqual(publishes);
    }
  });
});

describe('CaptureBuffer spill space', () => {
  /** A broker that never answers, until `up`. */
  class DownSink implements RecordSink {
    readonly bus = new MemoryBus();
    up = false;
    publish(batches: Parameters<RecordSink['publish']>[0]) {
      return this.up ? this.bus.publish(batches) : Promise.reject(new Error('broker unreachable'));
    }
  }

  // Before: the failed write threw out of add() (so out of the session that made the record) and
  // the fail mode never applied; a disk full before PROXY_SPILL_MAX_BYTES is the same failure.
  it('a spill write that fails (disk full, folder gone) keeps the records in memory and applies the fail mode; they are published once it clears', async () => {
    for (const failMode of ['closed', 'open'] as const) {
      const sink = new DownSink();
      const seen: string[] = [];
      await sink.bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async (messages) => void seen.push(...messages.map((m) => (JSON.parse(m.value) as { id: string }).id)) });
      const spillDir = mkdtempSync(join(tmpdir(), 'pg-proxy-capture-'));
      dirs.push(spillDir);
      const capture = new CaptureBuffer({ sink, logger, maxRecords: 10, spillDir, maxSpillBytes: 1_000_000, publishTimeoutMs: 5000, failMode: () => failMode, lingerMs: 0 });
      // Writes into the spill folder fail from now on: it is a file.
      rmSync(spillDir, { recursive: true });
      writeFileSync(spillDir, '');
      for (let i = 0; i < 11; i++) expect(() => capture.add(record(i))).not.toThrow();
      expect(capture.spillFailures).toBe(1);
      expect(capture.spilled).toBe(0);
      expect(capture.depth).toBe(11);
      expect(capture.admits('db_shop')).toBe(failMode === 'open');
      capture.add(record(11));
      // Fail-closed keeps a record of a statement already admitted; fail-open drops and counts it.
      expect({ depth: capture.depth, dropped: capture.dropped }).toEqual(failMode === 'closed' ? { depth: 12, dropped: 0 } : { depth: 11, dropped: 1 });

      rmSync(spillDir);
      mkdirSync(spillDir);
      sink.up = true;
      capture.start();
      await capture.stop();
      const kept = failMode === 'closed' ? 12 : 11;
      expect(seen).toEqual(Array.from({ length: kept }, (_, i) => `pgp_${i}`));
      expect(readdirSync(spillDir)).toEqual([]);
    }
  });
});

describe('CaptureBuffer spilling while it publishes', () => {
  // Before: a spill during a publish took the oldest records, those of the batch in flight, and the
  // publisher then removed as many records from the front of memory as the batch held: records
  // added meanwhile were lost (3 of 502 statements in the broker fault suite) and the spilled ones
  // published twice. This test then saw pgp_0..pgp_9 and pgp_0..pgp_4 again, pgp_10..pgp_12 never.
  it('keeps records added during a publish and publishes every record once, in order', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    await bus.subscribe({ groupId: 'test', topics: [Topics.auditIngest], handler: async (messages) => void seen.push(...messages.map((m) => (JSON.parse(m.value) as { id: string }).id)) });
    let release: (() => void) | undefined;
    const held: RecordSink = {
      publish: async (batches) => {
        if (!release) await new Promise<void>((resolve) => (release = resolve));
        return bus.publish(batches);
      },
    };
    const spillDir = mkdtempSync(join(tmpdir(), 'pg-proxy-capture-'));
    dirs.push(spillDir);
    const capture = new CaptureBuffer({ sink: held, logger, maxRecords: 10, spillDir, maxSpillBytes: 1_000_000, publishTimeoutMs: 60_000, failMode: () => 'open', lingerMs: 0 });
    for (let i = 0; i < 10; i++) capture.add(record(i));
    capture.start();
    for (let turns = 0; !release && turns < 10_000; turns++) await new Promise((r) => setImmediate(r));
    expect(release).toBeDefined();
    // The first ten are in flight; three more arrive and memory passes its bound.
    for (let i = 10; i < 13; i++) capture.add(record(i));
    expect(capture.spilled).toBeGreaterThan(0);
    release!();
    await capture.stop();
    expect(seen).toEqual(Array.from({ length: 13 }, (_, i) => `pgp_${i}`));
    expect(capture.depth).toBe(0);
  });
});

describe('serializeRecord', () => {
  const head = { id: 'pgp_1', type: 'database.query', database_id: 'db_"odd"\\name', timestamp: '2026-11-21T10:00:00.000Z' };
  const shared = { user: 'ana "x"', source_ip: '10.0.0.1', tls: false, port: 5432 };
  const spread = (details: Record<string, unknown>, severity?: string) => ({ ...head, ...(severity ? { severity } : {}), details: { ...shared, ...details } });

  it('writes what JSON.stringify of the spread record would, key for key', () => {
    const details = { query: "SELECT '\\n\t\u2028' -- \"quoted\"", rows_affected: 3, objects: ['t'], error: { code: '42P01', message: 'x' } };
    const text = serializeRecord(head, JSON.stringify(shared), details);
    expect(text).toBe(JSON.stringify(spread(details)));
    expect(JSON.parse(serializeRecord({ ...head, severity: 'warning' }, JSON.stringify(shared), details))).toEqual(spread(details, 'warning'));
  });

  it('handles empty details on either side, and lets the record override a shared field', () => {
    expect(JSON.parse(serializeRecord(head, JSON.stringify(shared), {}))).toEqual(spread({}));
    expect(JSON.parse(serializeRecord(head, '{}', { query: 'SELECT 1' }))).toEqual({ ...head, details: { query: 'SELECT 1' } });
    expect(JSON.parse(serializeRecord(head, '{}', {}))).toEqual({ ...head, details: {} });
    expect(JSON.parse(serializeRecord(head, JSON.stringify(shared), { user: 'override' })).details.user).toBe('override');
  });
});
