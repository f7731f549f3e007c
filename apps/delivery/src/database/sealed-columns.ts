import type { SealedColumn } from '@vigil/platform';

/** A webhook's signing secret, sealed for its subscription; `secret_key_id` repeats the key it is sealed with. */
export const WEBHOOK_SECRET: SealedColumn = { table: 'delivery.webhooks', column: 'secret_sealed', id: 'id', keyIdColumn: 'secret_key_id', resource: 'webhook' };

/** An alert destination's secret fields (one JSON document), sealed for their destination. */
export const DESTINATION_SECRETS: SealedColumn = { table: 'delivery.alert_destinations', column: 'secrets_sealed', id: 'id', resource: 'alert_destination' };

/** Every column of the delivery schema holding a value sealed with VIGIL_ENCRYPTION_KEYS. */
export const DELIVERY_SEALED_COLUMNS: readonly SealedColumn[] = [WEBHOOK_SECRET, DESTINATION_SECRETS];
