import { messagingMigration } from '@vigil/messaging';
import { DELIVERY_SCHEMA } from '../schema';

export const deliveryMigrations = [messagingMigration(DELIVERY_SCHEMA, 1750000000000)];
