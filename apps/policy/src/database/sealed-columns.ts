import type { SealedColumn } from '@vigil/platform';

/** The policy snapshot signing keys' private keys (PKCS#8 PEM), sealed for their row. */
export const SNAPSHOT_SIGNING_KEY_PRIVATE: SealedColumn = { table: 'policy.snapshot_signing_keys', column: 'private_key', id: 'key_id', resource: 'snapshot_signing_key' };

/** Every column of the policy schema holding a value sealed with VIGIL_ENCRYPTION_KEYS. */
export const POLICY_SEALED_COLUMNS: readonly SealedColumn[] = [SNAPSHOT_SIGNING_KEY_PRIVATE];
