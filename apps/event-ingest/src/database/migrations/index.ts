import { inboxPositionsMigration, messagingMigration } from '@vigil/messaging';
import { writerFenceMigration } from '@vigil/database';
import { EVENT_INGEST_SCHEMA } from '../schema';
import { Events1760000000000 } from './1760000000000-events';
import { EventStorage1763700000000 } from './1763700000000-event-storage';
import { EventsTypeSeverityIndex1767000000000 } from './1767000000000-events-type-severity-index';
import { DatabasesReports1766000000000 } from './1766000000000-databases-reports';
import { ReportIndexes1767100000000 } from './1767100000000-report-indexes';
import { EventCounts1771100000000 } from './1771100000000-event-counts';
import { EventTraceContext1772000000000 } from './1772000000000-event-trace-context';
import { EscapedEvents1772100000000 } from './1772100000000-escaped-events';
import { ReportPdf1772300000000 } from './1772300000000-report-pdf';
import { IntegrityLog1772400000000 } from './1772400000000-integrity-log';
import { EventIngestedBy1772500000000 } from './1772500000000-event-ingested-by';
import { LeastPrivilege1772600000000 } from './1772600000000-least-privilege';
import { VerifiableRetention1772950000000 } from './1772950000000-verifiable-retention';

export const eventIngestMigrations = [messagingMigration(EVENT_INGEST_SCHEMA, 1750000000000), Events1760000000000, EventStorage1763700000000, DatabasesReports1766000000000, EventsTypeSeverityIndex1767000000000, ReportIndexes1767100000000, inboxPositionsMigration(EVENT_INGEST_SCHEMA, 1771000000000), EventCounts1771100000000, EventTraceContext1772000000000, EscapedEvents1772100000000, ReportPdf1772300000000, IntegrityLog1772400000000, EventIngestedBy1772500000000, LeastPrivilege1772600000000, VerifiableRetention1772950000000, writerFenceMigration(EVENT_INGEST_SCHEMA, 1773400000000)];
