import { messagingMigration } from '@vigil/messaging';
import { writerFenceMigration } from '@vigil/database';
import { DELIVERY_SCHEMA } from '../schema';
import { Webhooks1770000000000 } from './1770000000000-webhooks';
import { Alerts1770100000000 } from './1770100000000-alerts';
import { AlertsReportIndex1770200000000 } from './1770200000000-alerts-report-index';
import { DeliveryTraceContext1772000000000 } from './1772000000000-delivery-trace-context';

export const deliveryMigrations = [messagingMigration(DELIVERY_SCHEMA, 1750000000000), Webhooks1770000000000, Alerts1770100000000, AlertsReportIndex1770200000000, DeliveryTraceContext1772000000000, writerFenceMigration(DELIVERY_SCHEMA, 1773400000000)];
