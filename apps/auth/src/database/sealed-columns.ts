import type { SealedColumn } from '@vigil/platform';

/** The token signing keys' private keys (PKCS#8 PEM), sealed for their row. */
export const SIGNING_KEY_PRIVATE: SealedColumn = { table: 'auth.signing_keys', column: 'private_key', id: 'kid', resource: 'signing_key' };

/** Every column of the auth schema holding a value sealed with VIGIL_ENCRYPTION_KEYS. */
export const AUTH_SEALED_COLUMNS: readonly SealedColumn[] = [SIGNING_KEY_PRIVATE];
