import { createTestDatabase, type TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { APPEND_ONLY_BYPASS_SETTING, appendOnlyMigration } from './append-only';
import { createServiceDataSource, runMigrations, sqlMigration } from './data-source';
import { eventStoreAppendOnlyMigration, eventStoreMigration } from './event-store';

/** appendOnlyTable on a real PostgreSQL, for the tables other features make append-only. */
describe('append-only tables', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    // A role that held UPDATE and DELETE before the table became append-only.
    await db.query(`DROP ROLE IF EXISTS "${db.name}_writer"`);
    await db.query(`CREATE ROLE "${db.name}_writer" NOLOGIN`);
    dataSource = createServiceDataSource({
      url: db.url,
      schema: 'ao_test',
      migrations: [
        sqlMigration('Tables', 1700000000000, [
          `CREATE TABLE ao_test.log (at timestamptz NOT NULL, v int) PARTITION BY RANGE (at)`,
          `CREATE TABLE ao_test.log_old PARTITION OF ao_test.log FOR VALUES FROM ('2020-01-01') TO ('2021-01-01')`,
          `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ao_test.log, ao_test.log_old TO "${db.name}_writer"`,
        ], []),
        appendOnlyMigration('ao_test', 'log', 1700000000001),
        eventStoreMigration('ao_test', 1700000000002),
        eventStoreAppendOnlyMigration('ao_test', 1700000000003),
      ],
      poolSize: 2,
      applicationName: 'append-only-test',
    });
    await dataSource.initialize();
    await runMigrations(dataSource, 'ao_test');
    await dataSource.query(`INSERT INTO ao_test.log VALUES ('2020-06-01', 1)`);
    await dataSource.query(`INSERT INTO ao_test.event_store (stream_id, version, type, data) VALUES ('s', 1, 't', '{}')`);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
    const { Client } = await import('pg');
    const admin = new Client({ connectionString: db.url.replace(/\/[^/]+$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS "${db.name}_writer"`).finally(() => admin.end());
  });

  it.each([
    `UPDATE ao_test.log SET v = 2`,
    `DELETE FROM ao_test.log`,
    `TRUNCATE ao_test.log`,
    `UPDATE ao_test.log_old SET v = 2`,
    `TRUNCATE ao_test.log_old`,
    `UPDATE ao_test.event_store SET type = 'x'`,
    `DELETE FROM ao_test.event_store`,
    `TRUNCATE ao_test.event_store`,
  ])('refuses %s to anyone, the table owner included', async (sql) => {
    await expect(dataSource.query(sql)).rejects.toThrow(/append-only: stored rows are immutable/);
  });

  it('protects a partition added later once append_only_protect runs on it, and takes UPDATE, DELETE and TRUNCATE from other roles', async () => {
    await dataSource.query(`CREATE TABLE ao_test.log_new PARTITION OF ao_test.log FOR VALUES FROM ('2021-01-01') TO ('2022-01-01')`);
    await dataSource.query(`SELECT ao_test.append_only_protect('ao_test.log_new'::regclass)`);
    await expect(dataSource.query(`TRUNCATE ao_test.log_new`)).rejects.toThrow(/append-only/);
    const grants = await db.query<{ table_name: string; privilege_type: string }>(
      `SELECT table_name, privilege_type FROM information_schema.role_table_grants WHERE grantee = $1 ORDER BY 1, 2`,
      [`${db.name}_writer`],
    );
    expect(grants).toEqual([
      { table_name: 'log', privilege_type: 'INSERT' },
      { table_name: 'log', privilege_type: 'SELECT' },
      { table_name: 'log_old', privilege_type: 'INSERT' },
      { table_name: 'log_old', privilege_type: 'SELECT' },
    ]);
  });

  it('lets a DELETE through only in a transaction that named the table in the bypass setting (the maintenance functions)', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query(`SELECT set_config('${APPEND_ONLY_BYPASS_SETTING}', 'ao_test.log_old', true)`);
      // Another table, or an UPDATE: still refused.
      await expect(manager.query(`SAVEPOINT a; DELETE FROM ao_test.event_store`)).rejects.toThrow(/append-only/);
      await manager.query('ROLLBACK TO SAVEPOINT a');
      await expect(manager.query(`SAVEPOINT b; UPDATE ao_test.log_old SET v = 3`)).rejects.toThrow(/append-only/);
      await manager.query('ROLLBACK TO SAVEPOINT b');
      expect(await manager.query(`WITH d AS (DELETE FROM ao_test.log_old RETURNING 1) SELECT count(*)::int AS n FROM d`)).toEqual([{ n: 1 }]);
    });
    // The setting was local to that transaction.
    await dataSource.query(`INSERT INTO ao_test.log VALUES ('2020-07-01', 4)`);
    await expect(dataSource.query(`DELETE FROM ao_test.log_old`)).rejects.toThrow(/append-only/);
  });
});
