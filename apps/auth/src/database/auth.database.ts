import type { ServiceDatabase } from '@vigil/database';
import { newId } from '@vigil/domain';
import { recordResealedSecrets } from '@vigil/messaging';
import { authMigrations } from './migrations';
import { AUTH_SCHEMA } from './schema';
import { AUTH_SEALED_COLUMNS } from './sealed-columns';

/** The auth service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const authDatabase: ServiceDatabase = {
  service: 'auth',
  schema: AUTH_SCHEMA,
  secrets: { columns: AUTH_SEALED_COLUMNS, record: recordResealedSecrets('auth', AUTH_SCHEMA, () => newId('event')) },
  migrations: authMigrations,
};
