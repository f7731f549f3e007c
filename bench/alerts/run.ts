/**
 * Alert delivery benchmark, on this machine, traffic on 127.0.0.1 only.
 *
 * Rate limits lifted (ALERT_RATE_WINDOW_MS=1: a destination's budget of up to 100 requests is
 * counted per millisecond), one destination with a custom Handlebars template and HMAC signing,
 * pointing at a local receiver.
 *
 * 1. Queue to receiver: N alert deliveries written to the queue at once (as the alerts consumer
 *    writes them); figure: rendered-and-delivered alerts/s from the commit to the last request at
 *    the receiver (claim under lease, render + parse, sign, send, record the attempt), and its ratio
 *    to a baseline measured in the same run: the same number of plain keep-alive POSTs of an
 *    already rendered body to the same receiver at the same concurrency, with no database.
 * 2. End to end: M security.anomaly events ingested over HTTP, each raising an alert delivered to
 *    the destination; figure: alerts/s from the ingest call to the last delivery.
 *
 * Bus: the in-process bus, or Kafka with BENCH_KAFKA=1 (the services talk over the broker on
 * KAFKA_BROKERS / TEST_KAFKA_BROKERS, default 127.0.0.1:9092, under a fresh topic prefix), as
 * deployed. The report names the mode that ran.
 *
 * Run: npm run bench:alerts   (needs PostgreSQL on 127.0.0.1:5432, TEST_DATABASE_URL to override)
 */
import 'reflect-metadata';
import http from 'node:http';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http as call, login } from '../../apps/standalone/src/testing/http';
import { sampleAlert } from '../../apps/delivery/src/alert-destinations/alert-payload';
import { createTestDatabase, freePort, startWebhookReceiver, testKafka } from '../../libs/platform/testing/src';
import { formatLoadAverage } from '../lib/stats';

const QUEUED = Number(process.env.BENCH_ALERTS ?? 5000);
const END_TO_END = Number(process.env.BENCH_E2E_ALERTS ?? 1000);
const CONCURRENCY = 64;
const KAFKA = process.env.BENCH_KAFKA === '1';
const MODE = KAFKA ? 'Kafka' : 'in-process bus';

const TEMPLATE = `{
  "text": "[{{severity}}] {{title}}",
  "priority": "{{#if (eq severity "critical")}}P1{{else if (eq severity "high")}}P2{{else}}P3{{/if}}",
  "database": "{{source.database}}",
  "user": "{{actor.user}}",
  "client_ip": "{{actor.client_ip}}",
  "policy": "{{policy.name}}",
  "rows": {{json event.rows_affected}},
  "link": "{{links.dashboard}}",
  "at": "{{timestamp}}"
}`;

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

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function main() {
  const db = await createTestDatabase();
  let lastAt = 0;
  let received = 0;
  const receiver = await startWebhookReceiver({
    onRequest: () => {
      received++;
      lastAt = performance.now();
    },
  });
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    VIGIL_DATA_DIR: `/tmp/vigil-bench-alerts-${process.pid}`,
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: 'bench-admin-password',
    DELIVERY_ALLOW_INSECURE_TARGETS: 'true',
    ALERT_RATE_WINDOW_MS: '1',
    ALERT_DESTINATION_CONCURRENCY: String(CONCURRENCY),
    ALERT_MAX_IN_FLIGHT: String(CONCURRENCY * 2),
    ALERT_POLL_MS: '20',
    ALERT_DEDUP_WINDOW_MS: '0',
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
  const loadAtStart = loadavg();
  const system = await startSystem(env);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  try {
    const token = await login(system.gatewayUrl, 'admin@example.com', 'bench-admin-password');
    const created = await call(system.gatewayUrl, 'POST', '/v1/alert-destinations', {
      token,
      body: { name: 'bench', url: `${receiver.url}/alerts`, payload_format: 'custom', payload_template: TEMPLATE, auth_type: 'hmac', hmac_secret: 'bench-secret', rate_limit: 100, database_filter: ['db_bench'] },
    });
    if (created.status !== 201) throw new Error(`destination not created: ${JSON.stringify(created.body)}`);
    const destinationId = created.body.id as string;

    // Warm-up (connections, JIT, template compile).
    received = 0;
    await insertQueued(pg, destinationId, 200, 'warm');
    await until(() => received >= 200, 60_000, 'warm-up');

    // 1. Queue to receiver.
    received = 0;
    const started = performance.now();
    await insertQueued(pg, destinationId, QUEUED, 'q');
    await until(() => received >= QUEUED, 180_000, 'queued deliveries');
    const queuedRate = QUEUED / ((lastAt - started) / 1000);
    const body = receiver.requests.at(-1)!.body;
    const plainRate = await baseline(`${receiver.url}/baseline`, body, QUEUED, CONCURRENCY);

    // 2. End to end from ingest.
    received = 0;
    const e2eStartedWall = Date.now();
    const e2eStarted = performance.now();
    for (let i = 0; i < END_TO_END; i += 500) {
      const events = Array.from({ length: Math.min(500, END_TO_END - i) }, (_, j) => ({ type: 'security.anomaly', database_id: 'db_bench', details: { user: `user-${i + j}`, source_ip: '198.51.100.7' } }));
      const response = await call(system.gatewayUrl, 'POST', '/v1/events/ingest', { token, body: { events } });
      if (response.status !== 202) throw new Error(`ingest failed: ${response.status}`);
    }
    const ingestedAt = performance.now();
    await until(() => received >= END_TO_END, 180_000, 'end-to-end alerts');
    const e2eRate = END_TO_END / ((lastAt - e2eStarted) / 1000);
    // Where the time goes (database clock, same machine): the last alert row raised, the last delivery row queued.
    const [stages] = (
      await pg.query(
        `SELECT extract(epoch FROM max(a.created_at)) * 1000 AS alerts_ms, extract(epoch FROM max(d.created_at)) * 1000 AS queued_ms
         FROM delivery.alerts a JOIN delivery.alert_deliveries d ON d.alert_id = a.id WHERE a.type = 'anomaly_detection'`,
      )
    ).rows;

    await new Promise((r) => setTimeout(r, 1000));
    const states = (await pg.query(`SELECT status, left(last_error, 80) AS error, count(*)::int AS n FROM delivery.alert_deliveries GROUP BY 1, 2 ORDER BY 3 DESC`)).rows;
    console.log(`alerts benchmark, ${MODE} (load average at start ${formatLoadAverage(loadAtStart)}, at end ${formatLoadAverage()})`);
    console.log(`  queue to receiver: ${QUEUED} alerts rendered with a custom template, HMAC-signed and delivered: ${queuedRate.toFixed(0)} alerts/s`);
    console.log(`  baseline (plain keep-alive POSTs of a rendered body, no database, same concurrency ${CONCURRENCY}): ${plainRate.toFixed(0)} req/s; ratio ${(queuedRate / plainRate).toFixed(2)}`);
    console.log(`  end to end (ingest -> alert -> delivered): ${END_TO_END} alerts at ${e2eRate.toFixed(0)} alerts/s`);
    console.log(
      `    stages from the first ingest call: all ingested ${((ingestedAt - e2eStarted) / 1000).toFixed(2)} s, last alert raised ${((Number(stages.alerts_ms) - e2eStartedWall) / 1000).toFixed(2)} s, ` +
        `last delivery queued ${((Number(stages.queued_ms) - e2eStartedWall) / 1000).toFixed(2)} s, last delivered ${((lastAt - e2eStarted) / 1000).toFixed(2)} s`,
    );
    console.log(`  delivery states after the runs: ${states.map((r) => `${r.status}${r.error ? ` (${r.error})` : ''}: ${r.n}`).join('; ')}`);
  } finally {
    await pg.end();
    await system.stop();
    await receiver.close();
    await db.drop();
  }
}

async function insertQueued(pg: Client, destinationId: string, count: number, tag: string): Promise<void> {
  const ids: string[] = [];
  const alerts: string[] = [];
  for (let i = 0; i < count; i++) {
    const alert = sampleAlert(`alt_bench_${tag}_${i}`);
    alert.test = false;
    alert.actor.user = `user "${i}" \\ <${tag}>`;
    ids.push(`ald_bench_${tag}_${i}`);
    alerts.push(JSON.stringify(alert));
  }
  await pg.query('BEGIN');
  await pg.query(
    `INSERT INTO delivery.alert_deliveries (id, destination_id, alert_id, severity, alert, status, due_at)
     SELECT id, $1, alert->>'id', alert->>'severity', alert, 'pending', now() FROM unnest($2::text[], $3::jsonb[]) AS n (id, alert)`,
    [destinationId, ids, alerts],
  );
  await pg.query(`SELECT pg_notify('vigil_alert_deliveries', '')`);
  await pg.query('COMMIT');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
