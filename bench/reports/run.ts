/**
 * Compliance report benchmark, on this machine, traffic on 127.0.0.1 only.
 *
 * Loads BENCH_ROWS audit events (default 10,000,000) spread over the 30 days before today into
 * daily partitions of a fresh database (server-side INSERT ... SELECT from generate_series, the
 * fastest way to get rows into PostgreSQL; the table keeps all its production indexes), 50
 * databases, 1000 users, a realistic mix (60 % database.query with SELECT / INSERT / UPDATE /
 * DELETE / GRANT / ALTER / DROP statements, the other catalog types spread over the rest). Then it
 * runs the whole system on that database and times, through HTTP, a 30-day PCI DSS report over
 * every database: POST /v1/reports, then GET until `completed`.
 * Baseline in the same run: one `SELECT count(*)` over the same 30 days (the floor of reading the
 * period once). Target: the report completes in under 60 s at 10 M events.
 *
 * Run: npm run bench:reports   (BENCH_ROWS=2000000 for a quicker run). The database is dropped at the
 * end; BENCH_KEEP=1 keeps it and its data folder (/tmp/vigil-bench-<database>, whose key opens the
 * signing keys stored in it) and prints its URL, as bench/events-query does.
 */
import 'reflect-metadata';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http, login } from '../../apps/standalone/src/testing/http';
import { eventIngestMigrations } from '../../apps/event-ingest/src/database/migrations';
import { createServiceDataSource, runMigrations } from '../../libs/platform/database/src';
import { createTestDatabase, freePort } from '../../libs/platform/testing/src';
import { benchDataDir } from '../lib/keep';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DAYS = 30;
const DAY = 86_400_000;

async function main() {
  const db = await createTestDatabase();
  let system: Awaited<ReturnType<typeof startSystem>> | undefined;
  const keep = process.env.BENCH_KEEP === '1';
  const dataDir = benchDataDir(db.url, keep);
  try {
    const dataSource = createServiceDataSource({ url: db.url, schema: 'event_ingest', migrations: eventIngestMigrations, poolSize: 2, applicationName: 'bench' });
    await dataSource.initialize();
    await runMigrations(dataSource, 'event_ingest');
    const today = Math.floor(Date.now() / DAY) * DAY;
    const periodStart = new Date(today - DAYS * DAY);
    const periodEnd = new Date(today);
    for (let d = -DAYS - 1; d <= 1; d++) {
      const from = new Date(today + d * DAY);
      // Through the owner's function, as EventPartitions does: the partition gets its guards.
      await dataSource.query(`SELECT event_ingest.create_event_partition($1::date)`, [from.toISOString().slice(0, 10)]);
    }
    process.stdout.write(`loading ${ROWS.toLocaleString('en-US')} events over ${DAYS} days ...\n`);
    const loadStart = performance.now();
    const chunk = 50_000;
    const loader = dataSource.createQueryRunner();
    await loader.connect();
    await loader.query('SET statement_timeout = 0');
    for (let start = 1; start <= ROWS; start += chunk) {
      const end = Math.min(ROWS, start + chunk - 1);
      await loader.query(
        `INSERT INTO event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, source_ip, session_id,
           policy_id, risk_score, details, operation)
         SELECT g, 'evt_' || lpad(g::text, 26, '0'), t.type, t.severity, 'db_' || (g % 50),
           to_timestamp(($1::bigint - 1000 - g::bigint * $2::bigint / $3::bigint) / 1000.0), now(),
           'user_' || (g % 1000), '10.0.' || (g % 200) || '.' || (g % 250), 'sess_' || (g % 20000),
           CASE WHEN t.type = 'policy.violation' THEN 'pol_' || (g % 20) END, 10,
           jsonb_build_object('user', 'user_' || (g % 1000), 'source_ip', '10.0.' || (g % 200) || '.' || (g % 250), 'query', q.query || g),
           CASE WHEN t.type = 'database.query' THEN q.op END
         FROM generate_series($4::bigint, $5::bigint) g
         JOIN (VALUES (0, 'database.query', 'info'), (1, 'database.connection', 'info'), (2, 'database.disconnect', 'info'),
                      (3, 'security.threat_detected', 'critical'), (4, 'security.anomaly', 'warning'), (5, 'security.privilege_escalation', 'critical'),
                      (6, 'policy.violation', 'warning'), (7, 'policy.match', 'info'), (8, 'data.sensitive_access', 'warning'),
                      (9, 'data.export', 'warning'), (10, 'user.login_failed', 'warning'), (11, 'user.login_success', 'info'))
           AS t(k, type, severity) ON t.k = (CASE WHEN g % 10 < 6 THEN 0 ELSE g % 12 END)
         JOIN (VALUES (0, 'SELECT', 'SELECT * FROM orders WHERE id = '), (1, 'SELECT', 'SELECT pan FROM cards WHERE id = '),
                      (2, 'INSERT', 'INSERT INTO ledger VALUES ('), (3, 'UPDATE', 'UPDATE accounts SET balance = 0 WHERE id = '),
                      (4, 'DELETE', 'DELETE FROM carts WHERE id = '), (5, 'SELECT', 'SELECT count(*) FROM sessions WHERE id > '),
                      (6, 'SELECT', 'SELECT name FROM customers WHERE id = '), (7, 'SELECT', 'SELECT 1 -- '))
           AS q(k, op, query) ON q.k = (g / 12) % 8`,
        [today, DAYS * DAY, ROWS, start, end],
      );
      if (((end / chunk) | 0) % 20 === 0) process.stdout.write(`  ${end.toLocaleString('en-US')} rows, ${((performance.now() - loadStart) / 1000).toFixed(0)} s\n`);
    }
    // A few privileged statements (GRANT / ALTER / DROP), as a real month has.
    await dataSource.query(
      `INSERT INTO event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, risk_score, details, operation)
       SELECT $1::bigint + g, 'evt_p' || lpad(g::text, 25, '0'), 'database.query', 'info', 'db_' || (g % 50),
              to_timestamp(($2::bigint - 1000 - g::bigint * 60000) / 1000.0), now(), 'dba_' || (g % 5), 25,
              jsonb_build_object('user', 'dba_' || (g % 5), 'query', (ARRAY['GRANT SELECT ON t TO x', 'ALTER TABLE t ADD c int', 'DROP TABLE tmp'])[1 + g % 3]),
              (ARRAY['GRANT', 'ALTER', 'DROP'])[1 + g % 3]
       FROM generate_series(1, 2000) g`,
      [ROWS, today],
    );
    await dataSource.query(`UPDATE event_ingest.event_sequence SET last_seq = $1`, [ROWS + 2000]);
    await dataSource.query(`UPDATE event_ingest.event_relay SET published_seq = $1`, [ROWS + 2000]);
    await loader.query(`VACUUM ANALYZE event_ingest.events`);
    const loadSeconds = (performance.now() - loadStart) / 1000;
    process.stdout.write(`loaded in ${loadSeconds.toFixed(0)} s (${Math.round(ROWS / loadSeconds).toLocaleString('en-US')} rows/s)\n`);

    // Baseline: reading the period once.
    const b0 = performance.now();
    const [{ count }] = await loader.query(`SELECT count(*)::bigint AS count FROM event_ingest.events WHERE "timestamp" >= $1 AND "timestamp" < $2`, [periodStart, periodEnd]);
    const baselineMs = performance.now() - b0;
    await loader.release();
    await dataSource.destroy();

    const env: Record<string, string> = {
      LOG_LEVEL: 'error', VIGIL_DATA_DIR: dataDir.dir, DATABASE_URL: db.url, AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: 'bench-password',
      PORT: String(await freePort()), REPORTS_POLL_MS: '100', DATABASE_POOL_SIZE: '5',
      METRICS_PORT: '0',
    };
    for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
      env[`${key}_PORT`] = String(await freePort());
      env[`${key}_RPC_PORT`] = String(await freePort());
    }
    system = await startSystem(env);
    const token = await login(system.gatewayUrl, 'admin@example.com', 'bench-password');
    const timeReport = async (type: string) => {
      const t = performance.now();
      const created = await http(system!.gatewayUrl, 'POST', '/v1/reports', { token, body: { type, period_start: periodStart.toISOString(), period_end: periodEnd.toISOString() } });
      if (created.status !== 202) throw new Error(`POST /v1/reports: ${created.status} ${JSON.stringify(created.body)}`);
      for (;;) {
        const got = await http(system!.gatewayUrl, 'GET', `/v1/reports/${created.body.id}`, { token });
        if (got.body.status === 'completed') return { ms: performance.now() - t, summary: got.body.summary as Record<string, number> };
        if (got.body.status === 'failed') throw new Error(`report failed: ${got.body.error}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const pci = await timeReport('pci_dss');
    process.stdout.write(
      `\ncompliance report benchmark: ${ROWS.toLocaleString('en-US')} events over ${DAYS} days (${Number(count).toLocaleString('en-US')} in the period), 50 databases\n` +
        `  baseline: SELECT count(*) over the period   ${(baselineMs / 1000).toFixed(1).padStart(6)} s\n` +
        `  PCI DSS report, 30 days, all databases       ${(pci.ms / 1000).toFixed(1).padStart(6)} s   (${(pci.ms / baselineMs).toFixed(1)}x baseline; target < 60 s)\n` +
        `  summary: ${JSON.stringify(pci.summary)}\n`,
    );
  } finally {
    await system?.stop();
    if (keep) process.stdout.write(`kept ${db.url} (data folder ${dataDir.dir})\n`);
    else await db.drop();
    dataDir.done();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
