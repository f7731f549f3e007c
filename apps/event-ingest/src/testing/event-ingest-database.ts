import { createServiceDataSource, runMigrations } from '@vigil/database';
import { createTestDatabase, type TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { eventIngestMigrations } from '../database/migrations';

export interface EventIngestTestDatabase {
  db: TestDatabase;
  dataSource: DataSource;
  close(): Promise<void>;
}

/** A fresh database with event-ingest's schema migrated, for repository-level tests. */
export async function openEventIngestDatabase(applicationName: string, migrations = eventIngestMigrations): Promise<EventIngestTestDatabase> {
  const db = await createTestDatabase();
  const dataSource = createServiceDataSource({ url: db.url, schema: 'event_ingest', migrations, poolSize: 4, applicationName });
  await dataSource.initialize();
  await runMigrations(dataSource, 'event_ingest');
  return {
    db,
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await db.drop();
    },
  };
}
