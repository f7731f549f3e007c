import { createTestDatabase, type TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { createServiceDataSource, runMigrations } from './data-source';
import { ConcurrencyError, EventStore, eventStoreMigration } from './event-store';

describe('EventStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const store = new EventStore('es_test');

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({
      url: db.url, schema: 'es_test', migrations: [eventStoreMigration('es_test', 1700000000000)], poolSize: 5, applicationName: 'test',
    });
    await dataSource.initialize();
    await runMigrations(dataSource, 'es_test');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('appends events with consecutive versions and reads them back in order', async () => {
    await dataSource.transaction((m) => store.append(m, 'pol_a', 0, [{ type: 'created', data: { n: 1 } }, { type: 'updated', data: { n: 2 } }]));
    await dataSource.transaction((m) => store.append(m, 'pol_a', 2, [{ type: 'enabled', data: {} }]));
    const events = await store.readStream(dataSource.manager, 'pol_a');
    expect(events.map((e) => [e.version, e.type])).toEqual([[1, 'created'], [2, 'updated'], [3, 'enabled']]);
  });

  it('lets exactly one of two writers that loaded the same version append', async () => {
    await dataSource.transaction((m) => store.append(m, 'pol_b', 0, [{ type: 'created', data: {} }]));
    const results = await Promise.allSettled([
      dataSource.transaction((m) => store.append(m, 'pol_b', 1, [{ type: 'updated', data: { by: 'x' } }])),
      dataSource.transaction((m) => store.append(m, 'pol_b', 1, [{ type: 'updated', data: { by: 'y' } }])),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ConcurrencyError);
    expect(await store.readStream(dataSource.manager, 'pol_b')).toHaveLength(2);
  });

  it('refuses to change or delete a stored event', async () => {
    await dataSource.transaction((m) => store.append(m, 'pol_c', 0, [{ type: 'created', data: {} }]));
    await expect(dataSource.query(`UPDATE es_test.event_store SET type = 'x' WHERE stream_id = 'pol_c'`)).rejects.toThrow(/immutable/);
    await expect(dataSource.query(`DELETE FROM es_test.event_store WHERE stream_id = 'pol_c'`)).rejects.toThrow(/immutable/);
  });

  it('reads all streams by position for projection rebuilds', async () => {
    const all = await store.readAll(dataSource.manager, 0, 1000);
    const positions = all.map((e) => e.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(await store.readAll(dataSource.manager, positions[positions.length - 1]!, 10)).toEqual([]);
  });
});

describe('runMigrations', () => {
  it('runs each migration once when replicas start together', async () => {
    const db = await createTestDatabase();
    const sources = [1, 2, 3].map(() =>
      createServiceDataSource({ url: db.url, schema: 'race', migrations: [eventStoreMigration('race', 1700000000000)], poolSize: 2, applicationName: 'test' }),
    );
    try {
      await Promise.all(sources.map((s) => s.initialize()));
      const applied = await Promise.all(sources.map((s) => runMigrations(s, 'race')));
      expect(applied.flat()).toEqual(['EventStore1700000000000']);
      expect(await db.query(`SELECT name FROM race.migrations`)).toEqual([{ name: 'EventStore1700000000000' }]);
    } finally {
      await Promise.all(sources.map((s) => s.destroy()));
      await db.drop();
    }
  });
});
