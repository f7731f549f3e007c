import { messagingMigration } from '@vigil/messaging';
import { writerFenceMigration } from '@vigil/database';
import { AUTH_SCHEMA } from '../schema';
import { Users1760000000000 } from './1760000000000-users';
import { Access1760000001000 } from './1760000001000-access';
import { BootstrapAdmin1764000000000 } from './1764000000000-bootstrap-admin';
import { ExpiryIndexes1764000001000 } from './1764000001000-expiry-indexes';
import { CredentialLifecycle1772700000000 } from './1772700000000-credential-lifecycle';

export const authMigrations = [messagingMigration(AUTH_SCHEMA, 1750000000000), Users1760000000000, Access1760000001000, BootstrapAdmin1764000000000, ExpiryIndexes1764000001000, CredentialLifecycle1772700000000, writerFenceMigration(AUTH_SCHEMA, 1773400000000)];
