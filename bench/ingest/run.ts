/**
 * Ingest benchmark, on this machine, traffic on 127.0.0.1 only.
 *
 * 1. BENCH_EVENTS audit records are put on a fresh `audit.ingest` topic (Kafka on 127.0.0.1:9092).
 * 2. event-ingest starts on a fresh database and consumes the backlog. Figure: sustained events/s
 *    from the first stored event to the last (stored and queryable, i.e. committed), and the
 *    rate at which they reached `audit.events.v1` (the relay).
 * 3. Baseline in the same run: `psql \copy` of the same number of rows, same shape, into the same
 *    table with the same indexes. Figure: the ingest rate as a fraction of the COPY rate.
 *
 * Run: npm run bench:ingest   (BENCH_EVENTS=200000 by default; BENCH_PRODUCER_IDS=1 adds idempotency keys)
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TopicSpecs, Topics } from '../../libs/contracts/src';
import { KafkaBus } from '../../libs/platform/messaging/src';
import { createLogger, startService } from '../../libs/platform/core/src';
import { eventIngestService } from '../../apps/event-ingest/src/event-ingest.service-definition';
import { policyService } from '../../apps/policy/src/policy.service-definition';
import { createTestDatabase, freePort, testKafka } from '../../libs/platform/testing/src';
import { postgresCpuSeconds } from '../lib/proc';
import { formatLoadAverage } from '../lib/stats';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const PRODUCER_IDS = process.env.BENCH_PRODUCER_IDS === '1';

function record(i: number) {
  return {
    ...(PRODUCER_IDS ? { id: `bench-${i}` } : {}),
    type: i % 10 === 0 ? 'user.login_success' : 'database.query',
    database_id: `db_bench_${i % 20}`,
    details: {
      user: `user_${i % 50}`,
      source_ip: `10.1.${i % 7}.${i % 250}`,
      query: `SELECT id, name, email FROM customers WHERE id = ${i}`,
      session_id: `sess_${i % 400}`,
      client_application: 'bench',
    },
  };
}

async function main() {
  const logger = createLogger('bench', 'warn');
  const kafka = testKafka();
  const db = await createTestDatabase();
  const bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'bench-ingest', prefix: kafka.prefix, logger });
  await bus.ensureTopics(TopicSpecs);

  process.stdout.write(`producing ${EVENTS} records to ${kafka.prefix}${Topics.auditIngest} ...\n`);
  const produceStart = Date.now();
  for (let start = 0; start < EVENTS; start += 5000) {
    const messages = [];
    for (let i = start; i < Math.min(EVENTS, start + 5000); i++) {
      const r = record(i);
      messages.push({ key: r.database_id, value: JSON.stringify(r), headers: {} });
    }
    await bus.publish([{ topic: Topics.auditIngest, messages }]);
  }
  process.stdout.write(`produced in ${((Date.now() - produceStart) / 1000).toFixed(1)} s\n`);

  // event-ingest enforces policies on every record: the policy service runs beside it, as deployed.
  const policyRpcPort = await freePort();
  const common = {
    ...process.env,
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_TOPIC_PREFIX: kafka.prefix,
    HOST: '127.0.0.1',
    RPC_HOST: '127.0.0.1',
  };
  const policy = await startService(policyService, { ...common, PORT: String(await freePort()), RPC_PORT: String(policyRpcPort) });
  const service = await startService(eventIngestService, {
    ...common,
    POLICY_RPC_ADDRESS: `127.0.0.1:${policyRpcPort}`,
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: '10',
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_TOPIC_PREFIX: kafka.prefix,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    RPC_HOST: '127.0.0.1',
    RPC_PORT: String(await freePort()),
    INGEST_BATCH_SIZE: process.env.INGEST_BATCH_SIZE ?? '2000',
  });

  const progress = async () => {
    const [row] = await db.query<{ stored: string; published: string }>(
      `SELECT s.last_seq::text AS stored, r.published_seq::text AS published FROM event_ingest.event_sequence s, event_ingest.event_relay r`,
    );
    return { stored: Number(row!.stored), published: Number(row!.published) };
  };
  let firstStored = 0;
  let cpuAtFirst = process.cpuUsage();
  let pgCpuAtFirst = 0;
  let cpuPerEvent = 0;
  let pgCpuPerEvent = 0;
  let doneStored = 0;
  let donePublished = 0;
  const deadline = Date.now() + 10 * 60_000;
  while (Date.now() < deadline) {
    const p = await progress();
    const t = performance.now();
    if (!firstStored && p.stored > 0) {
      firstStored = t;
      cpuAtFirst = process.cpuUsage();
      pgCpuAtFirst = postgresCpuSeconds();
    }
    if (!doneStored && p.stored >= EVENTS) doneStored = t;
    if (!donePublished && p.published >= EVENTS) donePublished = t;
    if (doneStored && donePublished) {
      const used = process.cpuUsage(cpuAtFirst);
      cpuPerEvent = (used.user + used.system) / EVENTS;
      pgCpuPerEvent = ((postgresCpuSeconds() - pgCpuAtFirst) * 1e6) / EVENTS;
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await service.stop();
  await policy.stop();
  if (!doneStored) throw new Error('ingest did not finish within 10 minutes');
  const ingestRate = EVENTS / ((doneStored - firstStored) / 1000);
  const relayRate = EVENTS / ((donePublished - firstStored) / 1000);

  // Baseline: the same rows through psql \copy into the same table.
  const file = join(tmpdir(), `vigil-bench-copy-${randomBytes(4).toString('hex')}.csv`);
  const now = new Date().toISOString();
  const lines: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const r = record(i);
    const details = JSON.stringify(r.details).replace(/"/g, '""');
    lines.push(
      [EVENTS * 2 + i, `evt_copy${i.toString().padStart(22, '0')}`, r.type, 'info', r.database_id, now, now, r.details.user, r.details.source_ip,
        r.details.session_id, '', '', '', 10, `"${details}"`, 'SELECT', ''].join(','),
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  const copyStart = performance.now();
  const copied = spawnSync('psql', [db.url, '-q', '-c',
    `\\copy event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, source_ip, session_id, producer_id, policy_id, rule_id, risk_score, details, operation, correlation_id) FROM '${file}' WITH (FORMAT csv)`,
  ], { encoding: 'utf8' });
  const copySeconds = (performance.now() - copyStart) / 1000;
  rmSync(file, { force: true });
  if (copied.status !== 0) throw new Error(`psql \\copy failed: ${copied.stderr}`);
  const copyRate = EVENTS / copySeconds;

  await bus.close();
  await db.drop();
  const f = (n: number) => Math.round(n).toLocaleString('en-US');
  process.stdout.write(
    `\ningest benchmark: ${f(EVENTS)} records${PRODUCER_IDS ? ' with producer ids' : ''}, batch ${process.env.INGEST_BATCH_SIZE ?? '2000'}\n` +
      `  audit.ingest -> stored and queryable : ${f(ingestRate)} events/s\n` +
      `  audit.ingest -> audit.events.v1      : ${f(relayRate)} events/s\n` +
      `  psql \\copy of the same rows (baseline): ${f(copyRate)} events/s\n` +
      `  ingest / COPY                        : ${(ingestRate / copyRate).toFixed(2)}\n` +
      `  CPU per event, event-ingest process  : ${cpuPerEvent.toFixed(1)} µs (with the policy service beside it)\n` +
      `  CPU per event, all PostgreSQL        : ${pgCpuPerEvent.toFixed(1)} µs (whole machine: other load counts)\n` +
      `  load average at the end              : ${formatLoadAverage()}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
