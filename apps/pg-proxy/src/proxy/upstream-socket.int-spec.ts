import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { cancelLongSleep, snapshot, startTestProxy, type TestProxy } from '../testing/test-proxy';

// PROXY_UPSTREAM_SOCKET_DIR: the proxy on the database host reaches the server through its
// Unix-domain socket. Sessions, cancels and the masking catalog all go that way.

let db: TestDatabase;
let proxy: TestProxy;

beforeAll(async () => {
  db = await createTestDatabase();
  const [{ unix_socket_directories: dirs }] = await db.query<{ unix_socket_directories: string }>('SHOW unix_socket_directories');
  const dir = dirs.split(',').map((d) => d.trim()).find((d) => d.startsWith('/'));
  if (!dir) throw new Error(`the test server listens on no Unix-domain socket directory (unix_socket_directories = "${dirs}")`);
  proxy = await startTestProxy({ socketDir: dir });
  await db.query('CREATE TABLE people (id int PRIMARY KEY, name text, ssn text)');
  await db.query(`INSERT INTO people VALUES (1, 'Ada', '123-45-6789'), (2, 'Alan', '987-65-4321')`);
  proxy.store.apply(snapshot({ type: 'data_protection', databases: [`db_${db.name}`], config: { rules: [{ name: 'ssn', columns: ['people.ssn'], method: 'partial', show_last: 4 }] } }));
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await db?.drop();
});

it('serves sessions over the socket with the results of a direct connection, and masks through a catalog read over it', async () => {
  const client = new Client({ connectionString: proxy.url(db.name) });
  await client.connect();
  try {
    // A server connection over a Unix-domain socket has no client address.
    expect((await client.query('SELECT inet_client_addr() AS addr')).rows).toEqual([{ addr: null }]);
    const direct = await db.query('SELECT id, name FROM people ORDER BY id');
    expect((await client.query('SELECT id, name FROM people ORDER BY id')).rows).toEqual(direct);
    expect((await client.query('SELECT p.ssn AS x FROM people p WHERE id = 1')).rows).toEqual([{ x: '*******6789' }]);
  } finally {
    await client.end();
  }
  await waitFor(() => proxy.records.some((r) => r.type === 'data.sensitive_access'), 5000, 'the sensitive access record');
  expect(proxy.records.find((r) => r.details.query === 'SELECT id, name FROM people ORDER BY id')?.details).toMatchObject({ rows_affected: 2, user: expect.any(String) });
});

it('routes a cancel request over the socket to the session backend', async () => {
  const client = new Client({ connectionString: proxy.url(db.name) });
  await client.connect();
  try {
    const cancelled = await cancelLongSleep(proxy.port, client, db);
    expect(cancelled.code).toBe('57014');
    expect(cancelled.ms).toBeLessThan(20_000);
  } finally {
    await client.end();
  }
});
