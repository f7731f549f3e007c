import { deadLetterTopic, Topics } from '@vigil/contracts';
import { KafkaBus } from '@vigil/messaging';
import { createLogger, SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnPolicyService, spawnTs, startTcpProxy, type TcpProxy, type TestDatabase, testKafka, waitFor } from '@vigil/testing';

/** One key for every start of the service in this file: it seals the checkpoint signing key. */
const ENCRYPTION_KEY = SecretBox.generateKey();

/**
 * event-ingest as its own process, consuming audit.ingest while its PostgreSQL becomes unreachable
 * for some seconds (its connections go through a TCP proxy the test cuts; the server is untouched):
 * nothing is dead-lettered, and after recovery every record is stored once.
 */
describe('event-ingest with its database unreachable (real broker)', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let bus: KafkaBus;
  let service: ChildService | undefined;
  /** event-ingest stores no record before it has loaded the policies from the policy service. */
  let policy: (ChildService & { rpcAddress: string }) | undefined;
  const kafka = testKafka();
  const total = 1200;
  const group = 'event-ingest.audit-ingest';

  beforeAll(async () => {
    db = await createTestDatabase();
    policy = await spawnPolicyService({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix, VIGIL_ENCRYPTION_KEYS: ENCRYPTION_KEY });
    const target = new URL(db.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'outage-test', prefix: kafka.prefix, logger: createLogger('test', 'fatal') });
  }, 180_000);

  afterAll(async () => {
    await service?.kill();
    await policy?.kill();
    await bus?.close();
    await proxy?.close();
    await db?.drop();
  });

  const stored = async () =>
    // The records sent here only, not Vigil's own events stored beside them (audit.checkpoint of the verifiable log).
    (await db.query<{ rows: number; ids: number }>(`SELECT count(*)::int AS rows, count(DISTINCT producer_id)::int AS ids FROM event_ingest.events WHERE producer_id LIKE 'outage-%'`))[0]!;

  it('dead-letters nothing and stores every record exactly once after the database comes back', async () => {
    const url = new URL(db.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    service = spawnTs('apps/event-ingest/src/main.ts', {
      VIGIL_ENCRYPTION_KEYS: ENCRYPTION_KEY,
      DATABASE_URL: url.toString(),
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      POLICY_RPC_ADDRESS: policy!.rpcAddress,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      INGEST_BATCH_SIZE: '50',
    });
    await waitFor(async () => {
      await bus.publish([{ topic: Topics.auditIngest, messages: [] }]);
      return (await db.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'event_ingest' AND table_name = 'producer_ids'`)).length === 1;
    }, 150_000, 'event-ingest migrated');

    const records = Array.from({ length: total }, (_, i) => ({
      key: `db_outage_${i % 6}`,
      value: JSON.stringify({ id: `outage-${i}`, type: 'database.query', database_id: `db_outage_${i % 6}`, details: { user: `u${i % 17}`, query: `SELECT ${i}` } }),
      headers: {},
    }));
    // A steady stream, cut part-way through.
    let published = 0;
    const publishing = (async () => {
      while (published < total) {
        await bus.publish([{ topic: Topics.auditIngest, messages: records.slice(published, published + 60) }]);
        published += 60;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await waitFor(async () => (await stored()).rows > 0, 150_000, 'first records stored');
    proxy.cut();
    const cutAt = Date.now();
    await waitFor(() => proxy.refused >= 5 && Date.now() - cutAt >= 5_000, 60_000, 'event-ingest refused by its database');
    const atRestore = await stored();
    proxy.restore();
    await publishing;
    expect(atRestore.rows).toBeLessThan(total);

    // Caught up: the group has committed every partition to its end.
    await waitFor(
      async () => {
        const [end, committed] = await Promise.all([bus.endOffsets(Topics.auditIngest), bus.committedOffsets(group, Topics.auditIngest)]);
        return [...end].every(([partition, high]) => high === 0n || committed.get(partition) === high);
      },
      90_000,
      'audit.ingest consumed to its end',
    ).catch(async (error) => {
      const [end, committed] = await Promise.all([bus.endOffsets(Topics.auditIngest), bus.committedOffsets(group, Topics.auditIngest)]);
      const log = service!.output().split('\n').filter((line) => !line.includes('policy-cache')).join('\n').slice(-6000);
      throw new Error(`${error.message}; stored ${JSON.stringify(await stored())}, end ${[...end]}, committed ${[...committed]}\n--- event-ingest output ---\n${log}`);
    });
    expect(service.process.exitCode).toBeNull();
    expect(await stored()).toEqual({ rows: total, ids: total });
    // Nothing dead-lettered: the dead-letter topic's end offsets are all 0 (offsets are committed
    // only after the dead letters of a batch are acknowledged, so none can still be on their way).
    expect([...(await bus.endOffsets(deadLetterTopic(Topics.auditIngest))).values()].every((high) => high === 0n)).toBe(true);
  }, 300_000);
});
