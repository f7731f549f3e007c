import { spawnTs, testKafka } from '@vigil/testing';

describe('kafkajs internals replaced in a service process (real broker)', () => {
  it('are installed before kafkajs loads, and the broker accepts the batches they checksum', async () => {
    const kafka = testKafka();
    const child = spawnTs('libs/platform/messaging/src/fixtures/kafkajs-internals-fixture.ts', {
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
    });
    const code = await child.exited;
    const output = child.output();
    expect({ code, output: code === 0 ? 'ok' : output }).toEqual({ code: 0, output: 'ok' });
    const summary = JSON.parse(output.trim().split('\n').pop()!);
    expect(summary).toEqual({ replaced: true, groupingInstalled: true, crcInstalled: true, encoderInstalled: true, received: 3000 });
  }, 90_000);
});
