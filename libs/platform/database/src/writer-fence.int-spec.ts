import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import type { DataSource, MigrationInterface } from 'typeorm';
import { createServiceDataSource, runMigrations, sqlMigration } from './data-source';
import { raiseWriterFence, WriterFence, WriterFenced, writerFenceMigration } from './writer-fence';

const SCHEMA = 'fence_test';

describe('writer fence (PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const older = [sqlMigration('Things', 1773400000001, [`CREATE TABLE ${SCHEMA}.things (n int)`], []), writerFenceMigration(SCHEMA, 1773400000002)];
  // A newer release: one more migration, which raises the fence to its own timestamp.
  const Raise = class implements MigrationInterface {
    name = 'Counts1773400000003';
    async up(runner: Parameters<MigrationInterface['up']>[0]) {
      await raiseWriterFence(runner, SCHEMA, 1773400000003, 'counts kept by the writers');
    }
    async down(runner: Parameters<MigrationInterface['down']>[0]) {
      await runner.query(`UPDATE ${SCHEMA}.writer_fence SET min_writer = 0, reason = 'lowered'`);
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
    dataSource = createServiceDataSource({ url: db.url, schema: SCHEMA, migrations: older, poolSize: 4, applicationName: 'test' });
    await dataSource.initialize();
    await runMigrations(dataSource, SCHEMA);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('names a release by its newest migration, and checks nothing for a release without the fence table', async () => {
    expect(WriterFence.forDataSource(dataSource, SCHEMA).release).toBe(1773400000002);
    const without = WriterFence.of(SCHEMA, [older[0]]);
    await dataSource.transaction((manager) => without.check(manager));
  });

  // Fails when a write of the older release can commit after the raise (checked by reading the fence
  // on another connection than the write's transaction, so no lock is held: the raise did not wait).
  it('stops an older release at the raise: the write in flight commits before it, none after, and the older release is refused', async () => {
    const fence = WriterFence.forDataSource(dataSource, SCHEMA);
    expect(await fence.refusal(dataSource)).toBeUndefined();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    // An older replica's write in flight: it read the fence and has not committed yet.
    const inFlight = dataSource.transaction(async (manager) => {
      await fence.check(manager);
      await manager.query(`INSERT INTO ${SCHEMA}.things VALUES (1)`);
      written();
      await held;
      order.push('write committed');
    });
    await wrote;
    const newer = createServiceDataSource({ url: db.url, schema: SCHEMA, migrations: [...older, Raise], poolSize: 2, applicationName: 'test-new' });
    await newer.initialize();
    const raised = runMigrations(newer, SCHEMA).then(() => order.push('fence raised'));
    // The raise waits for the write in flight, whose lock it needs: seen waiting on the lock.
    await waitFor(
      async () => (await db.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'test-new' AND wait_event_type = 'Lock'`)).length === 1,
      10_000,
      'the raise waiting for the write in flight',
    );
    expect(order).toEqual([]);
    release();
    await inFlight;
    await raised;
    expect(order).toEqual(['write committed', 'fence raised']);

    // Every later write of the older release fails before writing.
    await expect(
      dataSource.transaction(async (manager) => {
        await fence.check(manager);
        await manager.query(`INSERT INTO ${SCHEMA}.things VALUES (2)`);
      }),
    ).rejects.toBeInstanceOf(WriterFenced);
    expect(await db.query(`SELECT n FROM ${SCHEMA}.things ORDER BY n`)).toEqual([{ n: 1 }]);
    expect((await fence.refusal(dataSource))?.message).toContain('counts kept by the writers');
    // The newer release writes.
    const newFence = WriterFence.forDataSource(newer, SCHEMA);
    expect(newFence.release).toBe(1773400000003);
    await newer.transaction(async (manager) => {
      await newFence.check(manager);
      await manager.query(`INSERT INTO ${SCHEMA}.things VALUES (3)`);
    });
    expect(await newFence.refusal(newer)).toBeUndefined();
    await newer.destroy();
  });
});
