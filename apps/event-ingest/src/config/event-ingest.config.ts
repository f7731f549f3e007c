import { env } from '@vigil/platform';
import { databasesConfigSpec } from '../databases/databases.config';
import { enforcementConfigSpec } from '../enforcement/enforcement.config';
import { integrityConfigSpec } from '../integrity/integrity.config';
import { reportsConfigSpec } from '../reports/reports.config';

export const eventIngestConfigSpec = {
  ...enforcementConfigSpec,
  ...databasesConfigSpec,
  ...reportsConfigSpec,
  ...integrityConfigSpec,
  /** Largest batch of audit.ingest records stored in one transaction. */
  INGEST_BATCH_SIZE: env.int({ min: 1, max: 5000, default: 1000 }),
  /** Largest batch of stored events published on audit.events.v1 at once. */
  EVENTS_RELAY_BATCH: env.int({ min: 1, max: 10_000, default: 2000 }),
  /** Days of audit events kept; older daily partitions are dropped whole. 0 keeps everything. */
  EVENTS_RETENTION_DAYS: env.int({ min: 0, max: 36_500, default: 400 }),
  /** Daily partitions created ahead of today (events arriving early never land in the default partition). */
  EVENTS_PARTITIONS_AHEAD_DAYS: env.int({ min: 1, max: 60, default: 3 }),
  /** How often partitions are created and retention applied. */
  EVENTS_MAINTENANCE_INTERVAL_MS: env.int({ min: 1000, max: 86_400_000, default: 3_600_000 }),
};
