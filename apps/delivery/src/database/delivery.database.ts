import type { ServiceDatabase } from '@vigil/database';
import { deliveryMigrations } from './migrations';
import { DELIVERY_SCHEMA } from './schema';

/** The delivery service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const deliveryDatabase: ServiceDatabase = {
  service: 'delivery',
  schema: DELIVERY_SCHEMA,
  migrations: deliveryMigrations,
};
