import { createTestDatabase, type TestDatabase } from '@vigil/testing';
import { Client } from 'pg';
import { startTestProxy } from '../testing/test-proxy';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query('CREATE TABLE t (id int)');
});

afterAll(async () => db?.drop());

it('shuts down gracefully: no new sessions, idle ones closed, a transaction in progress may finish', async () => {
  const proxy = await startTestProxy();
  const idle = new Client({ connectionString: proxy.url(db.name) });
  const busy = new Client({ connectionString: proxy.url(db.name) });
  await idle.connect();
  await busy.connect();
  idle.on('error', () => undefined);
  busy.on('error', () => undefined);
  await busy.query('BEGIN');
  await busy.query('INSERT INTO t VALUES (1)');

  const stopping = proxy.server.stop(10_000);
  await new Promise((r) => setTimeout(r, 300));
  const late = new Client({ connectionString: proxy.url(db.name) });
  expect(await late.connect().then(() => 'connected', () => 'refused')).toBe('refused');
  expect(await idle.query('SELECT 1').then(() => 'ran', () => 'closed')).toBe('closed');

  // The open transaction is left to finish, then its session is closed.
  await busy.query('INSERT INTO t VALUES (2)');
  await busy.query('COMMIT');
  await stopping;
  expect(await db.query('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 2 }]);
  expect(proxy.server.sessionCount).toBe(0);
  await proxy.close();
});
