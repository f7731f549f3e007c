import type { ServiceDatabase } from '@vigil/database';
import { newId } from '@vigil/domain';
import { recordResealedSecrets } from '@vigil/messaging';
import { deliveryMigrations } from './migrations';
import { DELIVERY_SCHEMA } from './schema';
import { DELIVERY_SEALED_COLUMNS } from './sealed-columns';

/** The delivery service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const deliveryDatabase: ServiceDatabase = {
  service: 'delivery',
  schema: DELIVERY_SCHEMA,
  secrets: { columns: DELIVERY_SEALED_COLUMNS, record: recordResealedSecrets('delivery', DELIVERY_SCHEMA, () => newId('event')) },
  migrations: deliveryMigrations,
};
