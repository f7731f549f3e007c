import { Topics } from '@vigil/contracts';
import { KafkaBus } from '@vigil/messaging';
import { createLogger, SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnPolicyService, spawnTs, type TestDatabase, testKafka, waitFor } from '@vigil/testing';

/** One key for every start of the service in this file: it seals the checkpoint signing key. */
const ENCRYPTION_KEY = SecretBox.generateKey();

/**
 * SIGTERM while event-ingest consumes a stream: it finishes the batch in hand, commits its
 * offsets and exits 0; after a restart nothing is lost and nothing comes again.
 *
 * Fails when the batch in hand at SIGTERM is not committed on the way out (checked by returning
 * from KafkaBus's eachBatch before the commit once the consumer is stopping: the restarted process
 * was handed that batch again, duplicates > 0). Fails when nothing was in flight at the signal
 * (checked by sending SIGTERM only once all records were stored).
 */
describe('event-ingest stopped with SIGTERM under load', () => {
  let db: TestDatabase;
  let producer: KafkaBus;
  let service: ChildService | undefined;
  /** event-ingest stores no record before it has loaded the policies from the policy service. */
  let policy: (ChildService & { rpcAddress: string }) | undefined;
  let httpPort = 0;
  let metricsPort = 0;
  const kafka = testKafka();
  const total = 4000;

  beforeAll(async () => {
    db = await createTestDatabase();
    policy = await spawnPolicyService({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix, VIGIL_ENCRYPTION_KEYS: ENCRYPTION_KEY });
    producer = new KafkaBus({ brokers: kafka.brokers, clientId: 'sigterm-test', prefix: kafka.prefix, logger: createLogger('test', 'warn') });
  }, 180_000);

  afterAll(async () => {
    await service?.kill();
    await policy?.kill();
    await producer?.close();
    await db?.drop();
  });

  async function start(): Promise<ChildService> {
    httpPort = await freePort();
    metricsPort = await freePort();
    return spawnTs('apps/event-ingest/src/main.ts', {
      VIGIL_ENCRYPTION_KEYS: ENCRYPTION_KEY,
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      POLICY_RPC_ADDRESS: policy!.rpcAddress,
      HOST: '127.0.0.1',
      PORT: String(httpPort),
      METRICS_PORT: String(metricsPort),
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      INGEST_BATCH_SIZE: '100',
    });
  }

  const stored = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE producer_id LIKE 'term-%'`))[0]!.n;
  const redelivered = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('vigil_consumer_messages_total{') && l.includes('outcome="duplicate"'));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('finishes in-flight work, commits offsets, exits 0, and resumes exactly where it stopped', async () => {
    service = await start();
    await waitFor(async () => (await fetch(`http://127.0.0.1:${httpPort}/health/ready`)).status === 200, 150_000, 'event-ingest ready');
    const records = Array.from({ length: total }, (_, i) => ({
      key: `db_term_${i % 6}`,
      value: JSON.stringify({ id: `term-${i}`, type: 'database.query', database_id: `db_term_${i % 6}` }),
      headers: {},
    }));
    for (let i = 0; i < total; i += 500) await producer.publish([{ topic: Topics.auditIngest, messages: records.slice(i, i + 500) }]);

    await waitFor(async () => (await stored()) > 0, 150_000, 'first records stored');
    const first = service;
    expect(await service.stop()).toBe(0);
    const atStop = await stored();
    const firstOutput = first.output();
    process.stdout.write(`graceful-shutdown: ${atStop} of ${total} stored at SIGTERM\n`);
    // The signal came under load: records the broker had accepted were not stored yet when the
    // process exited, so they were not stored at the signal either (the count only grows).
    expect(atStop).toBeGreaterThan(0);
    expect(atStop).toBeLessThan(total);

    service = await start();
    await waitFor(async () => (await stored()) >= total, 150_000, 'all records stored');
    // One marker per key, published after everything else: it lands behind that key's records on
    // their partition, so once every marker is stored the consumer has been through every copy of
    // every record (and counted any it was handed twice).
    const keys = [...new Set(records.map((r) => r.key))];
    const markers = keys.map((key, i) => ({ key, value: JSON.stringify({ id: `marker-${i}`, type: 'database.query', database_id: key }), headers: {} }));
    await producer.publish([{ topic: Topics.auditIngest, messages: markers }]);
    const markersStored = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE producer_id LIKE 'marker-%'`))[0]!.n;
    await waitFor(async () => (await markersStored()) === markers.length, 60_000, 'the markers behind the records');
    // Every record stored exactly once: as many rows as records, each producer id once.
    const [counts] = await db.query<{ rows: number; ids: number }>(
      `SELECT count(*)::int AS rows, count(DISTINCT producer_id)::int AS ids FROM event_ingest.events WHERE producer_id LIKE 'term-%'`,
    );
    expect(counts).toEqual({ rows: total, ids: total });
    // Offsets were committed on the way out: the new process was handed nothing twice.
    const again = await redelivered();
    if (again !== 0) process.stdout.write(`--- first process output ---\n${firstOutput.slice(-6000)}\n`);
    expect(again).toBe(0);
    expect(await service.stop()).toBe(0);
  }, 480_000);
});
