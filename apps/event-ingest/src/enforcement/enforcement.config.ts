import { env } from '@vigil/platform';

/** Variables of policy enforcement inside event-ingest (docs/policies.md#enforcement). */
export const enforcementConfigSpec = {
  /** Where the policy service answers RPC: enforcement loads every policy's state from it at start (retried until it answers). */
  POLICY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4002' }),
  /**
   * How long ingestion arriving at start waits for the policies before it is refused (HTTP 503 with
   * Retry-After). Nothing is ever stored without them: past this wait requests are refused at once
   * until the policies are loaded. Keep it below the gateway's RPC_TIMEOUT_MS, or a waiting request
   * gets a 504 from the gateway instead of the 503.
   */
  ENFORCEMENT_READY_TIMEOUT_MS: env.int({ min: 100, max: 600_000, default: 5_000 }),
};
