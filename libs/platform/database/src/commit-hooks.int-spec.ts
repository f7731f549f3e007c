import { createTestDatabase, type TestDatabase } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { afterCommit } from './commit-hooks';
import { createServiceDataSource } from './data-source';

describe('afterCommit (PostgreSQL)', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createServiceDataSource({ url: db.url, schema: 'public', migrations: [], poolSize: 3, applicationName: 'test' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (n int)');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await db.drop();
  });

  it('runs after the commit, when the rows are visible to other sessions', async () => {
    const seen: number[] = [];
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO t VALUES (1)');
      afterCommit(manager, () => seen.push(-1));
      // Not yet: the transaction is still open.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([-1]);
    const [row] = await db.query('SELECT count(*)::int AS n FROM t WHERE n = 1');
    expect(row).toEqual({ n: 1 });
  });

  it('never runs when the transaction rolls back', async () => {
    const seen: string[] = [];
    await expect(
      dataSource.transaction(async (manager) => {
        afterCommit(manager, () => seen.push('rolled back'));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await dataSource.transaction(async (manager) => afterCommit(manager, () => seen.push('next')));
    expect(seen).toEqual(['next']);
  });

  it('forgets work registered in a savepoint that is rolled back, keeps the rest for the outer commit', async () => {
    const seen: string[] = [];
    await dataSource.transaction(async (manager) => {
      afterCommit(manager, () => seen.push('outer'));
      await expect(
        manager.transaction(async (inner) => {
          afterCommit(inner, () => seen.push('inner, rolled back'));
          throw new Error('inner abort');
        }),
      ).rejects.toThrow('inner abort');
      await manager.transaction(async (inner) => afterCommit(inner, () => seen.push('inner, released')));
      // A released savepoint is not a commit.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['outer', 'inner, released']);
  });

  it('keeps work of a released savepoint when a later sibling savepoint rolls back', async () => {
    const seen: string[] = [];
    await dataSource.transaction(async (manager) => {
      await manager.transaction(async (inner) => afterCommit(inner, () => seen.push('released')));
      await expect(
        manager.transaction(async (inner) => {
          afterCommit(inner, () => seen.push('rolled back'));
          throw new Error('sibling abort');
        }),
      ).rejects.toThrow('sibling abort');
    });
    expect(seen).toEqual(['released']);
  });

  it('runs at once outside a transaction, and a throwing callback does not fail the commit', async () => {
    const seen: string[] = [];
    afterCommit(dataSource.manager, () => seen.push('now'));
    expect(seen).toEqual(['now']);
    await expect(
      dataSource.transaction(async (manager) => {
        afterCommit(manager, () => {
          throw new Error('callback bug');
        });
        afterCommit(manager, () => seen.push('still runs'));
      }),
    ).resolves.toBeUndefined();
    expect(seen).toEqual(['now', 'still runs']);
  });
});
