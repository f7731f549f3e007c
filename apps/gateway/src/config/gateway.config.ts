import { env, type Field } from '@vigil/platform';
import { parseTrustProxy, type TrustProxy } from '../client-address/client-address';

/** TRUST_PROXY: unset trusts no proxy (the socket's address is the client); see docs/access.md. */
const trustProxy: Field<TrustProxy | undefined> = {
  description: 'comma-separated CIDR ranges of trusted proxies, or a hop count; unset = trust none',
  secret: false,
  parse: (raw) => (raw === undefined || raw.trim() === '' ? { ok: true, value: undefined } : parseTrustProxy(raw)),
};

export const gatewayConfigSpec = {
  AUTH_RPC_ADDRESS: env.address({ default: '127.0.0.1:4001' }),
  POLICY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4002' }),
  EVENT_INGEST_RPC_ADDRESS: env.address({ default: '127.0.0.1:4003' }),
  DELIVERY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4004' }),
  /** A service that does not answer within this time gives 504. */
  RPC_TIMEOUT_MS: env.int({ min: 100, max: 120_000, default: 10_000 }),
  JWT_ISSUER: env.string({ default: 'vigil' }),
  JWT_AUDIENCE: env.string({ default: 'vigil-api' }),
  // Event stream (docs/events.md#streaming).
  STREAM_MAX_PER_CREDENTIAL: env.int({ min: 1, max: 1000, default: 10 }),
  STREAM_HEARTBEAT_MS: env.int({ min: 100, max: 60_000, default: 15_000 }),
  /** Unread bytes a stream client may leave behind before it is disconnected (slow_consumer). */
  STREAM_BUFFER_BYTES: env.int({ min: 1024, max: 256 * 1024 * 1024, default: 4 * 1024 * 1024 }),
  /** How long a disconnected slow client gets to read the final message before its socket is cut. */
  STREAM_CLOSE_GRACE_MS: env.int({ min: 0, max: 600_000, default: 10_000 }),
  /** How long an out-of-order gap may last before the missing events are read from the database. */
  STREAM_GAP_WAIT_MS: env.int({ min: 10, max: 60_000, default: 200 }),
  /** With no message for this long, the stream asks event-ingest for the newest sequence. */
  STREAM_HEAD_POLL_MS: env.int({ min: 100, max: 600_000, default: 1000 }),
  // Access (docs/access.md): issuer URL of the OAuth metadata (unset: taken from the request's host,
  // fine on localhost, set it behind a proxy), rate limits, API-key cache.
  PUBLIC_URL: env.optionalString(),
  /** Whose X-Forwarded-For is believed for the client address (rate limits, recorded addresses). */
  TRUST_PROXY: trustProxy,
  /** Shared rate-limit counters (and instant key revocation) for all gateway replicas; unset = in memory. */
  REDIS_URL: env.optionalString({ secret: true }),
  RATE_LIMIT_DEFAULT_PER_MINUTE: env.int({ min: 1, max: 10_000_000, default: 1000 }),
  RATE_LIMIT_LOGIN_PER_MINUTE: env.int({ min: 1, max: 10_000_000, default: 60 }),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: env.int({ min: 1, max: 10_000_000, default: 300 }),
  /** Folder of the built web console served at `/` (unset: dist/apps/console under the working directory). */
  CONSOLE_DIR: env.optionalAbsolutePath(),
  API_KEY_CACHE_TTL_SECONDS: env.int({ min: 1, max: 3600, default: 300 }),
};
