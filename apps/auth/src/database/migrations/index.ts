import { messagingMigration } from '@vigil/messaging';
import { AUTH_SCHEMA } from '../schema';
import { Users1760000000000 } from './1760000000000-users';

export const authMigrations = [messagingMigration(AUTH_SCHEMA, 1750000000000), Users1760000000000];
