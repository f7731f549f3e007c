import { TopicSpecs } from '@vigil/contracts';
import { createLogger } from '@vigil/platform';
import { testKafka } from '@vigil/testing';
import { KafkaBus } from './kafka-bus';

const logger = createLogger('test', 'silent');

/**
 * Services start side by side and each makes sure the topics exist. Right after creation the
 * broker may still answer "does not host this topic-partition" for a while (its metadata lags the
 * creation); starting must wait that out rather than fail.
 */
describe('creating topics as several services start at once (real broker)', () => {
  it('creates every topic once, concurrently from several processes, each usable at once', async () => {
    for (let round = 0; round < 3; round++) {
      const kafka = testKafka();
      const buses = Array.from({ length: 4 }, (_, i) => new KafkaBus({ brokers: kafka.brokers, clientId: `topics-${i}`, prefix: kafka.prefix, logger }));
      try {
        await Promise.all(buses.map((bus) => bus.ensureTopics(TopicSpecs)));
        await Promise.all(buses.map((bus, i) => bus.publish(TopicSpecs.map((spec) => ({ topic: spec.name, messages: [{ key: `k${i}`, value: 'x', headers: {} }] })))));
      } finally {
        await Promise.all(buses.map((bus) => bus.close()));
      }
    }
  }, 180_000);
});
