import { Topics } from '@vigil/contracts';
import { KafkaBus } from '@vigil/messaging';
import { createLogger } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnTs, type TestDatabase, testKafka, waitFor } from '@vigil/testing';

/**
 * SIGTERM while event-ingest consumes a stream: it finishes the batch in hand, commits its
 * offsets and exits 0; after a restart nothing is lost and nothing comes again.
 */
describe('event-ingest stopped with SIGTERM under load', () => {
  let db: TestDatabase;
  let producer: KafkaBus;
  let service: ChildService | undefined;
  let httpPort = 0;
  const kafka = testKafka();
  const total = 4000;

  beforeAll(async () => {
    db = await createTestDatabase();
    producer = new KafkaBus({ brokers: kafka.brokers, clientId: 'sigterm-test', prefix: kafka.prefix, logger: createLogger('test', 'warn') });
  });

  afterAll(async () => {
    await service?.kill();
    await producer?.close();
    await db?.drop();
  });

  async function start(): Promise<ChildService> {
    httpPort = await freePort();
    return spawnTs('apps/event-ingest/src/main.ts', {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      HOST: '127.0.0.1',
      PORT: String(httpPort),
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      INGEST_BATCH_SIZE: '100',
    });
  }

  const stored = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events`))[0]!.n;
  const redelivered = async () => {
    const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
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

    service = await start();
    await waitFor(async () => (await stored()) >= total, 150_000, 'all records stored');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stored()).toBe(total);
    // Offsets were committed on the way out: the new process was handed nothing twice.
    const again = await redelivered();
    if (again !== 0) process.stdout.write(`--- first process output ---\n${firstOutput.slice(-6000)}\n`);
    expect(again).toBe(0);
    expect(await service.stop()).toBe(0);
  }, 480_000);
});
