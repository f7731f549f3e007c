import type { SealedColumn } from '@vigil/platform';

/** The checkpoint signing keys' private keys (PKCS#8 PEM), sealed for their row. */
export const INTEGRITY_KEY_PRIVATE: SealedColumn = { table: 'event_ingest.integrity_keys', column: 'private_key', id: 'key_id', resource: 'integrity_key' };

/** Every column of the event_ingest schema holding a value sealed with VIGIL_ENCRYPTION_KEYS. */
export const EVENT_INGEST_SEALED_COLUMNS: readonly SealedColumn[] = [INTEGRITY_KEY_PRIVATE];
