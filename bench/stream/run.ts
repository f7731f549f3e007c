/**
 * Stream latency benchmark, on this machine, traffic on 127.0.0.1 only.
 *
 * The whole system (in-process bus unless BENCH_KAFKA=1) on a fresh database; 10 SSE streams open
 * with the same credential; events ingested over HTTP at BENCH_RATE/s (default 1000, in batches
 * of 50 every 50 ms) for BENCH_SECONDS (default 10). Figure: per event and stream, the time from
 * the ingest call being accepted (its 202 arriving) to the SSE message arriving, p50/p99/max.
 * Events that reach a stream before their 202 reaches the producer count as 0 ms.
 * Baseline in the same run: the ingest call's own round trip (request sent -> 202), p50/p99.
 *
 * Run: npm run bench:stream
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http, login } from '../../apps/standalone/src/testing/http';
import { createTestDatabase, freePort, testKafka } from '../../libs/platform/testing/src';
import { percentile } from '../lib/stats';

const STREAMS = 10;
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BATCH = 50;

async function main() {
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const env: Record<string, string> = {
    LOG_LEVEL: 'error', VIGIL_DATA_DIR: dataDir, DATABASE_URL: db.url, AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: 'bench-password',
    PORT: String(await freePort()), OUTBOX_POLL_MS: '50',
    METRICS_PORT: '0',
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  if (process.env.BENCH_KAFKA === '1') {
    const kafka = testKafka();
    env.KAFKA_BROKERS = kafka.brokers.join(',');
    env.KAFKA_TOPIC_PREFIX = kafka.prefix;
  }
  const system = await startSystem(env);
  const token = await login(system.gatewayUrl, 'admin@example.com', 'bench-password');

  const accepted = new Map<string, number>();
  const latencies: number[] = [];
  const early: { id: string; at: number }[] = [];
  const controllers: AbortController[] = [];
  let received = 0;
  const readers = [];
  for (let s = 0; s < STREAMS; s++) {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${system.gatewayUrl}/v1/events/stream?database_id=db_stream_bench`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    if (response.status !== 200) throw new Error(`stream ${s}: ${response.status}`);
    const reader = response.body!.getReader();
    readers.push(
      (async () => {
        let buffer = '';
        const decoder = new TextDecoder();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const frame = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const id = /^id: (\S+)$/m.exec(frame)?.[1];
              if (!id) continue;
              const now = performance.now();
              received++;
              const at = accepted.get(id);
              if (at === undefined) early.push({ id, at: now });
              else latencies.push(Math.max(0, now - at));
            }
          }
        } catch {
          /* aborted at the end */
        }
      })(),
    );
  }

  const roundTrips: number[] = [];
  const batches = Math.round((RATE * SECONDS) / BATCH);
  const interval = (BATCH / RATE) * 1000;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let inFlight = 0;
  for (let b = 0; b < batches; b++) {
    const due = started + b * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    // At most 4 ingest calls in flight: a system that cannot keep up shows a lower achieved rate
    // rather than a queue of requests that would dominate the latency.
    while (inFlight >= 4) await new Promise((r) => setTimeout(r, 1));
    inFlight++;
    pending.push(
      (async () => {
        const sent = performance.now();
        const response = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
          token,
          body: { events: Array.from({ length: BATCH }, (_, i) => ({ type: 'database.query', database_id: 'db_stream_bench', details: { query: `SELECT ${b * BATCH + i}` } })) },
        });
        const at = performance.now();
        roundTrips.push(at - sent);
        if (response.status !== 202) throw new Error(`ingest: ${response.status}`);
        for (const id of response.body.ids as string[]) accepted.set(id, at);
      })().finally(() => inFlight--),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  const expected = batches * BATCH * STREAMS;
  const deadline = Date.now() + 30_000;
  while (received < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  // Messages that beat their 202: 0 ms.
  for (const e of early) if (accepted.has(e.id)) latencies.push(Math.max(0, e.at - accepted.get(e.id)!));
  controllers.forEach((c) => c.abort());
  await Promise.allSettled(readers);
  await system.stop();
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });

  latencies.sort((a, b) => a - b);
  roundTrips.sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(7);
  process.stdout.write(
    `\nstream benchmark: ${STREAMS} streams, ${batches * BATCH} events at ${Math.round((batches * BATCH) / elapsed)}/s for ${elapsed.toFixed(1)} s (${process.env.BENCH_KAFKA === '1' ? 'Kafka' : 'in-process bus'})\n` +
      `  messages received              : ${received} of ${expected}\n` +
      `  accepted -> SSE received       : p50 ${f(percentile(latencies, 50))} ms  p99 ${f(percentile(latencies, 99))} ms  max ${f(latencies[latencies.length - 1]!)} ms\n` +
      `  baseline: ingest round trip    : p50 ${f(percentile(roundTrips, 50))} ms  p99 ${f(percentile(roundTrips, 99))} ms\n`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
