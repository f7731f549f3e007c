/**
 * Configuration is read from the environment once, at boot, into a typed object. Every bad or
 * missing variable is reported together, by name, and the service refuses to start.
 * Nothing outside a service's `config/` folder reads `process.env`.
 */
export type Env = Record<string, string | undefined>;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export interface Field<T> {
  readonly description: string;
  readonly secret: boolean;
  parse(raw: string | undefined): Parsed<T>;
}

interface Common<T> {
  default?: T;
  description?: string;
  secret?: boolean;
}

function field<T>(
  opts: Common<T> & { optional?: boolean },
  expected: string,
  convert: (raw: string) => Parsed<T>,
): Field<T> {
  return {
    description: opts.description ?? expected,
    secret: opts.secret ?? false,
    parse(raw) {
      if (raw === undefined || raw.trim() === '') {
        if (opts.default !== undefined) return { ok: true, value: opts.default };
        if (opts.optional) return { ok: true, value: undefined as T };
        return { ok: false, message: `is required (${expected})` };
      }
      return convert(raw.trim());
    },
  };
}

const shown = (raw: string) => (raw.length > 60 ? `${raw.slice(0, 57)}...` : raw);

export const env = {
  string: (opts: Common<string> & { minLength?: number } = {}) =>
    field<string>(opts, 'a string', (raw) =>
      opts.minLength && raw.length < opts.minLength
        ? { ok: false, message: `must be at least ${opts.minLength} characters long` }
        : { ok: true, value: raw },
    ),
  optionalString: (opts: Omit<Common<string>, 'default'> = {}) =>
    field<string | undefined>({ ...opts, optional: true }, 'a string', (raw) => ({ ok: true, value: raw })),
  int: (opts: Common<number> & { min?: number; max?: number } = {}) => {
    const min = opts.min ?? Number.MIN_SAFE_INTEGER;
    const max = opts.max ?? Number.MAX_SAFE_INTEGER;
    return field<number>(opts, `an integer from ${min} to ${max}`, (raw) => {
      const n = Number(raw);
      if (!/^-?\d+$/.test(raw) || n < min || n > max) {
        return { ok: false, message: `must be an integer from ${min} to ${max} (got "${shown(raw)}")` };
      }
      return { ok: true, value: n };
    });
  },
  port: (opts: Common<number> = {}) => env.int({ min: 0, max: 65535, ...opts }),
  optionalPort: (opts: Omit<Common<number>, 'default'> = {}) =>
    field<number | undefined>({ ...opts, optional: true }, 'an integer from 0 to 65535', (raw) => {
      const n = Number(raw);
      if (!/^\d+$/.test(raw) || n > 65535) return { ok: false, message: `must be an integer from 0 to 65535 (got "${shown(raw)}")` };
      return { ok: true, value: n };
    }),
  bool: (opts: Common<boolean> = {}) =>
    field<boolean>(opts, 'true or false', (raw) => {
      const v = raw.toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return { ok: true, value: true };
      if (['false', '0', 'no'].includes(v)) return { ok: true, value: false };
      return { ok: false, message: `must be true or false (got "${shown(raw)}")` };
    }),
  oneOf: <const V extends string>(values: readonly V[], opts: Common<V> = {}) =>
    field<V>(opts, `one of ${values.join(', ')}`, (raw) =>
      (values as readonly string[]).includes(raw)
        ? { ok: true, value: raw as V }
        : { ok: false, message: `must be one of ${values.join(', ')} (got "${shown(raw)}")` },
    ),
  url: (protocols: string[], opts: Common<string> & { optional?: boolean } = {}) =>
    field<string>(opts, `a URL (${protocols.join(', ')})`, (raw) => {
      try {
        const u = new URL(raw);
        if (!protocols.includes(u.protocol.replace(/:$/, ''))) {
          return { ok: false, message: `must use ${protocols.join(' or ')} (got ${u.protocol})` };
        }
        return { ok: true, value: raw };
      } catch {
        return { ok: false, message: 'must be a valid URL' };
      }
    }),
  /** An absolute filesystem path, or unset. */
  optionalAbsolutePath: (opts: Omit<Common<string>, 'default'> = {}) =>
    field<string | undefined>({ ...opts, optional: true }, 'an absolute path', (raw) =>
      raw.startsWith('/') ? { ok: true, value: raw } : { ok: false, message: `must be an absolute path (got "${shown(raw)}")` },
    ),
  /**
   * A variable that no longer exists and must stay unset: the service refuses to start rather than
   * silently ignore what an operator still relies on. `instead` says what replaces it.
   */
  removed: (instead: string) =>
    field<undefined>({ optional: true, description: `removed: ${instead}` }, 'unset', () => ({ ok: false, message: `was removed: ${instead}` })),
  /** Comma-separated list, e.g. `KAFKA_BROKERS=host1:9092,host2:9092`. */
  list: (opts: Common<string[]> & { optional?: boolean; item?: RegExp; itemDescription?: string } = {}) =>
    field<string[]>(opts, 'a comma-separated list', (raw) => {
      const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
      const bad = opts.item ? items.filter((i) => !opts.item!.test(i)) : [];
      if (bad.length) {
        return { ok: false, message: `has invalid items ${bad.map((b) => `"${shown(b)}"`).join(', ')} (each must be ${opts.itemDescription ?? 'valid'})` };
      }
      return { ok: true, value: items };
    }),
  /** host:port */
  address: (opts: Common<string> = {}) =>
    field<string>(opts, 'host:port', (raw) =>
      /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `must be host:port (got "${shown(raw)}")` },
    ),
};

export type ConfigSpec = Record<string, Field<unknown>>;
export type ConfigOf<S extends ConfigSpec> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: { variable: string; message: string }[],
  ) {
    super(
      `${service}: invalid configuration, refusing to start:\n` +
        problems.map((p) => `  - ${p.variable} ${p.message}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

export function loadConfig<S extends ConfigSpec>(service: string, spec: S, source: Env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: { variable: string; message: string }[] = [];
  for (const [name, f] of Object.entries(spec)) {
    const parsed = f.parse(source[name]);
    if (parsed.ok) out[name] = parsed.value;
    else problems.push({ variable: name, message: parsed.message });
  }
  if (problems.length) throw new ConfigError(service, problems);
  return out as ConfigOf<S>;
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * OTLP headers in the OpenTelemetry form `key1=value1,key2=value2` (values percent-encoded).
 * Marked secret: they usually carry the collector's credentials, so they are never printed.
 */
function otlpHeaders(): Field<Record<string, string> | undefined> {
  return {
    description: 'comma-separated key=value pairs',
    secret: true,
    parse(raw) {
      if (raw === undefined || raw.trim() === '') return { ok: true, value: undefined };
      const headers: Record<string, string> = {};
      for (const pair of raw.split(',')) {
        if (!pair.trim()) continue;
        const i = pair.indexOf('=');
        const key = i > 0 ? pair.slice(0, i).trim() : '';
        // Never echo the value: it is usually a credential.
        if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) return { ok: false, message: 'must be comma-separated key=value pairs with header names as keys' };
        let value: string;
        try {
          value = decodeURIComponent(pair.slice(i + 1).trim());
        } catch {
          return { ok: false, message: `has a badly percent-encoded value for "${key}"` };
        }
        if (/[\r\n]/.test(value)) return { ok: false, message: `has a line break in the value of "${key}"` };
        headers[key] = value;
      }
      return { ok: true, value: headers };
    },
  };
}

function ratio(): Field<number | undefined> {
  return {
    description: 'a number from 0 to 1',
    secret: false,
    parse(raw) {
      if (raw === undefined || raw.trim() === '') return { ok: true, value: undefined };
      const n = Number(raw.trim());
      if (!/^\d*\.?\d+(e-?\d+)?$/i.test(raw.trim()) || !(n >= 0 && n <= 1)) return { ok: false, message: `must be a number from 0 to 1 (got "${raw.trim().slice(0, 20)}")` };
      return { ok: true, value: n };
    },
  };
}

/**
 * The standard OpenTelemetry variables Vigil honours for traces. Tracing is on only when an OTLP
 * endpoint is set (and OTEL_SDK_DISABLED is not true); otherwise nothing of the SDK is created.
 */
const tracingConfigSpec = {
  OTEL_SDK_DISABLED: env.bool({ default: false }),
  OTEL_SERVICE_NAME: env.optionalString({ description: 'service.name of exported spans; default vigil-<service> (vigil in the standalone process)' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url(['http', 'https'], { optional: true, description: 'OTLP/HTTP base URL; traces go to <url>/v1/traces' }) as Field<string | undefined>,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.url(['http', 'https'], { optional: true, description: 'OTLP/HTTP URL for traces, used as is' }) as Field<
    string | undefined
  >,
  OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: otlpHeaders(),
  OTEL_TRACES_SAMPLER: env.oneOf(SAMPLERS, { default: 'parentbased_always_on' }),
  OTEL_TRACES_SAMPLER_ARG: ratio(),
};

const brokerAddress = /^[A-Za-z0-9.\-_]+:\d{1,5}$/;

/**
 * How every Kafka client of a service reaches the brokers: TLS (the CA that signs the brokers'
 * certificates, and a client certificate where the brokers ask for one) and SASL. Checked together
 * at start by the messaging library (kafkaSecurity): files readable and PEM, SASL only over TLS.
 */
export const kafkaSecurityConfigSpec = {
  KAFKA_SSL: env.bool({ default: false, description: 'connect to the brokers over TLS' }),
  KAFKA_SSL_CA_FILE: env.optionalAbsolutePath({ description: 'PEM file of the CA(s) that sign the brokers\' certificates; unset: the system CAs' }),
  KAFKA_SSL_CERT_FILE: env.optionalAbsolutePath({ description: 'PEM client certificate, for brokers that authenticate clients by certificate' }),
  KAFKA_SSL_KEY_FILE: env.optionalAbsolutePath({ description: 'PEM private key of KAFKA_SSL_CERT_FILE' }),
  KAFKA_SSL_SERVERNAME: env.optionalString({ description: 'name expected in the brokers\' certificates when it differs from the broker address' }),
  KAFKA_SASL_MECHANISM: env.oneOf(['none', 'plain', 'scram-sha-256', 'scram-sha-512'] as const, { default: 'none' }),
  KAFKA_SASL_USERNAME: env.optionalString(),
  KAFKA_SASL_PASSWORD: env.optionalString({ secret: true }),
};
export type KafkaSecurityConfig = ConfigOf<typeof kafkaSecurityConfigSpec>;

/**
 * How a service proves its identity on RPC and checks its callers' (mutual TLS, rpc-security.ts):
 * every service reads them, the callers (gateway, pg-proxy) as well as the servers.
 */
export const rpcSecurityConfigSpec = {
  RPC_TLS_CA_FILE: env.optionalAbsolutePath({ description: 'PEM file of the CA that signs every service\'s RPC certificate' }),
  RPC_TLS_CERT_FILE: env.optionalAbsolutePath({ description: 'PEM certificate of this service (common name = the service name), signed by RPC_TLS_CA_FILE' }),
  RPC_TLS_KEY_FILE: env.optionalAbsolutePath({ description: 'PEM private key of RPC_TLS_CERT_FILE' }),
  RPC_INSECURE: env.bool({ default: false, description: 'local development only: RPC without TLS or caller identity (every caller may call everything)' }),
};

/** Variables every service reads. */
export const commonConfigSpec = {
  NODE_ENV: env.oneOf(['development', 'production', 'test'] as const, { default: 'development' }),
  LOG_LEVEL: env.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, { default: 'info' }),
  /** `auto`: human-readable lines when stdout is a terminal, JSON lines otherwise. */
  LOG_FORMAT: env.oneOf(['auto', 'json', 'pretty'] as const, { default: 'auto' }),
  KAFKA_BROKERS: env.list({
    optional: true,
    item: brokerAddress,
    itemDescription: 'host:port',
    description: 'Kafka bootstrap brokers; unset = in-process bus (standalone only)',
  }),
  KAFKA_CLIENT_ID: env.string({ default: 'vigil' }),
  ...kafkaSecurityConfigSpec,
  /** Prefix for every topic and consumer group: lets several installations (or test runs) share a cluster. */
  KAFKA_TOPIC_PREFIX: env.string({ default: '' }),
  /** How long readiness reports false before the service stops taking traffic on SIGTERM. */
  SHUTDOWN_DRAIN_MS: env.int({ min: 0, max: 60_000, default: 0 }),
  /**
   * After the drain, how long the stop may take: requests and RPC calls in flight get half of it,
   * then connections still open are closed; a stop not finished in time logs what it is still
   * waiting on and the process exits 1.
   */
  SHUTDOWN_TIMEOUT_MS: env.int({ min: 1000, max: 600_000, default: 30_000 }),
  OUTBOX_POLL_MS: env.int({ min: 10, max: 60_000, default: 200 }),
  ...tracingConfigSpec,
};
export { tracingConfigSpec };
export type CommonConfig = ConfigOf<typeof commonConfigSpec>;

/** Variables of services that own a database schema. */
export const databaseConfigSpec = {
  DATABASE_URL: env.url(['postgres', 'postgresql'], {
    description: 'PostgreSQL connection URL; required unless the standalone launcher provides one',
  }),
  DATABASE_POOL_SIZE: env.int({ min: 1, max: 200, default: 10 }),
  /**
   * Run this service's migrations at start (under an advisory lock), as the role of DATABASE_URL:
   * only an owner or superuser can. Off in the distributed deployment, where the `migrate` command
   * runs them as the owner role before the service starts (docs/operations.md#database-roles).
   */
  MIGRATE_ON_START: env.bool({ default: true }),
  /**
   * Accept a DATABASE_URL role that can do more than a runtime role (a superuser, the schema's
   * owner, a role that may create objects or roles). Off: such a service refuses to start.
   */
  DATABASE_ALLOW_PRIVILEGED_ROLE: env.bool({ default: false }),
};
export type DatabaseConfig = ConfigOf<typeof databaseConfigSpec>;

/** Variables of services that keep secrets at rest. */
export const encryptionConfigSpec = {
  /**
   * Keys for secrets at rest: comma-separated base64 32-byte keys, the first one current
   * (add a new key in front to rotate). The standalone launcher generates one in its data folder.
   */
  VIGIL_ENCRYPTION_KEYS: env.list({
    item: /^[A-Za-z0-9+/]{43}=$/,
    itemDescription: 'a base64-encoded 32-byte key (openssl rand -base64 32)',
    secret: true,
  }),
};

