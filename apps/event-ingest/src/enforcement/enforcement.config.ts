import { env } from '@vigil/platform';

/** Variables of policy enforcement inside event-ingest (docs/policies.md#enforcement). */
export const enforcementConfigSpec = {
  /** Where the policy service answers RPC: enforcement loads every policy's state from it at start. */
  POLICY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4002' }),
  /** How long the first ingestion after start waits for the policies before enforcing without them. */
  ENFORCEMENT_READY_TIMEOUT_MS: env.int({ min: 100, max: 600_000, default: 10_000 }),
};
