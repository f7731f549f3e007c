import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, SecretBox, StartRefused } from '@vigil/platform';
import { type IncomingMessage, KafkaBus, kafkaSecurityFromEnv } from '@vigil/messaging';
import { createTestDatabase, freePort, spawnTs, type TestDatabase, testKafka, testKafkaIsSecured, waitFor } from '@vigil/testing';

/**
 * Kafka over TLS with SASL against the real broker's SASL_SSL listener (`npm test` runs this suite,
 * with the messaging and the distributed end-to-end suites, in its SASL_SSL pass; scripts/kafka.sh
 * opens that listener with KAFKA_SASL_SSL_PORT).
 */
describe('Kafka over SASL_SSL', () => {
  const kafka = testKafka();
  const logger = createLogger('test', 'silent');
  const dir = mkdtempSync(join(tmpdir(), 'kafka-sasl-'));
  let db: TestDatabase;
  const buses: KafkaBus[] = [];
  const bus = (env: Record<string, string>, clientId = 'sasl-test') => {
    const created = new KafkaBus({ brokers: kafka.brokers, clientId, prefix: kafka.prefix, logger, security: kafkaSecurityFromEnv(env) });
    buses.push(created);
    return created;
  };

  beforeAll(async () => {
    if (!testKafkaIsSecured()) throw new Error('this suite runs on the SASL_SSL listener only: npm test runs it in its SASL_SSL pass (TEST_KAFKA_SSL and TEST_KAFKA_SASL_* unset)');
    db = await createTestDatabase();
  });

  afterAll(async () => {
    for (const b of buses) await b.close().catch(() => undefined);
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['scram-sha-256', 'scram-sha-512', 'plain'])('publishes and consumes with SASL %s over TLS', async (mechanism) => {
    const env = { ...kafka.env, KAFKA_SASL_MECHANISM: mechanism };
    const producer = bus(env, `sasl-${mechanism}`);
    await producer.verifyAccess();
    const topic = `sasl.${mechanism}`;
    await producer.ensureTopics([{ name: topic, partitions: 1 }]);
    const received: IncomingMessage[] = [];
    const consumer = bus(env, `sasl-${mechanism}-consumer`);
    await consumer.subscribe({ groupId: `g-${mechanism}`, topics: [topic], handler: async (messages) => void received.push(...messages) });
    await producer.publish([{ topic, messages: [{ key: 'k', value: `over ${mechanism}`, headers: {} }] }]);
    await waitFor(async () => received.length === 1, 30_000, `the message over ${mechanism}`);
    expect(received[0]!.value).toBe(`over ${mechanism}`);
  });

  it('refuses a wrong password with a start-up error that names the setting to check', async () => {
    await expect(bus({ ...kafka.env, KAFKA_SASL_PASSWORD: 'not-the-password' }).verifyAccess()).rejects.toThrow(StartRefused);
    await expect(bus({ ...kafka.env, KAFKA_SASL_PASSWORD: 'not-the-password' }).verifyAccess()).rejects.toThrow(
      /refused the SASL credentials \(TLS, SASL SCRAM-SHA-256 as [\w.-]+\).*Check KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
    );
  });

  it('refuses brokers whose certificate the configured CA does not sign', async () => {
    const otherCa = join(dir, 'other-ca.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'other-ca.key'), '-out', otherCa, '-days', '1', '-subj', '/CN=another CA'], { stdio: 'ignore' });
    await expect(bus({ ...kafka.env, KAFKA_SSL_CA_FILE: otherCa }).verifyAccess()).rejects.toThrow(/TLS certificate of the Kafka brokers .* is not trusted .*Check KAFKA_SSL_CA_FILE/);
  });

  it('a service given a wrong password exits at start with that message, and nothing else runs', async () => {
    const child = spawnTs('apps/policy/src/main.ts', {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      ...kafka.env,
      KAFKA_SASL_PASSWORD: 'not-the-password',
      // The policy service seals its snapshot signing key: everything else is in order.
      VIGIL_ENCRYPTION_KEYS: SecretBox.generateKey(),
      HOST: '127.0.0.1',
      PORT: '0',
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(await freePort()),
      LOG_FORMAT: 'json',
    });
    const code = await Promise.race([child.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 90_000))]);
    if (code === 'running') await child.kill();
    expect(code).toBe(1);
    expect(child.output()).toMatch(/policy: refusing to start: the Kafka brokers \S+ refused the SASL credentials/);
    expect(child.output()).not.toContain('not-the-password');
  }, 120_000);
});
