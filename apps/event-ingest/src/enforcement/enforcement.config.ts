import { env } from '@vigil/platform';

/** Variables of policy enforcement inside event-ingest (docs/policies.md#enforcement). */
export const enforcementConfigSpec = {
  /** Where the policy service answers RPC: enforcement loads every policy's state from it at start. */
  POLICY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4002' }),
  /** How long ingestion waits for the policies at start before answering 503 (HTTP) or retrying (Kafka). */
  ENFORCEMENT_READY_TIMEOUT_MS: env.int({ min: 100, max: 600_000, default: 15_000 }),
};
