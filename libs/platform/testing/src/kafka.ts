import { randomBytes } from 'node:crypto';

/**
 * Brokers for the Kafka suites (tools/test-runner.mjs starts one or says loudly that it could not).
 * Each test uses its own topic prefix, so suites share the broker without sharing messages.
 */
export function testKafka(): { brokers: string[]; prefix: string } {
  const brokers = (process.env.TEST_KAFKA_BROKERS ?? process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
  return { brokers, prefix: `t${randomBytes(4).toString('hex')}-` };
}
