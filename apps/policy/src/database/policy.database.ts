import type { ServiceDatabase } from '@vigil/database';
import { policyMigrations } from './migrations';
import { POLICY_SCHEMA } from './schema';

/** The policy service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const policyDatabase: ServiceDatabase = {
  service: 'policy',
  schema: POLICY_SCHEMA,
  migrations: policyMigrations,
};
