/**
 * Verifiable event log benchmark (docs/integrity.md#performance), on this machine, one run:
 *
 * A. Ingest throughput with the log off and on. Same records (bench/ingest/workload.ts), same
 *    machine, each configuration on a fresh database and topic prefix: BENCH_EVENTS audit records
 *    are put on `audit.ingest`, then event-ingest (policy service beside it, no policies) starts
 *    and consumes the backlog. Figure: records/s from the first stored event to the last (stored
 *    and committed), with INTEGRITY_LOG=false and =true (leaf hash at ingest, tree builder and
 *    checkpoints running in the same process). The two are run alternately BENCH_ROUNDS times
 *    and the best of each is compared (other load on the machine only ever slows a run down).
 *    With the log on, also: how long after the last commit the tree held every event, and the
 *    largest gap in events between checkpoints.
 * B. Inclusion proofs at BENCH_LEAVES leaves (10M by default): a scratch database gets the tree
 *    synthesized directly (random leaf hashes in blocks of 256, every subtree node from level 8,
 *    the tree state, one signed checkpoint) and BENCH_PROOF_EVENTS events at random positions;
 *    then IntegrityService.inclusionProof (the code behind GET /v1/integrity/proofs/inclusion,
 *    without HTTP) for random events. Each proof is checked with verifyInclusion. Figure: p50,
 *    p95, p99 latency.
 *
 * Run: npm run bench:integrity   (BENCH_EVENTS=50000, BENCH_ROUNDS=2, BENCH_LEAVES=10000000,
 * BENCH_PROOFS=1000; BENCH_SKIP_A=1 / BENCH_SKIP_B=1 run one part only)
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import { TopicSpecs, Topics } from '../../libs/contracts/src';
import { KafkaBus } from '../../libs/platform/messaging/src';
import { createLogger, SecretBox, startService } from '../../libs/platform/core/src';
import { createServiceDataSource, runMigrations } from '../../libs/platform/database/src';
import { generateCheckpointKey, signCheckpoint, verifyInclusion } from '../../libs/integrity/src';
import { eventIngestService } from '../../apps/event-ingest/src/event-ingest.service-definition';
import { eventIngestMigrations } from '../../apps/event-ingest/src/database/migrations';
import { policyService } from '../../apps/policy/src/policy.service-definition';
import { EventsRepository, type StoredEvent } from '../../apps/event-ingest/src/events/events.repository';
import { IntegrityService } from '../../apps/event-ingest/src/integrity/integrity.service';
import { keyIdOf, type SigningKeys } from '../../apps/event-ingest/src/integrity/signing-keys.service';
import { StoredFrontier } from '../../apps/event-ingest/src/integrity/tree-builder.service';
import { TreeRepository } from '../../apps/event-ingest/src/integrity/tree.repository';
import { storedEventLeafHash } from '../../apps/event-ingest/src/integrity/leaf';
import { createTestDatabase, freePort, testKafka, testRpcCredentials } from '../../libs/platform/testing/src';
import { formatLoadAverage } from '../lib/stats';
import { benchClock, benchRecord, type BenchRecord, type Clock } from '../ingest/workload';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LEAVES = Number(process.env.BENCH_LEAVES ?? 10_000_000);
const PROOFS = Number(process.env.BENCH_PROOFS ?? 1000);
const PROOF_EVENTS = Number(process.env.BENCH_PROOF_EVENTS ?? 2000);
const logger = createLogger('bench', 'warn');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number) => Math.round(n).toLocaleString('en-US');

interface IngestResult {
  rate: number;
  /** CPU of this process (event-ingest and the policy service run in it) per record, µs. */
  cpuPerRecord: number;
  treeLagMs: number | null;
  maxCheckpointGap: number | null;
}

async function ingestPhase(log: boolean, clock: Clock): Promise<IngestResult> {
  const kafka = testKafka();
  const db = await createTestDatabase();
  const bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'bench-integrity', prefix: kafka.prefix, logger });
  await bus.ensureTopics(TopicSpecs);
  const ports = { policy: String(await freePort()), ingest: String(await freePort()) };
  const common: Record<string, string> = {
    ...(process.env as Record<string, string>),
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    // The bench's throwaway database is reached as the server's superuser, as a single-role install would.
    DATABASE_ALLOW_PRIVILEGED_ROLE: 'true',
    KAFKA_BROKERS: kafka.brokers.join(','),
    KAFKA_TOPIC_PREFIX: kafka.prefix,
    HOST: '127.0.0.1',
    RPC_HOST: '127.0.0.1',
    VIGIL_ENCRYPTION_KEYS: SecretBox.generateKey(),
    AUTH_RPC_ADDRESS: `127.0.0.1:${await freePort()}`,
    POLICY_RPC_ADDRESS: `127.0.0.1:${ports.policy}`,
    EVENT_INGEST_RPC_ADDRESS: `127.0.0.1:${ports.ingest}`,
    DELIVERY_RPC_ADDRESS: `127.0.0.1:${await freePort()}`,
  };
  const policy = await startService(policyService, { ...common, PORT: String(await freePort()), RPC_PORT: ports.policy }, { rpcCredentials: testRpcCredentials('policy') });
  try {
    for (let start = 0; start < EVENTS; start += 5000) {
      const records: BenchRecord[] = [];
      for (let i = start; i < Math.min(EVENTS, start + 5000); i++) records.push(benchRecord(i, clock));
      await bus.publish([{ topic: Topics.auditIngest, messages: records.map((r) => ({ key: r.database_id, value: JSON.stringify(r), headers: {} })) }]);
    }
    const service = await startService(eventIngestService, {
      ...common,
      LOG_LEVEL: 'warn',
      DATABASE_POOL_SIZE: '10',
      PORT: String(await freePort()),
      RPC_PORT: ports.ingest,
      INGEST_BATCH_SIZE: process.env.INGEST_BATCH_SIZE ?? '2000',
      ENFORCEMENT_READY_TIMEOUT_MS: '60000',
      INTEGRITY_LOG: String(log),
    }, { rpcCredentials: testRpcCredentials('event-ingest') });
    // Stored events, excluding the log's own audit.checkpoint events (not records of the workload).
    const stored = async () =>
      Number((await db.query<{ n: string }>(`SELECT (s.last_seq - (SELECT count(*) FROM event_ingest.integrity_checkpoints))::text AS n FROM event_ingest.event_sequence s`))[0]!.n);
    let first = 0;
    let done = 0;
    let cpuAtFirst = process.cpuUsage();
    let cpuPerRecord = 0;
    const deadline = Date.now() + 10 * 60_000;
    while (Date.now() < deadline) {
      const n = await stored();
      const t = performance.now();
      if (!first && n > 0) {
        first = t;
        cpuAtFirst = process.cpuUsage();
      }
      if (n >= EVENTS) {
        done = t;
        break;
      }
      await sleep(20);
    }
    let treeLagMs: number | null = null;
    let maxCheckpointGap: number | null = null;
    // CPU up to the last commit, or with the log on up to the moment the tree held every event
    // (the builder's work counts; the idle wait for the next checkpoint does not).
    let used = process.cpuUsage(cpuAtFirst);
    if (log && done) {
      const head = async () => Number((await db.query<{ n: string }>(`SELECT last_seq::text AS n FROM event_ingest.event_sequence`))[0]!.n);
      while (Date.now() < deadline) {
        const [row] = await db.query<{ n: string }>(`SELECT tree_size::text AS n FROM event_ingest.integrity_tree`);
        if (Number(row!.n) >= EVENTS) break;
        await sleep(20);
      }
      treeLagMs = performance.now() - done;
      used = process.cpuUsage(cpuAtFirst);
      while (Date.now() < deadline) {
        const [cp] = await db.query<{ n: string | null }>(`SELECT max(tree_size)::text AS n FROM event_ingest.integrity_checkpoints`);
        if (Number(cp!.n ?? 0) >= (await head()) - 1) break;
        await sleep(100);
      }
      const sizes = await db.query<{ n: string }>(`SELECT c.tree_size::text AS n FROM event_ingest.integrity_checkpoints c ORDER BY c.tree_size`);
      maxCheckpointGap = sizes.reduce((gap, s, i) => Math.max(gap, Number(s.n) - (i ? Number(sizes[i - 1]!.n) : 0)), 0);
    }
    cpuPerRecord = (used.user + used.system) / EVENTS;
    await service.stop();
    if (!done) throw new Error(`ingest did not finish within 10 minutes (log ${log ? 'on' : 'off'})`);
    return { rate: EVENTS / ((done - first) / 1000), cpuPerRecord, treeLagMs, maxCheckpointGap };
  } finally {
    await policy.stop();
    await bus.close();
    await db.drop();
  }
}

/** A tree of `leaves` random leaf hashes written straight into a scratch database, with a signed checkpoint. */
async function proofPhase(): Promise<{ p50: number; p95: number; p99: number; synthSeconds: number }> {
  const db = await createTestDatabase();
  const dataSource = createServiceDataSource({ url: db.url, schema: 'event_ingest', migrations: eventIngestMigrations, poolSize: 4, applicationName: 'bench-integrity' });
  await dataSource.initialize();
  try {
    await runMigrations(dataSource, 'event_ingest');
    const synthStart = performance.now();
    const frontier = StoredFrontier.empty();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    const client = (runner as unknown as { databaseConnection: PoolClient }).databaseConnection;
    const out = { blocks: [] as { block: number; hashes: Buffer }[], nodes: [] as { level: number; index: number; hash: Buffer }[] };
    const flush = async () => {
      if (out.blocks.length) {
        const text = out.blocks.map((b) => `${b.block}\t\\\\x${b.hashes.toString('hex')}\n`).join('');
        await pipeline(Readable.from([text]), client.query(copyFrom(`COPY event_ingest.integrity_leaf_blocks (block, hashes) FROM STDIN`)));
      }
      if (out.nodes.length) {
        const text = out.nodes.map((n) => `${n.level}\t${n.index}\t\\\\x${n.hash.toString('hex')}\n`).join('');
        await pipeline(Readable.from([text]), client.query(copyFrom(`COPY event_ingest.integrity_nodes (level, idx, hash) FROM STDIN`)));
      }
      out.blocks = [];
      out.nodes = [];
    };
    const chunk = 1 << 16;
    for (let i = 0; i < LEAVES; i += chunk) {
      const random = randomBytes(Math.min(chunk, LEAVES - i) * 32);
      for (let j = 0; j < random.length; j += 32) frontier.append(random.subarray(j, j + 32), out);
      await flush();
      if (i % (1 << 20) === 0) process.stdout.write(`  synthesized ${f(i)} leaves\r`);
    }
    runner.release();
    const root = frontier.root();
    await dataSource.query(`UPDATE event_ingest.integrity_tree SET tree_size = $1, tail = $2`, [LEAVES, Buffer.concat(frontier.tail)]);
    const key = generateCheckpointKey();
    const raw = Buffer.from(key.public_key, 'base64');
    const keyId = keyIdOf(raw);
    await dataSource.query(`INSERT INTO event_ingest.integrity_keys (key_id, public_key, private_key, valid_from, reason) VALUES ($1, $2, 'bench', now() - interval '1 minute', 'bench')`, [keyId, key.public_key]);
    const checkpoint = signCheckpoint({ tree_size: LEAVES, root_hash: root.toString('hex'), timestamp: new Date().toISOString(), key_id: keyId }, key.privateKey);
    await dataSource.query(
      `INSERT INTO event_ingest.integrity_checkpoints (tree_size, root_hash, "timestamp", key_id, signature, event_id, event_seq) VALUES ($1, $2, $3, $4, $5, 'evt_bench', $6)`,
      [LEAVES, root, checkpoint.timestamp, keyId, checkpoint.signature, LEAVES + 1],
    );
    // Events at random positions (the proof looks the event up by id for its sequence).
    const events = new EventsRepository(dataSource);
    const now = new Date().toISOString();
    const picked = new Set<number>();
    while (picked.size < PROOF_EVENTS) picked.add(1 + Math.floor(Math.random() * LEAVES));
    const stored: StoredEvent[] = [...picked].map((seq, i) => ({
      id: `evt_bench${String(i).padStart(20, '0')}`, type: 'database.query', severity: 'info', database_id: 'db_bench', timestamp: now, processed_at: now,
      details: { query: 'SELECT 1' }, context: { policy_id: null, rule_id: null, risk_score: 0 }, producer_id: null, seq: String(seq), operation: 'SELECT', correlation_id: null,
    }));
    await dataSource.transaction((manager) => events.insertMany(manager, stored));
    await dataSource.query(`VACUUM ANALYZE event_ingest.integrity_nodes`);
    await dataSource.query(`VACUUM ANALYZE event_ingest.integrity_leaf_blocks`);
    const synthSeconds = (performance.now() - synthStart) / 1000;
    process.stdout.write(`  synthesized ${f(LEAVES)} leaves in ${synthSeconds.toFixed(0)} s\n`);

    const service = new IntegrityService(new TreeRepository(dataSource), {} as SigningKeys);
    const times: number[] = [];
    for (let i = 0; i < PROOFS + 50; i++) {
      const event = stored[Math.floor(Math.random() * stored.length)]!;
      const t = performance.now();
      const proof = await service.inclusionProof({ event_id: event.id });
      const elapsed = performance.now() - t;
      if (!verifyInclusion(proof.leaf_index, LEAVES, Buffer.from(proof.leaf_hash, 'hex'), proof.audit_path.map((h) => Buffer.from(h, 'hex')), root)) {
        throw new Error(`the proof of leaf ${proof.leaf_index} does not verify`);
      }
      if (i >= 50) times.push(elapsed); // the first 50 warm the pool and caches
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return { p50: at(0.5), p95: at(0.95), p99: at(0.99), synthSeconds };
  } finally {
    await dataSource.destroy();
    await db.drop();
  }
}

async function main() {
  const lines: string[] = [`integrity benchmark (${new Date().toISOString()}), load average at start ${formatLoadAverage()}`];
  if (process.env.BENCH_SKIP_A !== '1') {
    const clock = benchClock(EVENTS);
    const off: IngestResult[] = [];
    const on: IngestResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither always meets a warmer or cooler machine.
      for (const log of round % 2 ? [true, false] : [false, true]) {
        const r = await ingestPhase(log, clock);
        (log ? on : off).push(r);
        process.stdout.write(`  round ${round + 1}, log ${log ? 'on ' : 'off'}: ${f(r.rate)} records/s, ${r.cpuPerRecord.toFixed(1)} µs CPU/record${log ? `, tree caught up ${f(r.treeLagMs ?? 0)} ms after the last commit, largest checkpoint gap ${f(r.maxCheckpointGap ?? 0)}` : ''}\n`);
      }
    }
    const best = (rs: IngestResult[]) => rs.reduce((a, b) => (b.rate > a.rate ? b : a));
    const bOff = best(off);
    const bOn = best(on);
    const leastCpu = (rs: IngestResult[]) => Math.min(...rs.map((r) => r.cpuPerRecord));
    // The leaf hash alone, in this process: the one addition to the ingest transaction.
    const records = Array.from({ length: 20_000 }, (_, i) => benchRecord(i, clock));
    const asEvents = records.map((r, i) => ({
      id: `evt_${String(i).padStart(26, '0')}`, type: r.type, severity: 'info' as const, database_id: r.database_id, timestamp: r.timestamp, processed_at: r.timestamp,
      details: r.details, context: { policy_id: null, rule_id: null, risk_score: 10 }, producer_id: null,
    })) as unknown as Parameters<typeof storedEventLeafHash>[0][];
    for (const e of asEvents.slice(0, 2000)) storedEventLeafHash(e);
    const hashStart = process.cpuUsage();
    for (const e of asEvents) storedEventLeafHash(e);
    const hashUsed = process.cpuUsage(hashStart);
    const hashPerRecord = (hashUsed.user + hashUsed.system) / asEvents.length;
    lines.push(
      `A. ingest, ${f(EVENTS)} records over 20 databases, Kafka, best of ${ROUNDS} rounds each`,
      `  INTEGRITY_LOG=false                   : ${f(bOff.rate)} records/s   (rounds: ${off.map((r) => f(r.rate)).join(', ')})`,
      `  INTEGRITY_LOG=true                    : ${f(bOn.rate)} records/s   (rounds: ${on.map((r) => f(r.rate)).join(', ')})`,
      `  on / off                              : ${(bOn.rate / bOff.rate).toFixed(2)} (required >= 0.90)`,
      `  CPU per record (least of the rounds)  : off ${leastCpu(off).toFixed(1)} µs, on ${leastCpu(on).toFixed(1)} µs (event-ingest + policy service, tree builder and checkpoints included)`,
      `  leaf hash at ingest, alone            : ${hashPerRecord.toFixed(1)} µs CPU per record`,
      `  tree complete after the last commit   : ${f(bOn.treeLagMs ?? 0)} ms; largest gap between checkpoints ${f(bOn.maxCheckpointGap ?? 0)} events`,
    );
  }
  if (process.env.BENCH_SKIP_B !== '1') {
    const p = await proofPhase();
    lines.push(
      `B. inclusion proof at ${f(LEAVES)} leaves (${f(PROOFS)} proofs of random events, each verified; tree synthesized in ${p.synthSeconds.toFixed(0)} s)`,
      `  p50 / p95 / p99                       : ${p.p50.toFixed(2)} / ${p.p95.toFixed(2)} / ${p.p99.toFixed(2)} ms (required p95 < 20 ms)`,
    );
  }
  lines.push(`load average at the end: ${formatLoadAverage()}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
