import { createLogger, Registry } from '@vigil/platform';
import { testKafka, waitFor } from '@vigil/testing';
import type { Subscription } from './bus';
import { KafkaBus } from './kafka-bus';

const logger = createLogger('test', 'warn');
const TOPIC = 'lag.test.v1';
const GROUP = 'lag-test';

/** vigil_consumer_lag of one group on the test topic, by partition, as a registry reports it. */
async function lagOf(registry: Registry, group = GROUP): Promise<Map<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'vigil_consumer_lag');
  return new Map((metric?.values ?? []).filter((v) => v.labels.group === group && v.labels.topic === TOPIC).map((v) => [String(v.labels.partition), v.value]));
}

/** Partitions for which a registry reports vigil_consumer_lag of the test group. */
async function lagPartitions(registry: Registry): Promise<string[]> {
  return [...(await lagOf(registry)).keys()].sort();
}

/**
 * Two replicas of one consumer group, each with its own metrics registry, as two pods. The lag of
 * a partition must be reported only by the replica that holds it: a replica that lost a partition
 * in a rebalance kept reporting the lag of its last batch there, forever, which alerts on lag read
 * as a stuck consumer (deploy/monitoring).
 */
describe('vigil_consumer_lag across a rebalance (real Kafka)', () => {
  const kafka = testKafka();
  const registries = [new Registry(), new Registry()];
  const buses = registries.map((metrics, i) => new KafkaBus({ brokers: kafka.brokers, clientId: `lag-test-${i}`, prefix: kafka.prefix, logger, metrics }));
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    await buses[0]!.ensureTopics([{ name: TOPIC, partitions: 2 }]);
  });

  afterAll(async () => {
    for (const s of subscriptions) await s.stop().catch(() => undefined);
    for (const b of buses) await b.close();
  });

  const publish = (n: number, from = 0) =>
    buses[0]!.publish([{ topic: TOPIC, messages: Array.from({ length: n }, (_, i) => ({ key: `k${from + i}`, value: `m${from + i}`, headers: {} })) }]);

  it('is reported only by the replica holding the partition, and no more once a replica stops', async () => {
    const seen = [new Set<string>(), new Set<string>()];
    const subscribe = async (i: number) => {
      const s = await buses[i]!.subscribe({ groupId: GROUP, topics: [TOPIC], handler: async (messages) => void messages.forEach((m) => seen[i]!.add(String(m.partition))) });
      subscriptions.push(s);
      return s;
    };

    // One replica: it holds both partitions and reports both.
    await publish(20);
    await subscribe(0);
    await waitFor(async () => (await lagPartitions(registries[0]!)).length === 2, 30_000, 'replica 0 reports both partitions');

    // A second replica joins: each keeps one partition, and replica 0 stops reporting the other.
    const second = await subscribe(1);
    await waitFor(async () => (await lagPartitions(registries[0]!)).length === 1, 30_000, 'replica 0 reports only the partition it kept');
    await waitFor(
      async () => {
        await publish(10, 1000 + Date.now() % 1000);
        return (await lagPartitions(registries[1]!)).length === 1;
      },
      30_000,
      'replica 1 reports the partition it received',
    );
    const [kept, received] = [await lagPartitions(registries[0]!), await lagPartitions(registries[1]!)];
    expect([...kept, ...received].sort()).toEqual(['0', '1']);

    // Replica 1 stops: it reports nothing, and replica 0, holding both again, reports both.
    await second.stop();
    expect(await lagPartitions(registries[1]!)).toEqual([]);
    await waitFor(
      async () => {
        await publish(10, 2000 + Date.now() % 1000);
        return (await lagPartitions(registries[0]!)).length === 2;
      },
      30_000,
      'replica 0 reports both partitions again',
    );
  });
  it('counts the messages of a batch in hand, so a consumer that hangs shows lag that stops moving', async () => {
    const group = 'lag-test-hung';
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const subscription = await buses[1]!.subscribe({
      groupId: group,
      topics: [TOPIC],
      maxBatchSize: 5,
      handler: async () => {
        calls++;
        await hung;
      },
    });
    subscriptions.push(subscription);
    try {
      // Every partition already holds messages from the test above: the first chunk hangs.
      await waitFor(async () => [...(await lagOf(registries[1]!, group)).values()].some((v) => v > 0), 30_000, 'lag reported for the batch in hand');
      expect(calls).toBeGreaterThan(0);
      const before = await lagOf(registries[1]!, group);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await lagOf(registries[1]!, group)).toEqual(before);
    } finally {
      release();
      await subscription.stop();
    }
    expect((await lagOf(registries[1]!, group)).size).toBe(0);
  });
});
