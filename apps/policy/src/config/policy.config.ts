import { encryptionConfigSpec, env } from '@vigil/platform';

export const policyConfigSpec = {
  /** Seals the private keys that sign policy snapshots (docs/policies.md#signed-snapshots). */
  ...encryptionConfigSpec,
  /** A new snapshot signing key replaces the active one once it is this old; older keys stay valid for verification. */
  POLICY_SIGNING_KEY_ROTATION_DAYS: env.int({ min: 1, max: 3650, default: 90 }),
};
