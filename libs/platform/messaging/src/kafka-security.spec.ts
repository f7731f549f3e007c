import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@vigil/platform';
import { describeKafkaSecurity, kafkaSecurityFromEnv } from './kafka-security';
import { kafkaAccessProblem } from './kafka-bus';

const dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
const ca = join(dir, 'ca.pem');
const key = join(dir, 'client.key');
const notPem = join(dir, 'notes.txt');
writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
writeFileSync(notPem, 'hello');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problems(env: Record<string, string>) {
  try {
    kafkaSecurityFromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('Kafka client security settings', () => {
  it('is plaintext without settings, and TLS with the CA and SASL when given', () => {
    expect(kafkaSecurityFromEnv({})).toEqual({});
    const security = kafkaSecurityFromEnv({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca, KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'vigil', KAFKA_SASL_PASSWORD: 's3cret' });
    expect(security.ssl).toEqual({ rejectUnauthorized: true, ca: [expect.stringContaining('BEGIN CERTIFICATE')] });
    expect(security.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'vigil', password: 's3cret' });
    expect(describeKafkaSecurity(security)).toBe('TLS, SASL SCRAM-SHA-512 as vigil');
    expect(describeKafkaSecurity(security)).not.toContain('s3cret');
  });

  it('refuses SASL without TLS, even SCRAM: the trail would cross the network readable', () => {
    expect(problems({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toEqual([
      { variable: 'KAFKA_SASL_MECHANISM', message: 'plain needs KAFKA_SSL=true: SASL is only used over TLS' },
    ]);
    expect(problems({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' })).toHaveLength(1);
  });

  it('names every missing or contradictory setting at once', () => {
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-256' }).map((p) => p.variable)).toEqual(['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']);
    expect(problems({ KAFKA_SASL_USERNAME: 'u' })).toEqual([{ variable: 'KAFKA_SASL_USERNAME', message: expect.stringContaining('KAFKA_SASL_MECHANISM is none') }]);
    expect(problems({ KAFKA_SSL_CA_FILE: ca })).toEqual([{ variable: 'KAFKA_SSL_CA_FILE', message: expect.stringContaining('KAFKA_SSL is not true') }]);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: ca }).map((p) => p.variable)).toEqual(['KAFKA_SSL_KEY_FILE']);
    expect(problems({ KAFKA_SASL_MECHANISM: 'gssapi' })).toEqual([{ variable: 'KAFKA_SASL_MECHANISM', message: expect.stringContaining('must be one of none, plain, scram-sha-256, scram-sha-512') }]);
  });

  it('reads the files at start: missing, unreadable or not PEM is refused with the path', () => {
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'missing.pem') })).toEqual([
      { variable: 'KAFKA_SSL_CA_FILE', message: `cannot be read (ENOENT: ${join(dir, 'missing.pem')})` },
    ]);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: notPem })).toEqual([{ variable: 'KAFKA_SSL_CA_FILE', message: `is not a PEM certificate (${notPem})` }]);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: ca, KAFKA_SSL_KEY_FILE: ca })).toEqual([{ variable: 'KAFKA_SSL_KEY_FILE', message: `is not a PEM private key (${ca})` }]);
    expect(problems({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: 'relative/ca.pem' })).toEqual([{ variable: 'KAFKA_SSL_CA_FILE', message: expect.stringContaining('absolute path') }]);
    expect(kafkaSecurityFromEnv({ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: ca, KAFKA_SSL_KEY_FILE: key }).ssl).toMatchObject({ cert: expect.any(String), key: expect.any(String) });
  });
});

describe('why the brokers refused a client', () => {
  it('tells refused credentials and untrusted certificates from an unreachable broker, through wrapped errors', () => {
    const sasl = Object.assign(new Error('SASL SCRAM SHA256 authentication failed'), { name: 'KafkaJSSASLAuthenticationError' });
    expect(kafkaAccessProblem(Object.assign(new Error('retries exceeded'), { name: 'KafkaJSNumberOfRetriesExceeded', cause: sasl }))).toBe('authentication');
    expect(kafkaAccessProblem(Object.assign(new Error('Connection error: self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }))).toBe('tls');
    expect(kafkaAccessProblem(new Error("Hostname/IP does not match certificate's altnames"))).toBe('tls');
    expect(kafkaAccessProblem(Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9094'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(kafkaAccessProblem(undefined)).toBeUndefined();
  });
});
