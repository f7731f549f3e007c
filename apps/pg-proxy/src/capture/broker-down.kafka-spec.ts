import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TopicSpecs, Topics } from '@vigil/contracts';
import { KafkaBus } from '@vigil/messaging';
import { createLogger } from '@vigil/platform';
import { createTestDatabase, freePort, type TestDatabase, testKafka, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { startTestProxy } from '../testing/test-proxy';
import { CaptureBuffer, type RecordSink } from './capture-buffer';

/**
 * The broker is unreachable while clients work through the proxy: captures pile up in memory,
 * spill to disk, survive a restart of the buffer, and all reach audit.ingest on the real broker
 * once it is reachable — none lost, none published twice (every copy on the topic is counted).
 */
const logger = createLogger('pg-proxy', 'silent');
let db: TestDatabase;
const kafka = testKafka();
const dirs: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Publishes through whichever bus is current: first one whose broker does not answer, then the real one. */
class SwitchableSink implements RecordSink {
  constructor(public current: RecordSink) {}
  publish(batches: Parameters<RecordSink['publish']>[0]) {
    return this.current.publish(batches);
  }
}

it('buffers and spills captures while the broker is down, and delivers every one after recovery and a restart', async () => {
  const spillDir = mkdtempSync(join(tmpdir(), 'pg-proxy-spill-'));
  dirs.push(spillDir);
  const down = new KafkaBus({ brokers: [`127.0.0.1:${await freePort()}`], clientId: 'down', prefix: kafka.prefix, logger });
  const sink = new SwitchableSink(down);
  const proxy = await startTestProxy({ sink, spillDir, maxRecords: 20 });

  const client = new Client({ connectionString: proxy.url(db.name), application_name: 'broker-down' });
  await client.connect();
  for (let i = 0; i < 60; i++) await client.query('SELECT $1::int AS i', [i]);
  await client.end();
  // login_success, connection, 60 queries, disconnect
  const expected = 63;
  await waitFor(() => proxy.capture.depth === expected, 5000, 'every capture buffered');
  expect(proxy.capture.spilled).toBeGreaterThan(0);
  expect(readdirSync(spillDir).some((n) => n.endsWith('.jsonl'))).toBe(true);

  // The proxy stops while the broker is still down: what memory held goes to disk too.
  await proxy.close();
  expect(readdirSync(spillDir).filter((n) => n.endsWith('.jsonl')).length).toBeGreaterThan(0);
  await down.close().catch(() => undefined);

  // A new process (same spill directory) with the broker reachable drains the segments.
  const up = new KafkaBus({ brokers: kafka.brokers, clientId: 'up', prefix: kafka.prefix, logger });
  await up.ensureTopics(TopicSpecs);
  // Every copy that reaches the topic is counted, not only distinct ids: a segment published twice
  // shows as copies > distinct.
  const received = new Map<string, number>();
  const markersSeen = new Map<string, number>();
  const reader = await up.subscribe({
    groupId: `reader-${kafka.prefix}`,
    topics: [Topics.auditIngest],
    handler: async (messages) => {
      for (const m of messages) {
        const record = JSON.parse(m.value) as { id: string; details?: { client_application?: string } };
        if (record.details?.client_application === 'broker-down') received.set(record.id, (received.get(record.id) ?? 0) + 1);
        if (record.id.startsWith('marker-')) markersSeen.set(record.id, m.partition);
      }
    },
  });
  const buffer = new CaptureBuffer({ sink: up, logger, maxRecords: 20, spillDir, maxSpillBytes: 10_000_000, publishTimeoutMs: 10_000, failMode: () => 'open' });
  try {
    expect(buffer.depth).toBe(expected);
    buffer.start();
    await waitFor(() => buffer.depth === 0, 30_000, 'the spill to drain');
    await waitFor(() => received.size === expected, 30_000, `all ${expected} records on audit.ingest`);
    expect(readdirSync(spillDir).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
    await buffer.stop();

    // Once the buffer has stopped it publishes nothing more. A marker published after that on every
    // partition is read only after everything before it on that partition, so once every marker is
    // in, any second copy the buffer sent is in too. (Fails when a drained segment is published twice:
    // checked by calling sink.publish twice in CaptureBuffer.publish — copies became 126.)
    const markers = Array.from({ length: 30 }, (_, i) => ({ key: `marker-key-${i}`, value: JSON.stringify({ id: `marker-${i}` }), headers: {} }));
    await up.publish([{ topic: Topics.auditIngest, messages: markers }]);
    await waitFor(() => markersSeen.size === markers.length, 30_000, 'the markers after the drained records');
    const partitions = TopicSpecs.find((t) => t.name === Topics.auditIngest)!.partitions;
    expect(new Set(markersSeen.values()).size).toBe(partitions);
    const copies = [...received.values()].reduce((sum, n) => sum + n, 0);
    expect({ distinct: received.size, copies }).toEqual({ distinct: expected, copies: expected });
  } finally {
    // Stopped on failure too: an open consumer keeps the test process alive.
    await buffer.stop();
    await reader.stop();
    await up.close();
  }
}, 120_000);

it('fail-closed: refuses statements once memory and spill space are full; fail-open keeps serving and counts the loss', async () => {
  for (const failMode of ['closed', 'open'] as const) {
    const spillDir = mkdtempSync(join(tmpdir(), 'pg-proxy-spill-'));
    dirs.push(spillDir);
    const down = new KafkaBus({ brokers: [`127.0.0.1:${await freePort()}`], clientId: 'down', prefix: kafka.prefix, logger });
    const proxy = await startTestProxy({ sink: down, spillDir, maxRecords: 10, maxSpillBytes: 1, failMode });
    const client = new Client({ connectionString: proxy.url(db.name) });
    await client.connect();
    const outcomes: string[] = [];
    for (let i = 0; i < 30; i++) outcomes.push(await client.query('SELECT 1').then(() => 'ok', (e: { code: string }) => e.code));
    await client.end();
    if (failMode === 'closed') {
      expect(outcomes.slice(0, 5)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(outcomes.at(-1)).toBe('53000');
      expect(proxy.capture.dropped).toBe(0);
    } else {
      expect(outcomes.every((o) => o === 'ok')).toBe(true);
      expect(proxy.capture.dropped).toBeGreaterThan(0);
    }
    await proxy.close();
    await down.close().catch(() => undefined);
  }
}, 120_000);
