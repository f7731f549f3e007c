import { messagingMigration } from '@vigil/messaging';
import { DELIVERY_SCHEMA } from '../schema';
import { Webhooks1770000000000 } from './1770000000000-webhooks';
import { Alerts1770100000000 } from './1770100000000-alerts';

export const deliveryMigrations = [messagingMigration(DELIVERY_SCHEMA, 1750000000000), Webhooks1770000000000, Alerts1770100000000];
