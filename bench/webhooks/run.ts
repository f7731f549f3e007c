/**
 * Webhook delivery benchmark, on this machine, traffic on 127.0.0.1 only.
 *
 * 1. Throughput: 100 form-B subscriptions to one local receiver; events ingested over HTTP fan out
 *    to 100 deliveries each. Figure: deliveries/s from the ingest call to the last delivery
 *    received, and as a ratio of a baseline measured in the same run: plain keep-alive POSTs of
 *    the same bodies to the same receiver at the same concurrency, with no database at all
 *    (node:http, as in the first runs, and undici, the client the service uses). The receiver
 *    runs on its own thread (bench/webhooks/receiver.ts).
 * 2. Latency: one subscription, events ingested at 500/s for 10 s; each event's time from the
 *    start of its ingest request to its delivery at the receiver (p50, p99, max).
 *
 * Bus: the in-process bus, or Kafka with BENCH_KAFKA=1 (the services talk over the broker on
 * KAFKA_BROKERS / TEST_KAFKA_BROKERS, default 127.0.0.1:9092, under a fresh topic prefix), as
 * deployed. The report names the mode that ran.
 *
 * Run: npm run bench:webhooks   (needs PostgreSQL on 127.0.0.1:5432, TEST_DATABASE_URL to override)
 */
import 'reflect-metadata';
import http from 'node:http';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { Agent } from 'undici';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http as call, login } from '../../apps/standalone/src/testing/http';
import { createTestDatabase, freePort, testKafka } from '../../libs/platform/testing/src';
import { percentile } from '../lib/stats';
import { startBenchReceiver } from './receiver';

const SUBSCRIPTIONS = 100;
const THROUGHPUT_EVENTS = 100;
const RATE = 500;
const SECONDS = 10;

async function baseline(url: string, body: string, count: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      await new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

/** The same baseline through an undici keep-alive pool (the client the delivery service uses). */
async function baselineUndici(url: string, body: string, count: number, concurrency: number): Promise<number> {
  const agent = new Agent({ connections: concurrency });
  const target = new URL(url);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await agent.request({ origin: target.origin, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.body.dump();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await agent.close();
  return count / ((performance.now() - started) / 1000);
}

const load = () => loadavg().map((l) => Number(l.toFixed(2)));
const KAFKA = process.env.BENCH_KAFKA === '1';
const MODE = KAFKA ? 'Kafka' : 'in-process bus';

async function main() {
  const loadAtStart = load();
  const db = await createTestDatabase();
  const receiver = await startBenchReceiver();
  const count = (key: string) => receiver.count(key);
  const env: Record<string, string> = {
    LOG_LEVEL: 'fatal',
    DATABASE_URL: db.url,
    VIGIL_DATA_DIR: `/tmp/vigil-bench-webhooks-${process.pid}`,
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: 'bench-admin-password',
    DELIVERY_ALLOW_INSECURE_TARGETS: 'true',
    OUTBOX_POLL_MS: '50',
    PORT: String(await freePort()),
    METRICS_PORT: '0',
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  if (KAFKA) {
    const kafka = testKafka();
    env.KAFKA_BROKERS = kafka.brokers.join(',');
    env.KAFKA_TOPIC_PREFIX = kafka.prefix;
  }
  process.stderr.write(`webhooks benchmark: ${MODE}\n`);
  const system = await startSystem(env);
  try {
    const base = system.gatewayUrl;
    const token = await login(base, 'admin@example.com', env.AUDIT_ADMIN_PASSWORD!);
    const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token, body });

    // 1. Throughput.
    const ids: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const created = await api('POST', '/v1/webhooks', { url: `${receiver.url}/fan/${i}`, events: ['database.query'] });
      ids.push(created.body.id);
    }
    const total = SUBSCRIPTIONS * THROUGHPUT_EVENTS;
    const startedAt = performance.now();
    const ingested = await api('POST', '/v1/events/ingest', {
      events: Array.from({ length: THROUGHPUT_EVENTS }, (_, i) => ({ type: 'database.query', database_id: 'db_bench', details: { user: 'bench', query: `SELECT ${i}` } })),
    });
    if (ingested.status !== 202) throw new Error(`ingest failed: ${ingested.status}`);
    let firstAt = 0;
    while (count('/fan/') < total) {
      if (!firstAt && count('/fan/') > 0) firstAt = performance.now();
      if (performance.now() - startedAt > 180_000) throw new Error('throughput run did not finish in 180 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const deliveriesPerSecond = total / seconds;
    const sample = receiver.sample() ?? '{}';
    const baselinePerSecond = await baseline(`${receiver.url}/baseline`, sample, total, 256);
    const baselineUndiciPerSecond = await baselineUndici(`${receiver.url}/baseline-undici`, sample, total, 256);

    if (process.env.BENCH_ONLY === 'throughput') {
      console.log(JSON.stringify({ mode: MODE, deliveries_per_second: Math.round(deliveriesPerSecond), baseline_undici: Math.round(baselineUndiciPerSecond) }));
      return;
    }
    // 2. Latency at 500 events/s, one subscription.
    for (const id of ids) await api('PATCH', `/v1/webhooks/${id}`, { active: false });
    await api('POST', '/v1/webhooks', { url: `${receiver.url}/latency`, events: ['user.login_success'] });
    const sentAt = new Map<string, number>();
    const perTick = RATE / 10;
    const ticks = SECONDS * 10;
    const tickStart = performance.now();
    const pending: Promise<void>[] = [];
    const ingestFailures: number[] = [];
    for (let t = 0; t < ticks; t++) {
      const due = tickStart + t * 100;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t0 = Date.now();
      pending.push(
        api('POST', '/v1/events/ingest', { events: Array.from({ length: perTick }, () => ({ type: 'user.login_success', database_id: 'db_bench', details: { user: 'bench' } })) }).then((r) => {
          if (r.status !== 202) {
            ingestFailures.push(r.status);
            return;
          }
          for (const id of r.body.ids as string[]) sentAt.set(id, t0);
        }),
      );
    }
    await Promise.all(pending);
    const expected = sentAt.size;
    const deadline = Date.now() + 60_000;
    while (count('/latency') < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latencies = [...receiver.latencyArrivals]
      .map(([id, receivedAt]) => receivedAt - (sentAt.get(id) ?? receivedAt))
      .sort((a, b) => a - b);
    // Where the time goes: ingest request -> delivery row committed -> attempt started (database clock, same machine).
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const rows: { event_id: string; created_ms: number; attempt_ms: number }[] = (
      await pg.query(
        `SELECT d.event_id, extract(epoch FROM d.created_at) * 1000 AS created_ms, extract(epoch FROM d.first_attempt_at) * 1000 AS attempt_ms
         FROM delivery.webhook_deliveries d JOIN delivery.webhooks w ON w.id = d.webhook_id
         WHERE w.url LIKE '%/latency' AND d.first_attempt_at IS NOT NULL`,
      )
    ).rows;
    const answers = (
      await pg.query(
        `SELECT a.latency_ms FROM delivery.webhook_attempts a JOIN delivery.webhook_deliveries d ON d.id = a.delivery_id
         JOIN delivery.webhooks w ON w.id = d.webhook_id WHERE w.url LIKE '%/latency' ORDER BY a.latency_ms`,
      )
    ).rows.map((r: { latency_ms: number }) => r.latency_ms);
    await pg.end();
    const toRow = rows.filter((r) => sentAt.has(r.event_id)).map((r) => Number(r.created_ms) - sentAt.get(r.event_id)!).sort((a, b) => a - b);
    const toAttempt = rows.map((r) => Number(r.attempt_ms) - Number(r.created_ms)).sort((a, b) => a - b);

    const report = {
      mode: MODE,
      throughput: {
        subscriptions: SUBSCRIPTIONS,
        events: THROUGHPUT_EVENTS,
        deliveries: total,
        seconds: Number(seconds.toFixed(2)),
        seconds_to_first_delivery: Number(((firstAt - startedAt) / 1000).toFixed(2)),
        deliveries_per_second: Math.round(deliveriesPerSecond),
        baseline_plain_posts_per_second: Math.round(baselinePerSecond),
        ratio_to_baseline: Number((deliveriesPerSecond / baselinePerSecond).toFixed(2)),
        baseline_undici_posts_per_second: Math.round(baselineUndiciPerSecond),
        ratio_to_undici_baseline: Number((deliveriesPerSecond / baselineUndiciPerSecond).toFixed(2)),
        target: '>= 2000 deliveries/s',
      },
      latency: {
        events_per_second: RATE,
        seconds: SECONDS,
        delivered: latencies.length,
        expected,
        ingest_requests_refused: ingestFailures.length ? ingestFailures : undefined,
        p50_ms: percentile(latencies, 50),
        p99_ms: percentile(latencies, 99),
        max_ms: latencies[latencies.length - 1],
        target: 'p99 < 500 ms',
        ingest_to_delivery_row_ms: { p50: percentile(toRow, 50), p99: percentile(toRow, 99) },
        delivery_row_to_attempt_ms: { p50: Math.round(percentile(toAttempt, 50)), p99: Math.round(percentile(toAttempt, 99)) },
        request_ms: { p50: percentile(answers, 50), p99: percentile(answers, 99) },
      },
      load_average: { at_start: loadAtStart, at_end: load() },
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await system.stop();
    await receiver.close();
    await db.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
