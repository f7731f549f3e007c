/**
 * Events query benchmark, on this machine, traffic on 127.0.0.1 only.
 *
 * Loads BENCH_ROWS events (default 1,000,000; the target figure is for 10,000,000, set
 * BENCH_ROWS=10000000 with time to spare) spread over BENCH_DAYS days (default 10) into daily
 * partitions, 50 databases, 1000 users, the 12 catalog types; then runs the whole system on that
 * database and measures through HTTP (gateway -> RPC -> PostgreSQL):
 *   - GET /v1/events?database_id=..&start_date=<1 h ago>      (one database, last hour)
 *   - GET /v1/events?user=..                                  (one user)
 *   - GET /v1/events?type=security.*&severity=critical        (type wildcard + severity)
 *   - POST /v1/events/aggregate {count, last 24h, group_by database_name}
 * Baseline in the same run: GET /health/live on the gateway (the HTTP floor).
 *
 * BENCH_KEEP=1 keeps the loaded database, and its data folder (/tmp/vigil-bench-<database>, whose
 * key opens the signing keys stored in it), and prints its URL; BENCH_DATABASE_URL=<it> measures it
 * again without loading (pass the same BENCH_ROWS for the label), and keeps it and its folder too.
 * bench/reports keeps its database and data folder with the same BENCH_KEEP=1.
 *
 * Run: npm run bench:events-query
 */
import 'reflect-metadata';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http, login } from '../../apps/standalone/src/testing/http';
import { eventIngestMigrations } from '../../apps/event-ingest/src/database/migrations';
import { createServiceDataSource, runMigrations } from '../../libs/platform/database/src';
import { createTestDatabase, freePort } from '../../libs/platform/testing/src';
import { benchDataDir, benchKeep, benchReuseUrl } from '../lib/keep';
import { percentile } from '../lib/stats';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const DAY = 86_400_000;

async function main() {
  // BENCH_DATABASE_URL: measure an already loaded database (one kept by BENCH_KEEP=1) instead of loading.
  const reuse = benchReuseUrl();
  const db = reuse ? { url: reuse, drop: async () => undefined } : await createTestDatabase();
  if (reuse) return measure(db);
  const dataSource = createServiceDataSource({ url: db.url, schema: 'event_ingest', migrations: eventIngestMigrations, poolSize: 2, applicationName: 'bench' });
  await dataSource.initialize();
  await runMigrations(dataSource, 'event_ingest');
  const now = Date.now();
  // Daily partitions for the whole range, as EventPartitions keeps them.
  for (let d = -DAYS; d <= 1; d++) {
    const from = new Date(Math.floor((now + d * DAY) / DAY) * DAY);
    // Through the owner's function, as EventPartitions does: the partition gets its guards.
    await dataSource.query(`SELECT event_ingest.create_event_partition($1::date)`, [from.toISOString().slice(0, 10)]);
  }
  process.stdout.write(`loading ${ROWS.toLocaleString('en-US')} events over ${DAYS} days ...\n`);
  const loadStart = performance.now();
  const chunk = 25_000; // each statement stays well under the 30 s statement timeout
  for (let start = 1; start <= ROWS; start += chunk) {
    const end = Math.min(ROWS, start + chunk - 1);
    await dataSource.query(
      `INSERT INTO event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, source_ip, session_id,
         risk_score, details, operation)
       SELECT g, 'evt_' || lpad(g::text, 26, '0'), t.type, CASE WHEN g % 97 = 0 THEN 'critical' ELSE t.severity END, 'db_' || (g % 50),
         to_timestamp(($1::bigint - (g::bigint * $2::bigint / $3::bigint)) / 1000.0), now(), 'user_' || (g % 1000), '10.0.' || (g % 200) || '.' || (g % 250),
         'sess_' || (g % 20000), 10,
         jsonb_build_object('user', 'user_' || (g % 1000), 'source_ip', '10.0.' || (g % 200) || '.' || (g % 250), 'query', 'SELECT * FROM t WHERE id = ' || g),
         'SELECT'
       FROM generate_series($4::bigint, $5::bigint) g
       JOIN (VALUES (0, 'database.query', 'info'), (1, 'database.connection', 'info'), (2, 'database.disconnect', 'info'),
                    (3, 'security.threat_detected', 'critical'), (4, 'security.anomaly', 'warning'), (5, 'security.privilege_escalation', 'critical'),
                    (6, 'policy.violation', 'warning'), (7, 'policy.match', 'info'), (8, 'data.sensitive_access', 'warning'),
                    (9, 'data.export', 'warning'), (10, 'user.login_failed', 'warning'), (11, 'user.login_success', 'info'))
         AS t(k, type, severity) ON t.k = (CASE WHEN g % 10 < 6 THEN 0 ELSE g % 12 END)`,
      [now, DAYS * DAY, ROWS, start, end],
    );
  }
  await dataSource.query(`UPDATE event_ingest.event_sequence SET last_seq = $1`, [ROWS]);
  await dataSource.query(`UPDATE event_ingest.event_relay SET published_seq = $1`, [ROWS]);
  // Loaded beside ingest, so the hourly counts ingest keeps are filled here, as the migration does.
  for (let d = -DAYS; d <= 1; d++) {
    const from = new Date(Math.floor((now + d * DAY) / DAY) * DAY);
    await dataSource.query(
      `INSERT INTO event_ingest.event_counts (hour, database_id, type, severity, events)
       SELECT date_trunc('hour', "timestamp", 'UTC'), database_id, type, severity, count(*) FROM event_ingest.events
       WHERE "timestamp" >= $1 AND "timestamp" < $2 GROUP BY 1, 2, 3, 4`,
      [from.toISOString(), new Date(from.getTime() + DAY).toISOString()],
    );
  }
  // Steady state: autovacuum has long processed past days (visibility map set, so counts can
  // answer from the indexes). One partition per statement, within the statement timeout.
  for (const { name } of (await dataSource.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'event_ingest.events'::regclass`,
  )) as { name: string }[]) {
    await dataSource.query(`VACUUM (ANALYZE) event_ingest."${name}"`);
  }
  await dataSource.query(`ANALYZE event_ingest.events`);
  const loadSeconds = (performance.now() - loadStart) / 1000;
  await dataSource.destroy();
  if (benchKeep()) process.stdout.write(`kept for BENCH_DATABASE_URL: ${db.url}\n`);
  process.stdout.write(`loaded in ${loadSeconds.toFixed(0)} s (${Math.round(ROWS / loadSeconds).toLocaleString('en-US')} rows/s, server-side INSERT ... SELECT)\n`);

  await measure(db);
}

async function measure(db: { url: string; drop(): Promise<void> }) {
  // A kept database keeps its data folder too (its secrets key opens the signing keys stored in it).
  const keep = benchKeep();
  const dataDir = benchDataDir(db.url, keep);
  const env: Record<string, string> = {
    LOG_LEVEL: 'error', VIGIL_DATA_DIR: dataDir.dir, DATABASE_URL: db.url, AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: 'bench-password',
    PORT: String(await freePort()),
    METRICS_PORT: '0',
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  const system = await startSystem(env);
  const token = await login(system.gatewayUrl, 'admin@example.com', 'bench-password');
  const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

  const scenarios: [string, (i: number) => Promise<{ status: number }>][] = [
    ['baseline: GET /health/live', () => http(system.gatewayUrl, 'GET', '/health/live')],
    ['one database + last hour', (i) => http(system.gatewayUrl, 'GET', `/v1/events?database_id=db_${i % 50}&start_date=${hourAgo()}`, { token })],
    ['one user', (i) => http(system.gatewayUrl, 'GET', `/v1/events?user=user_${(i * 7) % 1000}`, { token })],
    ['type wildcard + severity', (i) => http(system.gatewayUrl, 'GET', `/v1/events?type=${i % 2 ? 'security.*' : 'user.*'}&severity=${i % 2 ? 'critical' : 'warning'}`, { token })],
    ['aggregate 24 h by database', () => http(system.gatewayUrl, 'POST', '/v1/events/aggregate', { token, body: { metrics: ['count'], filters: { time_range: { last: '24h' } }, group_by: ['database_name'] } })],
  ];
  const results: string[] = [];
  let baselineP95 = 0;
  for (const [label, run] of scenarios) {
    const count = label.startsWith('aggregate') ? Math.min(REQUESTS, 50) : REQUESTS;
    for (let i = 0; i < 5; i++) await run(i); // warm-up
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      const response = await run(i);
      times.push(performance.now() - t);
      if (response.status !== 200) throw new Error(`${label}: status ${response.status}`);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    if (!baselineP95) baselineP95 = p95;
    results.push(`  ${label.padEnd(30)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   (${(p95 / baselineP95).toFixed(1)}x baseline)`);
  }
  await system.stop();
  if (!keep) await db.drop();
  dataDir.done();
  process.stdout.write(`\nevents query benchmark: ${ROWS.toLocaleString('en-US')} events over ${DAYS} days, ${REQUESTS} sequential requests per query\n${results.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
