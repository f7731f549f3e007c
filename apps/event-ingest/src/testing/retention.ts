import { createServiceDataSource } from '@vigil/database';
import { createLogger } from '@vigil/platform';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { EventPartitions } from '../events/event-partitions.service';
import { PartitionsRepository } from '../events/partitions.repository';

/**
 * Runs partition maintenance once against a running installation's database with the given
 * retention, as the service would (the verifiable log on), the owner having set that retention as
 * the floor: end-to-end tests of retention. Connects as the test server's superuser.
 */
export async function applyRetention(databaseUrl: string, retentionDays: number): Promise<{ created: string[]; dropped: string[]; purged: number }> {
  const dataSource = createServiceDataSource({ url: databaseUrl, schema: 'event_ingest', migrations: [], poolSize: 2, applicationName: 'retention-test' });
  await dataSource.initialize();
  try {
    // As the owner role does when migrations run with this EVENTS_RETENTION_DAYS: the floor below
    // which the database refuses any retention (docs/operations.md#database-roles).
    if (retentionDays > 0) await dataSource.query(`UPDATE event_ingest.retention_floor SET days = $1`, [retentionDays]);
    const config = { EVENTS_RETENTION_DAYS: retentionDays, EVENTS_PARTITIONS_AHEAD_DAYS: 2, EVENTS_MAINTENANCE_INTERVAL_MS: 3_600_000, INTEGRITY_LOG: true } as EventIngestConfig;
    return await new EventPartitions(new PartitionsRepository(dataSource), config, createLogger('test', 'silent')).maintain();
  } finally {
    await dataSource.destroy();
  }
}
