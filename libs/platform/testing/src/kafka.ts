import { randomBytes } from 'node:crypto';

/** The client settings a Kafka suite passes on to what it starts (services, fixtures, buses). */
export interface TestKafka {
  brokers: string[];
  prefix: string;
  /**
   * KAFKA_SSL*, KAFKA_SASL_* for the brokers: empty on the plaintext listener; on the SASL_SSL pass
   * of `npm test` (tools/test-runner.mjs) the CA, mechanism and credentials of that listener.
   */
  env: Record<string, string>;
}

const SECURITY_VARIABLES = ['KAFKA_SSL', 'KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE', 'KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'];

/**
 * Brokers for the Kafka suites (tools/test-runner.mjs starts one or says loudly that it could not).
 * Each test uses its own topic prefix, so suites share the broker without sharing messages.
 */
export function testKafka(): TestKafka {
  const brokers = (process.env.TEST_KAFKA_BROKERS ?? process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
  const env: Record<string, string> = {};
  for (const name of SECURITY_VARIABLES) {
    const value = process.env[`TEST_${name}`];
    if (value) env[name] = value;
  }
  return { brokers, prefix: `t${randomBytes(4).toString('hex')}-`, env };
}

/** True on the SASL_SSL pass: the suites then talk to the brokers over TLS with SASL. */
export function testKafkaIsSecured(): boolean {
  return Boolean(process.env.TEST_KAFKA_SASL_MECHANISM && process.env.TEST_KAFKA_SSL);
}
