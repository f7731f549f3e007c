import type { ServiceDatabase } from '@vigil/database';
import { authMigrations } from './migrations';
import { AUTH_SCHEMA } from './schema';

/** The auth service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const authDatabase: ServiceDatabase = {
  service: 'auth',
  schema: AUTH_SCHEMA,
  migrations: authMigrations,
};
