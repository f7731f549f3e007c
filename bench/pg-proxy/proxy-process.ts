/**
 * The proxy for the benchmark, in its own process (as deployed): the real sessions, the shared
 * policy engine with 20 enabled policies of the benchmark's database, the masking catalog, and
 * capture of every statement through the bounded buffer onto
 *   - an in-process bus whose consumer encodes each record (the broker left out, so the figures
 *     are the proxy's own), or, with BENCH_KAFKA_BROKERS set,
 *   - the real Kafka broker through the KafkaBus of libs/platform/messaging, with the settings a
 *     deployed proxy uses (idempotent producer, acks from all in-sync replicas, audit.ingest with
 *     its 6 partitions), under a topic prefix of its own.
 * usage: proxy-process.ts <upstream url> <database> [<socket dir>]; with a socket directory the
 * server is reached through its Unix-domain socket (PROXY_UPSTREAM_SOCKET_DIR). Prints
 * `LISTENING <port> <enabled policies>`; on SIGTERM, `CAPTURED <n> DROPPED <n> MALFORMED <n>`
 * and, on Kafka, `ON_TOPIC <records on the topic>` after draining the buffer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TopicSpecs, Topics } from '@vigil/contracts';
import { KafkaBus, MemoryBus, type MessageBus } from '@vigil/messaging';
import { createLogger, createMetricsRegistry } from '@vigil/platform';
import { CaptureBuffer } from '../../apps/pg-proxy/src/capture/capture-buffer';
import { Enforcer } from '../../apps/pg-proxy/src/enforcement/enforcer';
import { Catalog } from '../../apps/pg-proxy/src/masking/catalog';
import { PolicyStore } from '../../apps/pg-proxy/src/policies/policy-store';
import { createProxyMetrics } from '../../apps/pg-proxy/src/proxy/proxy.metrics';
import { ProxyServer } from '../../apps/pg-proxy/src/proxy/proxy.server';
import { defaultDatabaseId } from '../../apps/pg-proxy/src/proxy/proxy.service';
import { socketPath } from '../../apps/pg-proxy/src/proxy/upstream';
import { Redactor } from '../../apps/pg-proxy/src/sql/redaction';
import { loadSqlParser, SqlAnalyzer } from '../../apps/pg-proxy/src/sql/sql-analyzer';
import { applyBenchPolicies } from './bench-policies';

async function main() {
  const [upstreamUrl, database, socketDir] = process.argv.slice(2) as [string, string, string | undefined];
  const upstream = new URL(upstreamUrl);
  await loadSqlParser();
  const logger = createLogger('pg-proxy', 'warn');
  const brokers = process.env.BENCH_KAFKA_BROKERS;
  let captured = 0;
  let malformed = 0;
  let bus: MessageBus;
  let kafka: KafkaBus | undefined;
  if (brokers) {
    kafka = new KafkaBus({ brokers: brokers.split(','), clientId: 'vigil-pg-proxy', prefix: `bench-${randomBytes(4).toString('hex')}.`, logger, metrics: createMetricsRegistry('pg-proxy') });
    await kafka.ensureTopics(TopicSpecs.filter((t) => t.name === Topics.auditIngest));
    bus = kafka;
  } else {
    const memory = new MemoryBus();
    // The consumer stands in for the broker client: each record is encoded to bytes as a producer
    // does, and one in BENCH_PARSE_EVERY (default 100) is parsed back to check it is a whole record.
    // Parsing every record is the ingest pipeline's work, in its own process; BENCH_PARSE_EVERY=1
    // charges it to this one as well.
    const parseEvery = Number(process.env.BENCH_PARSE_EVERY ?? 100);
    await memory.subscribe({
      groupId: 'bench',
      topics: [Topics.auditIngest],
      handler: async (messages) => {
        for (const m of messages) {
          if (!Buffer.from(m.value).length) malformed++;
          if (++captured % parseEvery === 0 && !JSON.parse(m.value).type) malformed++;
        }
      },
    });
    bus = memory;
  }
  const capture = new CaptureBuffer({ sink: bus, logger, maxRecords: 100_000, spillDir: mkdtempSync(join(tmpdir(), 'bench-spill-')), maxSpillBytes: 100_000_000, publishTimeoutMs: 5000, failMode: () => 'open' });
  capture.start();
  const store = new PolicyStore();
  const db = defaultDatabaseId(database);
  applyBenchPolicies(store, db);
  const metrics = createProxyMetrics(createMetricsRegistry('pg-proxy'), () => capture.depth);
  const server = new ProxyServer({
    host: '127.0.0.1',
    port: 0,
    config: { upstreamHost: upstream.hostname, upstreamPort: Number(upstream.port || 5432), upstreamSocket: socketDir ? socketPath(socketDir, Number(upstream.port || 5432)) : undefined, upstreamTls: 'disable', tlsMode: 'disabled', captureParameters: false, maskComputed: 'mask', redactor: new Redactor(), databaseId: defaultDatabaseId },
    enforcer: new Enforcer(store),
    analyzer: new SqlAnalyzer(),
    catalog: new Catalog({ host: socketDir ?? upstream.hostname, port: Number(upstream.port || 5432), user: decodeURIComponent(upstream.username || 'postgres'), password: decodeURIComponent(upstream.password) || undefined }),
    capture,
    metrics,
    logger,
    policiesReady: async () => true,
  });
  await server.listen();
  process.stdout.write(`LISTENING ${server.address.port} ${store.engine.enabledCount}\n`);
  process.on('SIGTERM', async () => {
    if (kafka) {
      // Every record reaches the broker before the count; what is on the topic is counted from its offsets.
      await server.stop(1000).catch(() => undefined);
      await capture.stop(30_000);
      const offsets = await kafka.endOffsets(Topics.auditIngest);
      const onTopic = [...offsets.values()].reduce((a, b) => a + b, 0n);
      process.stdout.write(`CAPTURED ${capture.published + capture.depth} DROPPED ${capture.dropped} MALFORMED n/a ON_TOPIC ${onTopic}\n`);
      await kafka.close();
    } else {
      process.stdout.write(`CAPTURED ${captured + capture.depth} DROPPED ${capture.dropped} MALFORMED ${malformed}\n`);
    }
    process.exit(0);
  });
}

void main();
