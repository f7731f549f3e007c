import { deadLetterTopic, MessageHeaders } from '@vigil/contracts';
import { createServiceDataSource, runMigrations } from '@vigil/database';
import { createLogger } from '@vigil/platform';
import { createTestDatabase, spawnTs, type TestDatabase, testKafka, waitFor } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import type { IncomingMessage } from './bus';
import { InboxConsumer } from './consumer';
import { consumerFixtureOptions, FIXTURE_SCHEMA, fixtureEnvelopes, fixtureMigrations } from './fixtures/messaging-fixture.shared';
import { KafkaBus } from './kafka-bus';
import { kafkaSecurityFromEnv } from './kafka-security';
import { OutboxRelay } from './outbox';

const FIXTURE = 'libs/platform/messaging/src/fixtures/messaging-fixture.ts';
const logger = createLogger('test', 'warn');

describe('messaging guarantees on a real Kafka broker', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let bus: KafkaBus;
  const kafka = testKafka();
  const env = () => ({ DATABASE_URL: db.url, KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_TOPIC_PREFIX: kafka.prefix, ...kafka.env });

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ url: db.url, schema: FIXTURE_SCHEMA, migrations: fixtureMigrations, poolSize: 5, applicationName: 'test' });
    await dataSource.initialize();
    await runMigrations(dataSource, FIXTURE_SCHEMA);
    bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'test', prefix: kafka.prefix, logger, security: kafkaSecurityFromEnv(kafka.env) });
    await bus.ensureTopics(
      ['relay', 'poison', 'redelivery'].flatMap((t) => [
        { name: `${t}.test.v1`, partitions: t === 'poison' ? 1 : 3 },
        { name: deadLetterTopic(`${t}.test.v1`), partitions: 1 },
      ]),
    );
  });

  afterAll(async () => {
    await bus?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  /** Everything on a topic, seen by a throwaway group that does nothing else. */
  async function tap(topic: string) {
    const seen: IncomingMessage[] = [];
    const subscription = await bus.subscribe({ groupId: `tap-${topic}-${Date.now()}`, topics: [topic], handler: async (m) => void seen.push(...m) });
    return { seen, stop: () => subscription.stop() };
  }

  async function effects(): Promise<{ message_id: string; applied: number }[]> {
    return dataSource.query(`SELECT message_id, applied FROM fixture.effects ORDER BY message_id`);
  }

  it('loses nothing and duplicates no effect when the process dies after commit and again after publish', async () => {
    const topic = 'relay.test.v1';
    const count = 60;
    const raw = await tap(topic);
    const consumer = new InboxConsumer({ bus, dataSource, schema: FIXTURE_SCHEMA, logger }, consumerFixtureOptions(topic, 'relay-effects'));
    await consumer.start();

    // 1. The state change and its messages commit; the process dies before anything is published.
    const writer = spawnTs(FIXTURE, { ...env(), FIXTURE_MODE: 'write-then-die', FIXTURE_TOPIC: topic, FIXTURE_COUNT: String(count) });
    await writer.exited;
    expect(writer.process.signalCode).toBe('SIGKILL');
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM fixture.outbox`)).toEqual([{ n: count }]);

    // 2. A relay publishes the batch to Kafka and dies before deleting the rows.
    const relayChild = spawnTs(FIXTURE, { ...env(), FIXTURE_MODE: 'relay-then-die' });
    await relayChild.exited;
    expect(relayChild.process.signalCode).toBe('SIGKILL');
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM fixture.outbox`)).toEqual([{ n: count }]);

    // 3. The next relay publishes them again and commits.
    const relay = new OutboxRelay({ dataSource, schema: FIXTURE_SCHEMA, bus, logger, pollMs: 50 });
    await relay.start();
    await waitFor(async () => (await dataSource.query(`SELECT count(*)::int AS n FROM fixture.outbox`))[0].n === 0, 30_000, 'outbox drained');
    await relay.stop();

    await waitFor(() => raw.seen.length >= 2 * count, 30_000, 'both publications on the topic');
    expect(raw.seen).toHaveLength(2 * count);
    expect(new Set(raw.seen.map((m) => m.headers[MessageHeaders.messageId])).size).toBe(count);
    const rows = await waitFor(async () => ((await effects()).length === count ? effects() : undefined), 30_000, 'every effect');
    expect(rows.every((r) => r.applied === 1)).toBe(true);
    await consumer.stop();
    await raw.stop();
  });

  it('dead-letters an invalid and a poison message with the reason, and does not block the partition', async () => {
    const topic = 'poison.test.v1';
    const dlq = await tap(deadLetterTopic(topic));
    const handled: number[] = [];
    const consumer = new InboxConsumer(
      { bus, dataSource, schema: FIXTURE_SCHEMA, logger },
      consumerFixtureOptions(topic, 'poison-effects', (ns) => handled.push(...ns)),
    );
    await consumer.start();
    const [ok1, ok2, poison, ok3] = fixtureEnvelopes(4, 1000);
    poison!.data.poison = true;
    const message = (envelope: typeof ok1) => ({ key: 'k', value: JSON.stringify(envelope), headers: { [MessageHeaders.messageId]: envelope!.id } });
    await bus.publish([
      {
        topic,
        messages: [message(ok1), { key: 'k', value: '{not json', headers: { [MessageHeaders.messageId]: 'broken-1' } }, message(ok2), message(poison), message(ok3)],
      },
    ]);

    await waitFor(() => dlq.seen.length >= 2, 30_000, 'two dead letters');
    await waitFor(async () => (await effects()).filter((e) => ['msg-1000', 'msg-1001', 'msg-1003'].includes(e.message_id)).length === 3, 30_000, 'valid messages applied');
    // In the order of their original offsets (invalid messages are dead-lettered after the batch's
    // valid ones are handled, so the topic's own order may differ).
    const dead = [...dlq.seen].sort((a, b) => Number(a.headers[MessageHeaders.deadLetterOffset]) - Number(b.headers[MessageHeaders.deadLetterOffset]));
    expect(dead.map((m) => m.headers[MessageHeaders.deadLetterReason])).toEqual(['value is not valid JSON', 'handler failed: poison message']);
    expect(dead[1]!.headers[MessageHeaders.deadLetterTopic]).toBe(topic);
    expect(dead[1]!.value).toBe(JSON.stringify(poison));

    // Offsets were committed past the bad messages: a new member of the group starts after them.
    await consumer.stop();
    handled.length = 0;
    const again = new InboxConsumer(
      { bus, dataSource, schema: FIXTURE_SCHEMA, logger },
      consumerFixtureOptions(topic, 'poison-effects', (ns) => handled.push(...ns)),
    );
    await again.start();
    const [ok4] = fixtureEnvelopes(1, 2000);
    await bus.publish([{ topic, messages: [message(ok4)] }]);
    await waitFor(() => handled.includes(2000), 30_000, 'the next message');
    expect(handled).toEqual([2000]);
    await again.stop();
    await dlq.stop();
  });

  it('makes redelivery harmless: a consumer killed after its commit but before its offset commit changes nothing twice', async () => {
    const topic = 'redelivery.test.v1';
    const count = 40;
    const envelopes = fixtureEnvelopes(count, 3000);
    const child = spawnTs(FIXTURE, { ...env(), FIXTURE_MODE: 'consume-then-die', FIXTURE_TOPIC: topic, FIXTURE_GROUP: 'redelivery-effects' });
    await bus.publish([
      { topic, messages: envelopes.map((e) => ({ key: e.key, value: JSON.stringify(e), headers: { [MessageHeaders.messageId]: e.id } })) },
    ]);
    await child.exited;
    expect(child.process.signalCode).toBe('SIGKILL');
    const appliedByChild = (await effects()).filter((e) => e.message_id >= 'msg-3000' && e.message_id < 'msg-4000').length;
    expect(appliedByChild).toBeGreaterThan(0);

    const consumer = new InboxConsumer({ bus, dataSource, schema: FIXTURE_SCHEMA, logger }, consumerFixtureOptions(topic, 'redelivery-effects'));
    await consumer.start();
    const ours = async () => (await effects()).filter((e) => envelopes.some((x) => x.id === e.message_id));
    const rows = await waitFor(async () => ((await ours()).length === count ? ours() : undefined), 40_000, 'all effects');
    expect(rows.every((r) => r.applied === 1)).toBe(true);
    await consumer.stop();
  });
});
