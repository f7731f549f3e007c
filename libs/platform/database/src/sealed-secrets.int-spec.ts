import { type SealedColumn, SecretBox, secretContext } from '@vigil/platform';
import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createServiceDataSource } from './data-source';
import { reencryptSecrets, secretsStatus } from './sealed-secrets';

const COLUMN: SealedColumn = { table: 'vault.items', column: 'sealed', id: 'id', keyIdColumn: 'key_id', resource: 'item' };
const OTHER: SealedColumn = { table: 'vault.items', column: 'other_sealed', id: 'id', resource: 'item' };

/**
 * reencryptSecrets on the real PostgreSQL: every value moves to the current key, rows are
 * locked one at a time (a writer holding a row is waited for, and what it wrote is kept), a value
 * that does not open is left alone and reported, and a second run changes nothing.
 */
describe('reencryptSecrets (PostgreSQL)', () => {
  const oldKey = SecretBox.generateKey();
  const newKey = SecretBox.generateKey();
  const before = new SecretBox([oldKey]);
  const after = new SecretBox([newKey, oldKey]);
  let db: TestDatabase;
  let dataSource: DataSource;
  const read = async (id: string) => (await db.query<{ sealed: string; other_sealed: string | null; key_id: string }>(`SELECT sealed, other_sealed, key_id FROM vault.items WHERE id = $1`, [id]))[0]!;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.query(`CREATE SCHEMA vault`);
    await db.query(`CREATE TABLE vault.items (id text PRIMARY KEY, sealed text, other_sealed text, key_id text)`);
    dataSource = createServiceDataSource({ url: db.url, schema: 'vault', migrations: [], poolSize: 2, applicationName: 'vigil-reencrypt-test' });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('re-seals every value under the current key, waits for a writer holding a row and keeps what it wrote, and a second run changes nothing', async () => {
    for (const id of ['a', 'b', 'c']) {
      await db.query(`INSERT INTO vault.items (id, sealed, other_sealed, key_id) VALUES ($1, $2, $3, $4)`, [
        id,
        before.seal(`plain-${id}`, secretContext(COLUMN, id)),
        before.seal(`other-${id}`, secretContext(OTHER, id)),
        before.currentKeyId,
      ]);
    }
    // A service writing row b: its transaction holds the row while the command runs.
    const writer = new Client({ connectionString: db.url });
    await writer.connect();
    const written = after.seal('written-by-the-service', secretContext(COLUMN, 'b'));
    await writer.query('BEGIN');
    await writer.query(`UPDATE vault.items SET sealed = $1 WHERE id = 'b'`, [written]);
    const recorded: string[] = [];
    const running = reencryptSecrets(dataSource, [COLUMN, OTHER], after, async (manager, change) => {
      recorded.push(`${change.column.column}:${change.id}:${change.before.keyId}->${change.after.keyId}`);
      await manager.query('SELECT 1');
    });
    await waitFor(
      async () => (await db.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'vigil-reencrypt-test' AND wait_event_type = 'Lock'`)).length > 0,
      10_000,
      'the command waiting for the row lock',
    );
    await writer.query('COMMIT');
    await writer.end();
    const result = await running;

    expect(result.runs).toEqual([
      { column: 'vault.items.sealed', resealed: 2, upgraded: 0, failed: [] },
      { column: 'vault.items.other_sealed', resealed: 3, upgraded: 0, failed: [] },
    ]);
    expect(recorded).toHaveLength(5);
    expect(recorded).toContain(`sealed:a:${before.currentKeyId}->${after.currentKeyId}`);
    expect((await read('b')).sealed).toBe(written);
    for (const id of ['a', 'b', 'c']) {
      const row = await read(id);
      expect(SecretBox.header(row.sealed)).toEqual({ format: 'v2', keyId: after.currentKeyId });
      expect(after.open(row.other_sealed!, secretContext(OTHER, id))).toBe(`other-${id}`);
    }
    expect((await read('a')).key_id).toBe(after.currentKeyId);
    expect(after.open((await read('c')).sealed, secretContext(COLUMN, 'c'))).toBe('plain-c');
    expect(result.done).toBe(true);
    expect(result.keys).toEqual([
      { key_id: after.currentKeyId, current: true, values: 6 },
      { key_id: before.currentKeyId, current: false, values: 0 },
    ]);

    // Only the new key is needed now, and nothing is left to do.
    const snapshot = await db.query(`SELECT * FROM vault.items ORDER BY id`);
    const again = await reencryptSecrets(dataSource, [COLUMN, OTHER], new SecretBox([newKey]));
    expect(again.runs.map((r) => r.resealed)).toEqual([0, 0]);
    expect(again.done).toBe(true);
    expect(await db.query(`SELECT * FROM vault.items ORDER BY id`)).toEqual(snapshot);
  }, 30_000);

  it('leaves a value that does not open where it is, names its row and reason, and is not done', async () => {
    const box = new SecretBox([newKey]);
    const stray = before.seal('stray', secretContext(COLUMN, 'd'));
    await db.query(`INSERT INTO vault.items (id, sealed) VALUES ('d', $1), ('e', $2)`, [stray, box.seal('moved', secretContext(COLUMN, 'a'))]);
    const status = await secretsStatus(dataSource, [COLUMN], box);
    expect(status.columns[0]!.unreadable).toEqual([
      { id: 'd', reason: 'unknown_key', key_id: before.currentKeyId },
      { id: 'e', reason: 'wrong_place_or_altered', key_id: box.currentKeyId },
    ]);
    expect(status.unknown_keys).toEqual([before.currentKeyId]);
    const result = await reencryptSecrets(dataSource, [COLUMN], box);
    expect(result.runs[0]!.failed).toEqual([{ id: 'd', reason: 'unknown_key', key_id: before.currentKeyId }]);
    expect(result.done).toBe(false);
    expect((await read('d')).sealed).toBe(stray);
    await db.query(`DELETE FROM vault.items WHERE id IN ('d', 'e')`);
  });

  it('upgrades a value in format v1 under the current key, and counts it as legacy until then', async () => {
    const box = new SecretBox([newKey]);
    const { createCipheriv, randomBytes } = await import('node:crypto');
    const key = Buffer.from(newKey, 'base64');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update('legacy', 'utf8'), cipher.final()]);
    const v1 = ['v1', box.currentKeyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    await db.query(`INSERT INTO vault.items (id, sealed) VALUES ('f', $1)`, [v1]);
    const status = await secretsStatus(dataSource, [COLUMN], box);
    expect(status.columns[0]).toMatchObject({ legacy_format: 1, pending: 1, unreadable: [] });
    const result = await reencryptSecrets(dataSource, [COLUMN], box);
    expect(result.runs[0]).toMatchObject({ resealed: 1, upgraded: 1 });
    expect(result.columns[0]).toMatchObject({ legacy_format: 0, pending: 0 });
    expect(box.open((await read('f')).sealed, secretContext(COLUMN, 'f'))).toBe('legacy');
  });
});
