/**
 * Ingest benchmark, on this machine, traffic on 127.0.0.1 only. One run measures two
 * configurations, each on a fresh database and a fresh topic prefix, with the same records:
 *
 * A. No policies: the policy service runs beside event-ingest, with nothing to enforce.
 * B. With policies: the 24 enabled policies of bench/ingest/workload.ts (query_control with seven
 *    RE2 rules incl. block, alert and log; access_control by address range and by time window;
 *    data_protection masking, one with an alert; alerting with a threshold and field conditions)
 *    over the 20 databases the records name. They are created as users create them: POST
 *    /v1/policies on the gateway (auth, gateway, policy and event-ingest running), so their
 *    snapshots reach enforcement over policy.events.v1. Probe records (a set per policy, made to
 *    trigger it) are published until every policy has produced its outcome: only then are the
 *    policies known to be in force. Gateway, auth and that event-ingest are then stopped, so the
 *    measured processes are the same as in A; the measured event-ingest loads the policies at start
 *    over RPC (first ingestion waits for them), and afterwards the benchmark checks that the policy
 *    events stored for the records are exactly, per policy, what the policy engine computes for
 *    them: a policy missing from the first records would show.
 *
 * Per configuration:
 * 1. BENCH_EVENTS audit records are put on the `audit.ingest` topic (Kafka on 127.0.0.1:9092).
 * 2. event-ingest starts and consumes the backlog. Figure: sustained records/s from the first
 *    stored event to the last (stored and queryable, i.e. committed, policy events included), and
 *    the rate at which they reached `audit.events.v1` (the relay).
 * 3. Baseline in the same run: `psql \copy` of the same number of rows, same shape, into the same
 *    table with the same indexes. Figure: the ingest rate as a fraction of the COPY rate.
 * Then: the with-policies rate as a fraction of the no-policies rate.
 *
 * Run: npm run bench:ingest   (BENCH_EVENTS=100000 by default; BENCH_PRODUCER_IDS=1 adds
 * idempotency keys; INGEST_BATCH_SIZE, default 2000)
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TopicSpecs, Topics } from '../../libs/contracts/src';
import { KafkaBus } from '../../libs/platform/messaging/src';
import { createLogger, type RunningService, SecretBox, startService } from '../../libs/platform/core/src';
import { eventIngestService } from '../../apps/event-ingest/src/event-ingest.service-definition';
import { policyService } from '../../apps/policy/src/policy.service-definition';
import { authService } from '../../apps/auth/src/auth.service-definition';
import { gatewayService } from '../../apps/gateway/src/gateway.service-definition';
import { http as call, login } from '../../apps/standalone/src/testing/http';
import { type EngineEvent, PolicyEngine, type PolicyEvaluation } from '../../libs/policy-engine/src';
import { createTestDatabase, freePort, type TestDatabase, testKafka, testRpcCredentials } from '../../libs/platform/testing/src';
import { postgresCpuSeconds } from '../lib/proc';
import { formatLoadAverage } from '../lib/stats';
import { benchClock, benchPolicies, benchRecord, type BenchRecord, type Clock, type PolicySpec } from './workload';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const PRODUCER_IDS = process.env.BENCH_PRODUCER_IDS === '1';
const BATCH = process.env.INGEST_BATCH_SIZE ?? '2000';
const ADMIN = { email: 'admin@example.com', password: `bench-${randomBytes(8).toString('hex')}` };

const logger = createLogger('bench', 'warn');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the policies must produce for the records: the engine the pipeline uses, fed the same way. */
interface Expected {
  perPolicy: Map<string, number>;
  derived: number;
  recordsTriggering: number;
  violations: number;
  matches: number;
}

function engineEvent(record: BenchRecord, i: number): EngineEvent {
  const d = record.details;
  return {
    id: `evt_${i}`,
    type: record.type,
    severity: 'info',
    database_id: record.database_id,
    timestamp: Date.parse(record.timestamp),
    user: d.user,
    source_ip: d.source_ip,
    query: d.query,
    client_application: d.client_application,
    session_id: d.session_id,
    details: d as unknown as EngineEvent['details'],
  };
}

function expectedOutcomes(policies: { id: string; name: string; type: PolicySpec['type']; databases: string[]; config: unknown }[], clock: Clock): Expected {
  const engine = new PolicyEngine();
  for (const p of policies) {
    if (engine.apply({ ...p, enabled: true, version: 1 }) !== 'applied') throw new Error(`policy ${p.name} does not compile`);
  }
  const expected: Expected = { perPolicy: new Map(), derived: 0, recordsTriggering: 0, violations: 0, matches: 0 };
  for (let i = 0; i < EVENTS; i++) {
    const results: PolicyEvaluation[] = engine.evaluate(engineEvent(benchRecord(i, clock), i));
    if (results.length) expected.recordsTriggering++;
    for (const r of results) {
      expected.derived++;
      expected.perPolicy.set(r.policy_id, (expected.perPolicy.get(r.policy_id) ?? 0) + 1);
      if (r.outcome === 'violation') expected.violations++;
      else expected.matches++;
    }
  }
  return expected;
}

async function publish(bus: KafkaBus, records: BenchRecord[]) {
  await bus.publish([{ topic: Topics.auditIngest, messages: records.map((r) => ({ key: r.database_id, value: JSON.stringify(r), headers: {} })) }]);
}

interface Services {
  common: Record<string, string>;
  policyRpc: string;
  ports: Record<'auth' | 'policy' | 'ingest' | 'delivery', string>;
}

async function servicesFor(db: TestDatabase, kafka: { brokers: string[]; prefix: string }): Promise<Services> {
  const ports = { auth: String(await freePort()), policy: String(await freePort()), ingest: String(await freePort()), delivery: String(await freePort()) };
  const policyRpc = `127.0.0.1:${ports.policy}`;
  return {
    ports,
    policyRpc,
    common: {
      ...(process.env as Record<string, string>),
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      // The benchmark's database is the server's superuser's, one role for every service.
      DATABASE_ALLOW_PRIVILEGED_ROLE: 'true',
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      HOST: '127.0.0.1',
      RPC_HOST: '127.0.0.1',
      VIGIL_ENCRYPTION_KEYS: SecretBox.generateKey(),
      AUTH_RPC_ADDRESS: `127.0.0.1:${ports.auth}`,
      POLICY_RPC_ADDRESS: policyRpc,
      EVENT_INGEST_RPC_ADDRESS: `127.0.0.1:${ports.ingest}`,
      DELIVERY_RPC_ADDRESS: `127.0.0.1:${ports.delivery}`,
    },
  };
}

async function startIngest(s: Services): Promise<RunningService> {
  return startService(eventIngestService, {
    ...s.common,
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '10',
    PORT: String(await freePort()),
    METRICS_PORT: '0',
    RPC_PORT: s.ports.ingest,
    INGEST_BATCH_SIZE: BATCH,
    // The first ingestion waits for the policies (loaded over RPC) rather than being refused until they are.
    ENFORCEMENT_READY_TIMEOUT_MS: '60000',
  }, { rpcCredentials: testRpcCredentials('event-ingest') });
}

/**
 * Creates the policies through the gateway, as a user does, and waits until every one is in
 * force in event-ingest: probe records, one set per policy, are published until each policy has
 * produced a policy event for one of them. Returns the created policies.
 */
async function createPolicies(s: Services, db: TestDatabase, bus: KafkaBus, specs: PolicySpec[]) {
  const auth = await startService(authService, { ...s.common, PORT: String(await freePort()), METRICS_PORT: '0', RPC_PORT: s.ports.auth, AUDIT_ADMIN_EMAIL: ADMIN.email, AUDIT_ADMIN_PASSWORD: ADMIN.password }, { rpcCredentials: testRpcCredentials('auth') });
  const ingest = await startIngest(s);
  const gateway = await startService(gatewayService, { ...s.common, PORT: String(await freePort()), METRICS_PORT: '0' }, { rpcCredentials: testRpcCredentials('gateway') });
  try {
    const base = `http://127.0.0.1:${gateway.httpPort}`;
    const token = await login(base, ADMIN.email, ADMIN.password);
    const created: { id: string; name: string; type: PolicySpec['type']; databases: string[]; config: unknown; spec: PolicySpec }[] = [];
    for (const spec of specs) {
      const response = await call(base, 'POST', '/v1/policies', {
        token,
        body: { name: spec.name, type: spec.type, description: spec.description, databases: spec.databases, config: spec.config, enabled: true },
      });
      if (response.status !== 201) throw new Error(`policy ${spec.name} not created: ${response.status} ${JSON.stringify(response.body)}`);
      created.push({ ...response.body, spec });
    }
    const inForce = new Set<string>();
    const deadline = Date.now() + 120_000;
    for (let round = 0; inForce.size < created.length; round++) {
      if (Date.now() > deadline) throw new Error(`policies not in force after 2 minutes: ${created.filter((p) => !inForce.has(p.id)).map((p) => p.name).join(', ')}`);
      const probes = created.filter((p) => !inForce.has(p.id)).flatMap((p, n) => p.spec.probe(`probe-${round}-${n}`, Date.now()));
      await publish(bus, probes);
      const ids = probes.map((r) => r.id!);
      while ((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM event_ingest.events WHERE producer_id = ANY($1)`, [ids]))[0]!.n !== String(ids.length)) {
        if (Date.now() > deadline) throw new Error('probe records not stored within 2 minutes');
        await sleep(50);
      }
      const triggered = await db.query<{ policy_id: string }>(
        `SELECT DISTINCT d.policy_id FROM event_ingest.events s JOIN event_ingest.events d ON d.details->>'triggering_event_id' = s.id
          WHERE s.producer_id = ANY($1) AND d.policy_id IS NOT NULL`,
        [ids],
      );
      for (const row of triggered) inForce.add(row.policy_id);
      if (inForce.size < created.length) await sleep(200);
    }
    return created;
  } finally {
    await gateway.stop();
    await ingest.stop();
    await auth.stop();
  }
}

interface PhaseResult {
  ingestRate: number;
  relayRate: number;
  copyRate: number;
  cpuPerEvent: number;
  pgCpuPerEvent: number;
  load: string;
  loadBefore: string;
  expected?: Expected;
  policies?: number;
}

async function phase(withPolicies: boolean, clock: Clock): Promise<PhaseResult> {
  const loadBefore = formatLoadAverage();
  const kafka = testKafka();
  const db = await createTestDatabase();
  const bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'bench-ingest', prefix: kafka.prefix, logger });
  await bus.ensureTopics(TopicSpecs);
  const s = await servicesFor(db, kafka);
  // event-ingest enforces policies on every record: the policy service runs beside it, as deployed.
  const policy = await startService(policyService, { ...s.common, PORT: String(await freePort()), METRICS_PORT: '0', RPC_PORT: s.ports.policy }, { rpcCredentials: testRpcCredentials('policy') });
  let expected: Expected | undefined;
  let created = 0;
  try {
    if (withPolicies) {
      const policies = await createPolicies(s, db, bus, benchPolicies(Date.now()));
      created = policies.length;
      expected = expectedOutcomes(policies, clock);
    }
    // Probes and their policy events came first (B); without policies event-ingest has not created its schema yet.
    const before = withPolicies ? Number((await db.query<{ seq: string }>(`SELECT last_seq::text AS seq FROM event_ingest.event_sequence`))[0]!.seq) : 0;
    const target = before + EVENTS + (expected?.derived ?? 0);

    process.stdout.write(`${withPolicies ? `with ${created} policies` : 'no policies'}: producing ${EVENTS} records to ${kafka.prefix}${Topics.auditIngest} ...\n`);
    const produceStart = Date.now();
    for (let start = 0; start < EVENTS; start += 5000) {
      const records: BenchRecord[] = [];
      for (let i = start; i < Math.min(EVENTS, start + 5000); i++) records.push(benchRecord(i, clock, PRODUCER_IDS));
      await publish(bus, records);
    }
    process.stdout.write(`produced in ${((Date.now() - produceStart) / 1000).toFixed(1)} s\n`);

    const service = await startIngest(s);
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
    let last = { stored: 0, published: 0 };
    const deadline = Date.now() + 10 * 60_000;
    while (Date.now() < deadline) {
      const p = (last = await progress());
      const t = performance.now();
      if (!firstStored && p.stored > before) {
        firstStored = t;
        cpuAtFirst = process.cpuUsage();
        pgCpuAtFirst = postgresCpuSeconds();
      }
      if (!doneStored && p.stored >= target) doneStored = t;
      if (!donePublished && p.published >= target) donePublished = t;
      if (doneStored && donePublished) {
        const used = process.cpuUsage(cpuAtFirst);
        cpuPerEvent = (used.user + used.system) / EVENTS;
        pgCpuPerEvent = ((postgresCpuSeconds() - pgCpuAtFirst) * 1e6) / EVENTS;
        break;
      }
      await sleep(20);
    }
    await service.stop();
    if (!doneStored || !donePublished) {
      throw new Error(`ingest did not finish within 10 minutes: sequence ${last.stored} stored, ${last.published} published, ${target} expected`);
    }
    if (expected) await checkOutcomes(db, before, expected);
    const load = formatLoadAverage();
    const copyRate = await copyBaseline(db, clock);
    return {
      ingestRate: EVENTS / ((doneStored - firstStored) / 1000),
      relayRate: EVENTS / ((donePublished - firstStored) / 1000),
      copyRate,
      cpuPerEvent,
      pgCpuPerEvent,
      load,
      loadBefore,
      expected,
      policies: created,
    };
  } finally {
    await policy.stop();
    await bus.close();
    await db.drop();
  }
}

/** The policy events stored for the records are, per policy, exactly what the engine computes. */
async function checkOutcomes(db: TestDatabase, afterSeq: number, expected: Expected) {
  const rows = await db.query<{ policy_id: string; n: string }>(
    `SELECT policy_id, count(*)::text AS n FROM event_ingest.events WHERE seq > $1 AND policy_id IS NOT NULL GROUP BY policy_id`,
    [afterSeq],
  );
  const stored = new Map(rows.map((r) => [r.policy_id, Number(r.n)]));
  const ids = new Set([...stored.keys(), ...expected.perPolicy.keys()]);
  const wrong = [...ids].filter((id) => (stored.get(id) ?? 0) !== (expected.perPolicy.get(id) ?? 0));
  if (wrong.length) {
    throw new Error(`enforcement differs from the engine for ${wrong.map((id) => `${id}: stored ${stored.get(id) ?? 0}, expected ${expected.perPolicy.get(id) ?? 0}`).join('; ')}`);
  }
}

/** Baseline: the same rows through psql \copy into the same table. */
async function copyBaseline(db: TestDatabase, clock: Clock): Promise<number> {
  const file = join(tmpdir(), `vigil-bench-copy-${randomBytes(4).toString('hex')}.csv`);
  const now = new Date().toISOString();
  const lines: string[] = [];
  const seqBase = EVENTS * 10 + 1_000_000; // past everything ingested
  for (let i = 0; i < EVENTS; i++) {
    const r = benchRecord(i, clock);
    const details = JSON.stringify(r.details).replace(/"/g, '""');
    lines.push(
      [seqBase + i, `evt_copy${i.toString().padStart(22, '0')}`, r.type, 'info', r.database_id, r.timestamp, now, r.details.user, r.details.source_ip,
        r.details.session_id, '', '', '', 10, `"${details}"`, r.details.query ? 'SELECT' : '', ''].join(','),
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
  return EVENTS / copySeconds;
}

async function main() {
  const clock = benchClock(EVENTS);
  const none = await phase(false, clock);
  const withPolicies = await phase(true, clock);
  const e = withPolicies.expected!;
  const f = (n: number) => Math.round(n).toLocaleString('en-US');
  const pct = (n: number) => `${((n / EVENTS) * 100).toFixed(1)} %`;
  const lines = (label: string, r: PhaseResult) =>
    `${label}\n` +
    `  audit.ingest -> stored and queryable : ${f(r.ingestRate)} records/s\n` +
    `  audit.ingest -> audit.events.v1      : ${f(r.relayRate)} records/s\n` +
    `  psql \\copy of the same rows (baseline): ${f(r.copyRate)} rows/s\n` +
    `  ingest / COPY                        : ${(r.ingestRate / r.copyRate).toFixed(2)}\n` +
    `  CPU per record, this process         : ${r.cpuPerEvent.toFixed(1)} µs (event-ingest and the policy service)\n` +
    `  CPU per record, all PostgreSQL       : ${r.pgCpuPerEvent.toFixed(1)} µs (whole machine: other load counts)\n` +
    `  load average before / after          : ${r.loadBefore} / ${r.load}\n`;
  process.stdout.write(
    `\ningest benchmark: ${f(EVENTS)} records over 20 databases${PRODUCER_IDS ? ' with producer ids' : ''}, batch ${BATCH}, Kafka\n` +
      lines('A. no policies', none) +
      lines(`B. ${withPolicies.policies} enabled policies (8 query_control, 6 access_control, 6 data_protection, 4 alerting)`, withPolicies) +
      `  records triggering a policy          : ${f(e.recordsTriggering)} (${pct(e.recordsTriggering)}); policy events ${f(e.derived)}: ${f(e.violations)} violations, ${f(e.matches)} matches\n` +
      `  stored policy events = engine's      : yes, per policy\n` +
      `with policies / no policies            : ${(withPolicies.ingestRate / none.ingestRate).toFixed(2)} (ingest / COPY: ${(withPolicies.ingestRate / withPolicies.copyRate / (none.ingestRate / none.copyRate)).toFixed(2)})\n` +
      `load average at the end                : ${formatLoadAverage()}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
