import type { ServiceDatabase } from '@vigil/database';
import { newId } from '@vigil/domain';
import { recordResealedSecrets } from '@vigil/messaging';
import { policyMigrations } from './migrations';
import { POLICY_SCHEMA } from './schema';
import { POLICY_SEALED_COLUMNS } from './sealed-columns';

/** The policy service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const policyDatabase: ServiceDatabase = {
  service: 'policy',
  schema: POLICY_SCHEMA,
  secrets: { columns: POLICY_SEALED_COLUMNS, record: recordResealedSecrets('policy', POLICY_SCHEMA, () => newId('event')) },
  migrations: policyMigrations,
};
