import type { ServiceDatabase } from '@vigil/database';
import { newId } from '@vigil/domain';
import { recordResealedSecrets } from '@vigil/messaging';
import { eventIngestConfigSpec } from '../config/event-ingest.config';
import { eventIngestMigrations } from './migrations';
import { EVENT_INGEST_SCHEMA } from './schema';
import { EVENT_INGEST_SEALED_COLUMNS } from './sealed-columns';

/** The event-ingest service's schema, its migrations and its runtime role's grants (docs/operations.md#database-roles). */
export const eventIngestDatabase: ServiceDatabase = {
  service: 'event-ingest',
  schema: EVENT_INGEST_SCHEMA,
  secrets: { columns: EVENT_INGEST_SEALED_COLUMNS, record: recordResealedSecrets('event-ingest', EVENT_INGEST_SCHEMA, () => newId('event')) },
  migrations: eventIngestMigrations,
  runtime: {
    readOnlyTables: ['retention_floor'],
    functions: [
      'create_event_partition(date)',
      'drop_expired_event_partition(text, integer)',
      'purge_expired_default_events(integer)',
      'days_in_default_partition(integer)',
    ],
  },
  // The database enforces the configured retention as a floor: a runtime role asking the
  // retention functions for less is refused (0 = keep everything: nothing may be dropped).
  afterMigrateConfig: { EVENTS_RETENTION_DAYS: eventIngestConfigSpec.EVENTS_RETENTION_DAYS },
  afterMigrate: async (dataSource, config) => {
    const days = config.EVENTS_RETENTION_DAYS as number;
    await dataSource.query(`UPDATE event_ingest.retention_floor SET days = $1`, [days > 0 ? days : null]);
  },
};
