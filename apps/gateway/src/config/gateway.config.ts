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
};
