import { messagingMigration } from '@vigil/messaging';
import { DELIVERY_SCHEMA } from '../schema';
import { Webhooks1770000000000 } from './1770000000000-webhooks';

export const deliveryMigrations = [messagingMigration(DELIVERY_SCHEMA, 1750000000000), Webhooks1770000000000];
