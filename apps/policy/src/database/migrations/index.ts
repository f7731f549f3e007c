import { eventStoreAppendOnlyMigration, eventStoreMigration, writerFenceMigration } from '@vigil/database';
import { messagingMigration } from '@vigil/messaging';
import { POLICY_SCHEMA } from '../schema';
import { Policies1760000000000 } from './1760000000000-policies';
import { PolicyEnforcementMode1760000000001 } from './1760000000001-policy-enforcement-mode';
import { SnapshotSigningKeys1772900000000 } from './1772900000000-snapshot-signing-keys';

export const policyMigrations = [
  messagingMigration(POLICY_SCHEMA, 1750000000000),
  eventStoreMigration(POLICY_SCHEMA, 1750000000001),
  Policies1760000000000,
  PolicyEnforcementMode1760000000001,
  eventStoreAppendOnlyMigration(POLICY_SCHEMA, 1772600000100),
  SnapshotSigningKeys1772900000000,
  writerFenceMigration(POLICY_SCHEMA, 1773400000000),
];
