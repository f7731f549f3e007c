import type { ConfigOf, ServiceConfigBase, ServiceDefinition } from '@vigil/platform';
import { eventIngestConfigSpec } from './config/event-ingest.config';
import { EventIngestModule } from './event-ingest.module';

export type EventIngestConfig = ConfigOf<typeof eventIngestConfigSpec> & ServiceConfigBase;

export const eventIngestService: ServiceDefinition<typeof eventIngestConfigSpec> = {
  name: 'event-ingest',
  configSpec: eventIngestConfigSpec,
  defaultPort: 3003,
  rpcPort: 4003,
  usesDatabase: true,
  rootModule: (context) => EventIngestModule.forRoot(context),
};

/** For tests that wait on the report worker instead of sleeping (settle()). */
export { ReportsWorker } from './reports/reports.worker';
/** The service's schema and grants, for the migrate command and the role bootstrap of a composed system. */
export { eventIngestDatabase } from './database/event-ingest.database';
