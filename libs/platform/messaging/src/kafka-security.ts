import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { ConfigError, type Env, kafkaSecurityConfigSpec, type KafkaSecurityConfig, loadConfig } from '@vigil/platform';

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** What a Kafka client needs beyond the broker addresses: TLS options and SASL credentials. */
export interface KafkaSecurity {
  ssl?: ConnectionOptions;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PEM_KEY = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

/**
 * The Kafka settings of a service, checked as a whole (every problem named, the service refuses
 * to start): files readable and in PEM, a client certificate with its key, SASL with a user and a
 * password, and SASL only over TLS — PLAIN would send the password in clear, and a SASL session
 * without TLS leaves the audit trail readable and writable on the wire. Certificate checks of the
 * brokers are never turned off.
 */
export function kafkaSecurity(config: KafkaSecurityConfig, service = 'kafka'): KafkaSecurity {
  const problems: { variable: string; message: string }[] = [];
  const read = (variable: keyof KafkaSecurityConfig, pattern: RegExp, what: string): string | undefined => {
    const path = config[variable] as string | undefined;
    if (!path) return undefined;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      problems.push({ variable, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${path})` });
      return undefined;
    }
    if (!pattern.test(text)) problems.push({ variable, message: `is not a PEM ${what} (${path})` });
    return text;
  };
  const ca = read('KAFKA_SSL_CA_FILE', PEM_CERTIFICATE, 'certificate');
  const cert = read('KAFKA_SSL_CERT_FILE', PEM_CERTIFICATE, 'certificate');
  const key = read('KAFKA_SSL_KEY_FILE', PEM_KEY, 'private key');
  if (config.KAFKA_SSL_CERT_FILE && !config.KAFKA_SSL_KEY_FILE) problems.push({ variable: 'KAFKA_SSL_KEY_FILE', message: 'is required with KAFKA_SSL_CERT_FILE' });
  if (config.KAFKA_SSL_KEY_FILE && !config.KAFKA_SSL_CERT_FILE) problems.push({ variable: 'KAFKA_SSL_CERT_FILE', message: 'is required with KAFKA_SSL_KEY_FILE' });
  if (!config.KAFKA_SSL) {
    for (const variable of ['KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE', 'KAFKA_SSL_SERVERNAME'] as const) {
      if (config[variable]) problems.push({ variable, message: 'is set but KAFKA_SSL is not true: set KAFKA_SSL=true to use TLS' });
    }
  }
  const mechanism = config.KAFKA_SASL_MECHANISM;
  if (mechanism !== 'none') {
    if (!config.KAFKA_SASL_USERNAME) problems.push({ variable: 'KAFKA_SASL_USERNAME', message: `is required with KAFKA_SASL_MECHANISM=${mechanism}` });
    if (!config.KAFKA_SASL_PASSWORD) problems.push({ variable: 'KAFKA_SASL_PASSWORD', message: `is required with KAFKA_SASL_MECHANISM=${mechanism}` });
    if (!config.KAFKA_SSL) problems.push({ variable: 'KAFKA_SASL_MECHANISM', message: `${mechanism} needs KAFKA_SSL=true: SASL is only used over TLS` });
  } else {
    for (const variable of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const) {
      if (config[variable]) problems.push({ variable, message: 'is set but KAFKA_SASL_MECHANISM is none: choose plain, scram-sha-256 or scram-sha-512' });
    }
  }
  if (problems.length) throw new ConfigError(service, problems);
  const security: KafkaSecurity = {};
  if (config.KAFKA_SSL) {
    security.ssl = {
      rejectUnauthorized: true,
      ...(ca ? { ca: [ca] } : {}),
      ...(cert && key ? { cert, key } : {}),
      ...(config.KAFKA_SSL_SERVERNAME ? { servername: config.KAFKA_SSL_SERVERNAME } : {}),
    };
  }
  if (mechanism !== 'none') security.sasl = { mechanism, username: config.KAFKA_SASL_USERNAME!, password: config.KAFKA_SASL_PASSWORD! };
  return security;
}

/** The same from raw variables (tools, fixtures and tests that build a bus without a service). */
export function kafkaSecurityFromEnv(source: Env, service = 'kafka'): KafkaSecurity {
  return kafkaSecurity(loadConfig(service, kafkaSecurityConfigSpec, source), service);
}

/** A one-line description for logs: never the password, never key material. */
export function describeKafkaSecurity(security: KafkaSecurity): string {
  const tls = security.ssl ? `TLS${security.ssl.cert ? ' with a client certificate' : ''}` : 'plaintext';
  return security.sasl ? `${tls}, SASL ${security.sasl.mechanism.toUpperCase()} as ${security.sasl.username}` : tls;
}
