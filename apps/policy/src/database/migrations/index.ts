import { eventStoreMigration } from '@vigil/database';
import { messagingMigration } from '@vigil/messaging';
import { POLICY_SCHEMA } from '../schema';

export const policyMigrations = [
  messagingMigration(POLICY_SCHEMA, 1750000000000),
  eventStoreMigration(POLICY_SCHEMA, 1750000000001),
];
