/**
 * CPU per captured record of the capture path alone, without sessions: records shaped as a
 * pgbench select-only statement's are added to a CaptureBuffer at a steady rate (as 8 busy
 * sessions do) and published through (1) the in-process bus, (2) the real Kafka broker through
 * KafkaBus with a deployed proxy's settings. Prints the process's CPU microseconds per record for
 * each, and their difference: what the broker client costs per record.
 *   npm run bench:pg-proxy-publish
 * PUBLISH_RECORDS (default 100,000) records per sink at PUBLISH_RATE (default 8,000) per second
 * (on a busy machine the adding loop falls behind that rate: the publish count is printed);
 * PUBLISH_LINGER_MS and PUBLISH_BATCH override the buffer's linger and batch size;
 * PUBLISH_SINKS=kafka measures Kafka alone (e.g. under --cpu-prof).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TopicSpecs, Topics } from '@vigil/contracts';
import { KafkaBus, MemoryBus, type MessageBus } from '@vigil/messaging';
import { createLogger, createMetricsRegistry } from '@vigil/platform';
import { CaptureBuffer, serializeRecord } from '../../apps/pg-proxy/src/capture/capture-buffer';
import { formatLoadAverage } from '../lib/stats';

const records = Number(process.env.PUBLISH_RECORDS ?? 100_000);
const rate = Number(process.env.PUBLISH_RATE ?? 8000);
const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const logger = createLogger('pg-proxy', 'warn');
const say = (line: string) => process.stdout.write(`${line}\n`);

const shared = JSON.stringify({ user: 'postgres', source_ip: '127.0.0.1', session_id: randomUUID(), client_application: 'pgbench', database_name: 'postgres', db_type: 'postgresql', host: '127.0.0.1', port: 5432, tls: false, proxy_instance: 'pg-proxy@bench' });

function record(i: number) {
  const head = { id: `pgp_${randomUUID()}`, type: 'database.query', database_id: 'db_postgres', timestamp: new Date().toISOString() };
  const details = { query: `SELECT abalance FROM pgbench_accounts WHERE aid = ${(i * 7919) % 1_000_000};`, statement_type: 'SELECT', objects: ['pgbench_accounts'], object: 'pgbench_accounts', rows_affected: 1, duration_ms: 0.081, duration_us: 81, command_tag: 'SELECT 1' };
  return { id: head.id, type: head.type, database_id: head.database_id, json: serializeRecord(head, shared, details) };
}

async function measure(label: string, bus: MessageBus): Promise<number> {
  const spill = mkdtempSync(join(tmpdir(), 'bench-publish-'));
  let sends = 0;
  const sink = { publish: (batches: Parameters<MessageBus['publish']>[0]) => (sends++, bus.publish(batches)) };
  const capture = new CaptureBuffer({ sink, logger, maxRecords: 1_000_000, spillDir: spill, maxSpillBytes: 1e9, publishTimeoutMs: 30_000, failMode: () => 'open', ...(process.env.PUBLISH_LINGER_MS ? { lingerMs: Number(process.env.PUBLISH_LINGER_MS) } : {}), ...(process.env.PUBLISH_BATCH ? { batchSize: Number(process.env.PUBLISH_BATCH) } : {}) });
  capture.start();
  const perTick = Math.max(1, Math.round(rate / 1000));
  const cpu = process.cpuUsage();
  const started = Date.now();
  let added = 0;
  while (added < records) {
    for (let k = 0; k < perTick && added < records; k++) capture.add(record(added++));
    const due = started + (added / rate) * 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
  }
  await capture.stop(60_000);
  const used = process.cpuUsage(cpu);
  rmSync(spill, { recursive: true, force: true });
  const us = (used.user + used.system) / records;
  say(`${label}: ${capture.published} of ${records} records published in ${((Date.now() - started) / 1000).toFixed(1)} s (${sends} publishes, ${(capture.published / sends).toFixed(0)} records each), ${us.toFixed(1)} us CPU per record (user ${(used.user / records).toFixed(1)}, system ${(used.system / records).toFixed(1)})`);
  return us;
}

async function main() {
  say(`capture publishing cost: ${records} records of ${record(0).json.length} characters at ${rate}/s; load average ${formatLoadAverage()}`);
  // Warm-up (JIT) on the in-process bus.
  const warm = new MemoryBus();
  await warm.subscribe({ groupId: 'bench', topics: [Topics.auditIngest], handler: async () => undefined });
  const memory = new MemoryBus();
  await memory.subscribe({ groupId: 'bench', topics: [Topics.auditIngest], handler: async (messages) => void messages.forEach((m) => Buffer.from(m.value)) });
  const inProcess = process.env.PUBLISH_SINKS === 'kafka' ? Number.NaN : await measure('in-process bus', memory);
  const kafka = new KafkaBus({ brokers, clientId: 'vigil-pg-proxy', prefix: `bench-${randomBytes(4).toString('hex')}.`, logger, metrics: createMetricsRegistry('pg-proxy') });
  await kafka.ensureTopics(TopicSpecs.filter((t) => t.name === Topics.auditIngest));
  await kafka.publish([{ topic: Topics.auditIngest, messages: [{ key: 'warm', value: '{}', headers: {} }] }]);
  const onKafka = await measure('Kafka (KafkaBus)', kafka);
  const end = [...(await kafka.endOffsets(Topics.auditIngest)).values()].reduce((a, b) => a + b, 0n);
  say(`on the topic: ${end - 1n} records (plus one warm-up); the broker client costs ${(onKafka - inProcess).toFixed(1)} us per record beyond the in-process bus; load average ${formatLoadAverage()}`);
  await kafka.close();
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
