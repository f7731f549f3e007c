/**
 * Webhook delivery benchmark (issue 6), on this machine, traffic on 127.0.0.1 only.
 *
 * 1. Throughput: 100 form-B subscriptions to one local receiver; events ingested over HTTP fan out
 *    to 100 deliveries each. Figure: deliveries/s from the ingest call to the last delivery
 *    received, and as a ratio of a baseline measured in the same run: plain keep-alive POSTs of
 *    the same bodies to the same receiver at the same concurrency, with no database at all.
 * 2. Latency: one subscription, events ingested at 500/s for 10 s; each event's time from the
 *    start of its ingest request to its delivery at the receiver (p50, p99, max).
 *
 * Run: npm run bench:webhooks   (needs PostgreSQL on 127.0.0.1:5432, TEST_DATABASE_URL to override)
 */
import 'reflect-metadata';
import http from 'node:http';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http as call, login } from '../../apps/standalone/src/testing/http';
import { createTestDatabase, freePort, startWebhookReceiver } from '../../libs/platform/testing/src';

const SUBSCRIPTIONS = 100;
const THROUGHPUT_EVENTS = 100;
const RATE = 500;
const SECONDS = 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

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

async function main() {
  const db = await createTestDatabase();
  const receiver = await startWebhookReceiver();
  const env: Record<string, string> = {
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    VIGIL_DATA_DIR: `/tmp/vigil-bench-webhooks-${process.pid}`,
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: 'bench-admin-password',
    DELIVERY_ALLOW_INSECURE_TARGETS: 'true',
    OUTBOX_POLL_MS: '50',
    PORT: String(await freePort()),
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
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
    while (receiver.requests.filter((r) => r.path.startsWith('/fan/')).length < total) {
      if (performance.now() - startedAt > 180_000) throw new Error('throughput run did not finish in 180 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const deliveriesPerSecond = total / seconds;
    const sample = receiver.requests.find((r) => r.path.startsWith('/fan/'))!.body;
    const baselinePerSecond = await baseline(`${receiver.url}/baseline`, sample, total, 256);

    // 2. Latency at 500 events/s, one subscription.
    for (const id of ids) await api('PATCH', `/v1/webhooks/${id}`, { active: false });
    await api('POST', '/v1/webhooks', { url: `${receiver.url}/latency`, events: ['user.login_success'] });
    const sentAt = new Map<string, number>();
    const perTick = RATE / 10;
    const ticks = SECONDS * 10;
    const tickStart = performance.now();
    const pending: Promise<void>[] = [];
    for (let t = 0; t < ticks; t++) {
      const due = tickStart + t * 100;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t0 = Date.now();
      pending.push(
        api('POST', '/v1/events/ingest', { events: Array.from({ length: perTick }, () => ({ type: 'user.login_success', database_id: 'db_bench', details: { user: 'bench' } })) }).then((r) => {
          for (const id of r.body.ids as string[]) sentAt.set(id, t0);
        }),
      );
    }
    await Promise.all(pending);
    const expected = RATE * SECONDS;
    const deadline = Date.now() + 60_000;
    while (receiver.on('/latency').length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const latencies = receiver
      .on('/latency')
      .map((r) => r.receivedAt - (sentAt.get(JSON.parse(r.body).id) ?? r.receivedAt))
      .sort((a, b) => a - b);

    const report = {
      throughput: {
        subscriptions: SUBSCRIPTIONS,
        events: THROUGHPUT_EVENTS,
        deliveries: total,
        seconds: Number(seconds.toFixed(2)),
        deliveries_per_second: Math.round(deliveriesPerSecond),
        baseline_plain_posts_per_second: Math.round(baselinePerSecond),
        ratio_to_baseline: Number((deliveriesPerSecond / baselinePerSecond).toFixed(2)),
        target: '>= 2000 deliveries/s',
      },
      latency: {
        events_per_second: RATE,
        seconds: SECONDS,
        delivered: latencies.length,
        expected,
        p50_ms: percentile(latencies, 50),
        p99_ms: percentile(latencies, 99),
        max_ms: latencies[latencies.length - 1],
        target: 'p99 < 500 ms',
      },
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
