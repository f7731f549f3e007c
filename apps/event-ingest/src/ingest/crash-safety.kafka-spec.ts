import { Topics } from '@vigil/contracts';
import { KafkaBus } from '@vigil/messaging';
import { createLogger, SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnPolicyService, spawnTs, type TestDatabase, testKafka, waitFor } from '@vigil/testing';

/** One key for every start of the service in this file: it seals the checkpoint signing key. */
const ENCRYPTION_KEY = SecretBox.generateKey();

/**
 * event-ingest as its own process, killed with SIGKILL while it consumes audit.ingest: after a
 * restart every record is stored, and none twice.
 */
describe('event-ingest killed mid-flight', () => {
  let db: TestDatabase;
  let producer: KafkaBus;
  let service: ChildService | undefined;
  /** event-ingest stores no record before it has loaded the policies from the policy service. */
  let policy: (ChildService & { rpcAddress: string }) | undefined;
  const kafka = testKafka();
  const total = 3000;

  beforeAll(async () => {
    db = await createTestDatabase();
    policy = await spawnPolicyService({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix, VIGIL_ENCRYPTION_KEYS: ENCRYPTION_KEY });
    producer = new KafkaBus({ brokers: kafka.brokers, clientId: 'crash-test', prefix: kafka.prefix, logger: createLogger('test', 'warn') });
  }, 180_000);

  afterAll(async () => {
    await service?.kill();
    await policy?.kill();
    await producer?.close();
    await db?.drop();
  });

  async function start(): Promise<ChildService> {
    const child = spawnTs('apps/event-ingest/src/main.ts', {
      VIGIL_ENCRYPTION_KEYS: ENCRYPTION_KEY,
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      POLICY_RPC_ADDRESS: policy!.rpcAddress,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      INGEST_BATCH_SIZE: '100',
    });
    child.exited.then((code) => {
      if (code !== null && code !== 0) process.stderr.write(child.output().slice(-2000));
    });
    return child;
  }

  const stored = async () =>
    (await db.query<{ rows: number; ids: number }>(`SELECT count(*)::int AS rows, count(DISTINCT producer_id)::int AS ids FROM event_ingest.events WHERE producer_id LIKE 'crash-%'`))[0]!;

  it('stores every record exactly once across a SIGKILL and a restart', async () => {
    service = await start();
    // The service creates its topics; publish once they exist.
    await waitFor(async () => {
      await producer.publish([{ topic: Topics.auditIngest, messages: [] }]);
      return (await db.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'event_ingest' AND table_name = 'producer_ids'`)).length === 1;
    }, 150_000, 'event-ingest migrated');

    const records = Array.from({ length: total }, (_, i) => ({
      key: `db_crash_${i % 6}`,
      value: JSON.stringify({ id: `crash-${i}`, type: 'database.query', database_id: `db_crash_${i % 6}`, details: { user: `u${i % 17}`, query: `SELECT ${i}` } }),
      headers: {},
    }));
    for (let i = 0; i < total; i += 250) await producer.publish([{ topic: Topics.auditIngest, messages: records.slice(i, i + 250) }]);

    // Kill it part-way through: some records stored, some not yet.
    await waitFor(async () => (await stored()).rows > 0, 150_000, 'first records stored').catch((error) => {
      throw new Error(`${error.message}\n--- event-ingest output ---\n${service?.output().slice(-4000)}`);
    });
    await service.kill();
    const atKill = await stored();
    process.stdout.write(`crash-safety: ${atKill.rows} of ${total} stored when killed\n`);
    // Killed mid-flight, not after the fact.
    expect(atKill.rows).toBeLessThan(total);

    service = await start();
    await waitFor(async () => (await stored()).rows >= total, 150_000, 'all records stored');
    // Redeliveries would be consumed before anything published after them on the same partition:
    // one marker per key sits behind that key's records, so once every marker is stored, every
    // redelivered copy has been consumed (and stored, if it was going to be stored twice).
    // Fails when a redelivered record is stored again (checked by committing no offsets and turning
    // off the log-position and producer-id checks: 3100 rows for 3000 records).
    const keys = [...new Set(records.map((r) => r.key))];
    const markers = keys.map((key, i) => ({ key, value: JSON.stringify({ id: `marker-${i}`, type: 'database.query', database_id: key }), headers: {} }));
    await producer.publish([{ topic: Topics.auditIngest, messages: markers }]);
    const markersStored = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE producer_id LIKE 'marker-%'`))[0]!.n;
    await waitFor(async () => (await markersStored()) === markers.length, 60_000, 'the markers behind the records');
    expect(await stored()).toEqual({ rows: total, ids: total });
    // Every stored event is announced: the outbox drains.
    await waitFor(async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.outbox`))[0]!.n === 0, 30_000, 'outbox drained');
    expect(await service.stop()).toBe(0);
  }, 480_000);
});
