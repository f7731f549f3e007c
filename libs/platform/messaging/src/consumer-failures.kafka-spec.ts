import { deadLetterTopic, MessageHeaders } from '@vigil/contracts';
import { createServiceDataSource, runMigrations } from '@vigil/database';
import { createLogger } from '@vigil/platform';
import { createTestDatabase, startTcpProxy, type TcpProxy, type TestDatabase, testKafka, waitFor } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import type { IncomingMessage } from './bus';
import { InboxConsumer } from './consumer';
import { consumerFixtureOptions, FIXTURE_SCHEMA, fixtureEnvelopes, fixtureMigrations } from './fixtures/messaging-fixture.shared';
import { KafkaBus } from './kafka-bus';

const logger = createLogger('test', 'fatal');

/**
 * The inbox consumer's failure paths on a real broker and a real PostgreSQL: the database going
 * away under a consumer (nothing dead-lettered, everything applied once after), and a batch that
 * keeps failing because of one message (retried, isolated, the message dead-lettered with its
 * reason, offsets committed past it and nothing before it applied again).
 */
describe('inbox consumer failures on a real Kafka broker and PostgreSQL', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let bus: KafkaBus;
  const kafka = testKafka();
  const topics = { outage: 'outage.test.v1', retry: 'retry.test.v1' };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ url: db.url, schema: FIXTURE_SCHEMA, migrations: fixtureMigrations, poolSize: 3, applicationName: 'test' });
    await dataSource.initialize();
    await runMigrations(dataSource, FIXTURE_SCHEMA);
    bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'test', prefix: kafka.prefix, logger });
    await bus.ensureTopics([
      { name: topics.outage, partitions: 3 },
      { name: deadLetterTopic(topics.outage), partitions: 1 },
      { name: topics.retry, partitions: 1 },
      { name: deadLetterTopic(topics.retry), partitions: 1 },
    ]);
  });

  afterAll(async () => {
    await bus?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  const message = (e: ReturnType<typeof fixtureEnvelopes>[number]) => ({ key: e.key, value: JSON.stringify(e), headers: { [MessageHeaders.messageId]: e.id } });

  async function effects(from: number, to: number): Promise<{ message_id: string; applied: number }[]> {
    const rows: { message_id: string; applied: number }[] = await dataSource.query(`SELECT message_id, applied FROM fixture.effects ORDER BY message_id`);
    return rows.filter((r) => {
      const n = Number(r.message_id.slice('msg-'.length));
      return n >= from && n < to;
    });
  }

  /** Until the group has committed every partition of `topic` that holds messages up to its end offset. */
  async function caughtUp(groupId: string, topic: string, timeoutMs = 60_000) {
    return waitFor(
      async () => {
        const [end, committed] = await Promise.all([bus.endOffsets(topic), bus.committedOffsets(groupId, topic)]);
        return [...end].every(([partition, high]) => high === 0n || committed.get(partition) === high) ? end : undefined;
      },
      timeoutMs,
      `${groupId} committed to the end of ${topic}`,
    );
  }

  /** Every message of a topic, read up to the end offsets it has now (none when they are all 0). */
  async function readToEnd(topic: string): Promise<IncomingMessage[]> {
    const end = await bus.endOffsets(topic);
    const last = new Map([...end].filter(([, high]) => high > 0n).map(([partition, high]) => [partition, high - 1n]));
    if (!last.size) return [];
    const seen: IncomingMessage[] = [];
    const reached = new Set<number>();
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    const subscription = await bus.subscribe({
      groupId: `read-${topic}-${Date.now()}`,
      topics: [topic],
      handler: async (messages) => {
        for (const m of messages) {
          if (BigInt(m.offset) > (last.get(m.partition) ?? -1n)) continue;
          seen.push(m);
          if (BigInt(m.offset) === last.get(m.partition)) reached.add(m.partition);
        }
        if (reached.size === last.size) done();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([all, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${topic} not read to its end offsets`)), 30_000)))]);
    } finally {
      clearTimeout(timer);
      await subscription.stop();
    }
    return seen;
  }

  describe('PostgreSQL unreachable while messages flow', () => {
    let proxy: TcpProxy;
    let consumerDataSource: DataSource;

    beforeAll(async () => {
      // The consumer reaches PostgreSQL through a proxy the test can cut; the server is untouched.
      const target = new URL(db.url);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      const url = new URL(db.url);
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      consumerDataSource = createServiceDataSource({ url: url.toString(), schema: FIXTURE_SCHEMA, migrations: fixtureMigrations, poolSize: 3, applicationName: 'outage-consumer' });
      await consumerDataSource.initialize();
    });

    afterAll(async () => {
      proxy?.restore();
      await consumerDataSource?.destroy();
      await proxy?.close();
    });

    it('dead-letters nothing, holds the batches uncommitted, and applies every message exactly once after recovery', async () => {
      const total = 300;
      const envelopes = fixtureEnvelopes(total, 10_000);
      // The documented default: 4 attempts of a batch before the database is checked.
      const consumer = new InboxConsumer({ bus, dataSource: consumerDataSource, schema: FIXTURE_SCHEMA, logger }, { ...consumerFixtureOptions(topics.outage, 'outage-effects'), maxAttempts: undefined });
      await consumer.start();

      // A steady stream: 15 messages every 100 ms, over all three partitions.
      let published = 0;
      const publishing = (async () => {
        while (published < total) {
          const next = envelopes.slice(published, published + 15);
          await bus.publish([{ topic: topics.outage, messages: next.map(message) }]);
          published += next.length;
          await new Promise((r) => setTimeout(r, 100));
        }
      })();

      await waitFor(async () => (await effects(10_000, 20_000)).length > 0, 30_000, 'the first effects');
      proxy.cut();
      const atCut = published;
      // Down until the consumer has been refused several times and at least 5 s have passed.
      const cutAt = Date.now();
      await waitFor(() => proxy.refused >= 5 && Date.now() - cutAt >= 5_000, 60_000, 'the consumer refused by the database');
      const appliedDuringOutage = (await effects(10_000, 20_000)).length;
      const publishedDuringOutage = published - atCut;
      proxy.restore();
      await publishing;

      await caughtUp('outage-effects', topics.outage, 90_000);
      await consumer.stop();

      // Messages were waiting while the database was away, and flowed in the meantime.
      expect(publishedDuringOutage).toBeGreaterThan(0);
      expect(appliedDuringOutage).toBeLessThan(total);
      // Nothing dead-lettered: the dead-letter topic is empty up to its end offset.
      expect([...(await bus.endOffsets(deadLetterTopic(topics.outage))).values()]).toEqual([0n]);
      expect(await readToEnd(deadLetterTopic(topics.outage))).toEqual([]);
      // Every message's effect exactly once; the inbox holds each id once.
      const rows = await effects(10_000, 20_000);
      expect(rows).toHaveLength(total);
      expect(rows.filter((r) => r.applied !== 1)).toEqual([]);
      const [inbox] = await dataSource.query(`SELECT count(*)::int AS total, count(DISTINCT message_id)::int AS distinct FROM fixture.inbox WHERE consumer = 'outage-effects'`);
      expect(inbox).toEqual({ total, distinct: total });
    }, 180_000);
  });

  it('retries a failing batch 4 times, then each message alone twice, dead-letters the poison one with its reason, and commits past it', async () => {
    const calls: number[][] = [];
    const options = () => ({ ...consumerFixtureOptions(topics.retry, 'retry-effects', (ns) => calls.push(ns)), maxAttempts: undefined });
    const consumer = new InboxConsumer({ bus, dataSource, schema: FIXTURE_SCHEMA, logger }, options());
    await consumer.start();

    // Two messages applied and committed before the poison one arrives.
    await bus.publish([{ topic: topics.retry, messages: fixtureEnvelopes(2, 20_000).map(message) }]);
    await caughtUp('retry-effects', topics.retry);
    expect(calls).toEqual([[20_000, 20_001]]);
    calls.length = 0;

    // One batch (one produce, one partition): offsets 2..6, the poison at offset 4.
    const batch = fixtureEnvelopes(5, 20_002);
    batch[2]!.data.poison = true;
    await bus.publish([{ topic: topics.retry, messages: batch.map(message) }]);
    const end = await caughtUp('retry-effects', topics.retry);
    expect([...end]).toEqual([[0, 7n]]);

    const whole = [20_002, 20_003, 20_004, 20_005, 20_006];
    expect(calls).toEqual([whole, whole, whole, whole, [20_002], [20_003], [20_004], [20_004], [20_005], [20_006]]);

    const dead = await readToEnd(deadLetterTopic(topics.retry));
    expect(dead).toHaveLength(1);
    expect(dead[0]!.value).toBe(JSON.stringify(batch[2]));
    expect(dead[0]!.key).toBe(batch[2]!.key);
    expect(dead[0]!.headers).toMatchObject({
      [MessageHeaders.deadLetterReason]: 'handler failed: poison message',
      [MessageHeaders.deadLetterTopic]: topics.retry,
      [MessageHeaders.deadLetterPartition]: '0',
      [MessageHeaders.deadLetterOffset]: '4',
      [MessageHeaders.deadLetterConsumer]: 'retry-effects',
      [MessageHeaders.messageId]: batch[2]!.id,
    });
    expect(await effects(20_000, 30_000)).toEqual(
      [20_000, 20_001, 20_002, 20_003, 20_005, 20_006].map((n) => ({ message_id: `msg-${n}`, applied: 1 })),
    );

    // A new member of the group starts after the poison message: nothing before it comes again.
    await consumer.stop();
    calls.length = 0;
    const again = new InboxConsumer({ bus, dataSource, schema: FIXTURE_SCHEMA, logger }, options());
    await again.start();
    await bus.publish([{ topic: topics.retry, messages: fixtureEnvelopes(1, 20_007).map(message) }]);
    await caughtUp('retry-effects', topics.retry);
    await again.stop();
    expect(calls).toEqual([[20_007]]);
    expect(await readToEnd(deadLetterTopic(topics.retry))).toHaveLength(1);
  }, 120_000);
});
