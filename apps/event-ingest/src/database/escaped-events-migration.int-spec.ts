import { createServiceDataSource, runMigrations } from '@vigil/database';
import { escapeStoredText } from '@vigil/contracts';
import { openEventIngestDatabase } from '../testing/event-ingest-database';
import { eventIngestMigrations } from './migrations';
import { EscapedEvents1772100000000 } from './migrations/1772100000000-escaped-events';

/**
 * Producer ids are claimed under their escaped form since records holding U+0000 are stored
 * escaped: the migration rewrites the claims made before, including ids that become each other's
 * old spelling (one backslash -> two, two -> four) in the same statement.
 */
describe('migration: escaped events and producer id claims', () => {
  it('adds the escaped flag (false for existing events) and rewrites claims holding a backslash, keeping every claim', async () => {
    const before = eventIngestMigrations.filter((m) => m !== EscapedEvents1772100000000);
    expect(before).toHaveLength(eventIngestMigrations.length - 1);
    const opened = await openEventIngestDatabase('escaped-migration-test', before);
    try {
      const ids = ['plain-id', 'one\\slash', 'one\\\\slash', 'tail\\', 'topic:0:42'];
      await opened.dataSource.query(
        `INSERT INTO event_ingest.producer_ids (producer_id, event_id) SELECT * FROM unnest($1::text[], $2::text[])`,
        [ids, ids.map((_, i) => `evt_${i}`)],
      );
      const after = createServiceDataSource({ url: opened.db.url, schema: 'event_ingest', migrations: eventIngestMigrations, poolSize: 2, applicationName: 'escaped-migration-test-2' });
      await after.initialize();
      try {
        await runMigrations(after, 'event_ingest');
        const rows: { producer_id: string; event_id: string }[] = await after.query(`SELECT producer_id, event_id FROM event_ingest.producer_ids ORDER BY event_id`);
        expect(rows).toEqual(ids.map((id, i) => ({ producer_id: escapeStoredText(id), event_id: `evt_${i}` })));
        const [column] = await after.query(
          `SELECT data_type, column_default, is_nullable FROM information_schema.columns WHERE table_schema = 'event_ingest' AND table_name = 'events' AND column_name = 'escaped'`,
        );
        expect(column).toEqual({ data_type: 'boolean', column_default: 'false', is_nullable: 'NO' });
      } finally {
        await after.destroy();
      }
    } finally {
      await opened.close();
    }
  });
});
