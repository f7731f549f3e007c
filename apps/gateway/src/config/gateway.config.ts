import { env } from '@vigil/platform';

export const gatewayConfigSpec = {
  AUTH_RPC_ADDRESS: env.address({ default: '127.0.0.1:4001' }),
  POLICY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4002' }),
  EVENT_INGEST_RPC_ADDRESS: env.address({ default: '127.0.0.1:4003' }),
  DELIVERY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4004' }),
  /** A service that does not answer within this time gives 504. */
  RPC_TIMEOUT_MS: env.int({ min: 100, max: 120_000, default: 10_000 }),
  JWT_ISSUER: env.string({ default: 'vigil' }),
  JWT_AUDIENCE: env.string({ default: 'vigil-api' }),
  // Access (docs/access.md): issuer URL of the OAuth metadata (unset: taken from the request's host,
  // fine on localhost, set it behind a proxy), rate limits, API-key cache.
  PUBLIC_URL: env.optionalString(),
  /** Shared rate-limit counters (and instant key revocation) for all gateway replicas; unset = in memory. */
  REDIS_URL: env.optionalString({ secret: true }),
  RATE_LIMIT_DEFAULT_PER_MINUTE: env.int({ min: 1, max: 10_000_000, default: 1000 }),
  RATE_LIMIT_LOGIN_PER_MINUTE: env.int({ min: 1, max: 10_000_000, default: 60 }),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: env.int({ min: 1, max: 10_000_000, default: 300 }),
  API_KEY_CACHE_TTL_SECONDS: env.int({ min: 1, max: 3600, default: 300 }),
};
