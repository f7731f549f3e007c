import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import { createServiceDataSource, runMigrations } from '@vigil/database';
import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { bind, describe as describeMsg, encodeStartup, execute, MessageReader, MessageWriter, parse, query as queryMsg } from '../protocol/messages';
import { cancelLongSleep, startTestProxy, type TestProxy } from '../testing/test-proxy';

const run = promisify(execFile);

let db: TestDatabase;
let proxy: TestProxy;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startTestProxy();
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await db?.drop();
});

async function psql(url: string, script: string): Promise<string> {
  const child = execFile('psql', ['-X', '-v', 'ON_ERROR_STOP=0', '-d', url, '-f', '-'], { env: { ...process.env, PGAPPNAME: 'relay-test' } });
  // Two pipes: their interleaving depends on timing, so each is compared on its own.
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  child.stdin!.end(script);
  await new Promise((resolve) => child.on('exit', resolve));
  return `${out}\n--- stderr ---\n${err}`;
}

/** Raw protocol exchange: one startup, then the given bytes in one write; the answers until `until` ReadyForQuery messages. */
async function raw(port: number, database: string, payload: Buffer, readies = 1): Promise<{ type: string; body: string }[]> {
  const user = new URL(db.url).username || 'postgres';
  const socket = connect({ host: '127.0.0.1', port });
  const reader = new MessageReader();
  const out: { type: string; body: string }[] = [];
  let seen = 0;
  let started = false;
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('connect', () => socket.write(encodeStartup({ user, database })));
    socket.on('data', (chunk) => {
      reader.push(chunk);
      let m;
      while ((m = reader.next())) {
        if (!started) {
          if (m.type === 'R' && m.body.readInt32BE(0) !== 0) return reject(new Error('the test server must trust local connections'));
          if (m.type === 'Z') {
            started = true;
            socket.write(payload);
          }
          continue;
        }
        // Error fields differ only in the server's source position lines; keep severity, code, message.
        const body = m.type === 'E' ? m.body.toString('utf8').split('\0').filter((f) => /^[SCM]/.test(f)).join('|') : m.body.toString('hex');
        out.push({ type: m.type, body });
        if (m.type === 'Z' && ++seen === readies) {
          socket.end();
          resolve(out);
        }
      }
    });
  });
}

/**
 * The SHA-256 of every message answering `sql` (through ReadyForQuery), read by a client that
 * stops reading for a while after sending it: the answer backs up in the sockets on the way.
 */
async function slowReader(port: number, database: string, sql: string): Promise<{ sha256: string; bytes: number }> {
  const user = new URL(db.url).username || 'postgres';
  const socket = connect({ host: '127.0.0.1', port });
  const reader = new MessageReader();
  const hash = createHash('sha256');
  let bytes = 0;
  let started = false;
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('connect', () => socket.write(encodeStartup({ user, database })));
    socket.on('data', (chunk) => {
      reader.push(chunk);
      let m;
      while ((m = reader.next())) {
        if (!started) {
          if (m.type === 'Z') {
            started = true;
            socket.write(queryMsg(sql));
            socket.pause();
            setTimeout(() => socket.resume(), 500);
          }
          continue;
        }
        hash.update(m.raw);
        bytes += m.raw.length;
        if (m.type === 'Z') {
          socket.end();
          resolve({ sha256: hash.digest('hex'), bytes });
        }
      }
    });
  });
}

const sync = () => new MessageWriter().finish('S');

describe('relay through the proxy, compared with a direct connection', () => {
  beforeAll(async () => {
    await db.query('CREATE TABLE items (id int PRIMARY KEY, name text, price numeric(10,2), tags text[], data jsonb, made timestamptz)');
    await db.query(`INSERT INTO items SELECT g, 'item ' || g, g * 1.5, ARRAY['a','b'], jsonb_build_object('g', g), '2026-01-01'::timestamptz + g * interval '1 hour' FROM generate_series(1, 200) g`);
  });

  it('answers a psql script (queries, errors, transactions, COPY in and out, multi-statement strings) exactly as the server does', async () => {
    const script = [
      'SELECT id, name, price, tags, data FROM items WHERE id <= 5 ORDER BY id;',
      'SELECT count(*), sum(price) FROM items;',
      'SELECT 1/0;',
      'BEGIN;',
      'CREATE TEMP TABLE t (a int, b text);',
      "COPY t FROM STDIN;\n1\tone\n2\ttwo\n\\.",
      'SELECT * FROM t ORDER BY a;',
      'SELECT nope FROM t;',
      'SELECT 1;',
      'ROLLBACK;',
      "SELECT 1 AS one; SELECT 'two' AS two; VALUES (3), (4);",
      'COPY (SELECT id, name FROM items WHERE id < 4 ORDER BY id) TO STDOUT;',
      'SHOW server_version_num;',
      '\\d items',
    ].join('\n');
    const direct = await psql(db.url, script);
    const through = await psql(proxy.url(db.name), script);
    expect(direct).toContain('division by zero');
    expect(direct).toContain('current transaction is aborted');
    expect(through).toBe(direct);
  });

  it('serves node-postgres with named prepared statements, parameters, NULLs and binary-free types like a direct connection', async () => {
    const results: unknown[][] = [];
    for (const url of [db.url, proxy.url(db.name)]) {
      const client = new Client({ connectionString: url });
      await client.connect();
      const out: unknown[] = [];
      for (const id of [1, 2, 3]) out.push((await client.query({ name: 'by-id', text: 'SELECT id, name, price, tags, data, made FROM items WHERE id = $1', values: [id] })).rows);
      out.push((await client.query('SELECT $1::text AS a, $2::int AS b, $3::text IS NULL AS c', ['x', 42, null])).rows);
      out.push(await client.query('SELECT * FROM missing_table').catch((e: { code: string; message: string }) => ({ code: e.code, message: e.message })));
      out.push((await client.query('UPDATE items SET price = price WHERE id < $1', [10])).rowCount);
      out.push((await client.query({ text: 'SELECT id FROM items ORDER BY id LIMIT 3', rowMode: 'array' })).rows);
      await client.end();
      results.push(out);
    }
    expect(results[1]).toEqual(results[0]);
    expect((results[0]![4] as { code: string }).code).toBe('42P01');
  });

  it('relays a pipelined extended-protocol batch (unnamed and named statements and portals, an error mid-pipeline) byte for byte', async () => {
    const payload = Buffer.concat([
      parse('', 'SELECT id, name FROM items WHERE id < $1 ORDER BY id', [23]),
      new MessageWriter().cstring('').cstring('').int16(0).int16(1).int32(1).bytes(Buffer.from('4')).int16(0).finish('B'),
      describeMsg('P', ''),
      execute('', 2),
      execute('', 0),
      parse('named', 'SELECT count(*) FROM items'),
      bind('portal1', 'named'),
      describeMsg('P', 'portal1'),
      execute('portal1'),
      sync(),
      parse('', 'SELECT * FROM nowhere'),
      bind('', ''),
      execute(''),
      sync(),
      bind('', 'named'),
      execute(''),
      sync(),
    ]);
    const direct = await raw(Number(new URL(db.url).port || 5432), db.name, payload, 3);
    const through = await raw(proxy.port, db.name, payload, 3);
    expect(direct.map((m) => m.type).join('')).toBe('12TDDsDC12TDCZEZ2DCZ');
    expect(through).toEqual(direct);
  });

  it('delivers notifications (LISTEN/NOTIFY) and notices', async () => {
    const listener = new Client({ connectionString: proxy.url(db.name) });
    await listener.connect();
    const received: { channel: string; payload?: string }[] = [];
    const notices: string[] = [];
    listener.on('notification', (n) => received.push({ channel: n.channel, payload: n.payload }));
    listener.on('notice', (n) => notices.push(n.message ?? ''));
    await listener.query('LISTEN vigil_channel');
    const notifier = new Client({ connectionString: proxy.url(db.name) });
    await notifier.connect();
    await notifier.query("NOTIFY vigil_channel, 'hello'");
    await notifier.query("SELECT pg_notify('vigil_channel', 'second')");
    await waitFor(() => received.length === 2, 5000, 'notifications');
    expect(received).toEqual([
      { channel: 'vigil_channel', payload: 'hello' },
      { channel: 'vigil_channel', payload: 'second' },
    ]);
    await listener.query(`DO $$BEGIN RAISE NOTICE 'careful'; END$$`);
    expect(notices).toEqual(['careful']);
    await Promise.all([listener.end(), notifier.end()]);
  });

  it('routes a cancel request to the server backend behind the session, ending a long pg_sleep', async () => {
    const client = new Client({ connectionString: proxy.url(db.name) });
    await client.connect();
    const cancelled = await cancelLongSleep(proxy.port, client, db);
    // The client holds the proxy's key, not the server's.
    expect(cancelled.clientPid).not.toBe(cancelled.backend);
    expect(cancelled.code).toBe('57014');
    expect(cancelled.ms).toBeLessThan(20_000);
    // The session goes on.
    expect((await client.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
    await client.end();
  });

  it('relays megabytes of results to a client that reads slowly byte for byte (messages spanning reads, writes to the client backed up)', async () => {
    // Rows of 6.4 KB and of 100 KB: most messages span the proxy's reads from the server.
    const sql = "SELECT g, repeat(md5(g::text), CASE WHEN g % 100 = 0 THEN 3200 ELSE 200 END) FROM generate_series(1, 1500) g";
    const direct = await slowReader(Number(new URL(db.url).port), db.name, sql);
    const proxied = await slowReader(proxy.port, db.name, sql);
    expect(direct.bytes).toBeGreaterThan(10_000_000);
    expect(proxied).toEqual(direct);
  }, 60_000);

  it('runs pgbench (simple and prepared protocols) through the proxy', async () => {
    const url = proxy.url(db.name);
    await run('pgbench', ['-i', '-s', '1', '-q', url]);
    for (const mode of ['simple', 'extended', 'prepared']) {
      const { stdout } = await run('pgbench', ['-M', mode, '-c', '2', '-t', '50', '-n', url]);
      expect(stdout).toMatch(/number of failed transactions: 0/);
      expect(stdout).toMatch(/number of transactions actually processed: 100\/100/);
    }
  }, 60_000);

  it('captures the session: connection, login, each statement with type, objects, rows, duration and error, and the disconnect', async () => {
    const client = new Client({ connectionString: proxy.url(db.name), application_name: 'capture-test' });
    await client.connect();
    await client.query('SELECT id FROM items WHERE id < 4');
    await client.query('UPDATE items SET name = name WHERE id <= $1', [7]);
    await client.query('SELECT * FROM nowhere').catch(() => undefined);
    await client.query('SELECT 1; DELETE FROM items WHERE id < 0');
    await client.end();
    const mine = () => proxy.records.filter((r) => r.details?.client_application === 'capture-test');
    await waitFor(() => mine().some((r) => r.type === 'database.disconnect'), 5000, 'the disconnect record');
    const records = mine();
    const types = records.map((r) => r.type);
    expect(types.slice(0, 2)).toEqual(['user.login_success', 'database.connection']);
    // Statement records are built after their answer is written, but still before the disconnect.
    expect(types.at(-1)).toBe('database.disconnect');
    const queries = records.filter((r) => r.type === 'database.query').map((r) => r.details as Record<string, unknown>);
    expect(queries).toEqual([
      expect.objectContaining({ query: 'SELECT id FROM items WHERE id < 4', statement_type: 'SELECT', objects: ['items'], rows_affected: 3 }),
      expect.objectContaining({ query: 'UPDATE items SET name = name WHERE id <= $1', statement_type: 'UPDATE', objects: ['items'], rows_affected: 7, parameter_count: 1 }),
      expect.objectContaining({ query: 'SELECT * FROM nowhere', error: { code: '42P01', message: 'relation "nowhere" does not exist' } }),
      expect.objectContaining({ query: 'SELECT 1', statement_type: 'SELECT', rows_affected: 1 }),
      expect.objectContaining({ query: 'DELETE FROM items WHERE id < 0', statement_type: 'DELETE', rows_affected: 0 }),
    ]);
    expect(queries[1]).not.toHaveProperty('parameters');
    for (const r of records) {
      expect(r).toMatchObject({ database_id: `db_${db.name}`, details: { user: expect.any(String), source_ip: '127.0.0.1', session_id: expect.stringMatching(/^sess_/) } });
      expect(typeof r.id).toBe('string');
    }
    expect(typeof queries[0]!.duration_ms).toBe('number');
  });

  it("runs an ORM's migrations (TypeORM, under an advisory lock, one transaction each) through the proxy", async () => {
    class CreateWidgets1700000000001 implements MigrationInterface {
      async up(q: QueryRunner) {
        await q.query('CREATE TABLE orm.widgets (id serial PRIMARY KEY, name text NOT NULL UNIQUE)');
        await q.query('CREATE INDEX widgets_name ON orm.widgets (lower(name))');
      }
      async down(q: QueryRunner) {
        await q.query('DROP TABLE orm.widgets');
      }
    }
    class SeedWidgets1700000000002 implements MigrationInterface {
      async up(q: QueryRunner) {
        await q.query('INSERT INTO orm.widgets (name) VALUES ($1), ($2)', ['a', 'b']);
      }
      async down(q: QueryRunner) {
        await q.query('DELETE FROM orm.widgets');
      }
    }
    const source = createServiceDataSource({ url: proxy.url(db.name), schema: 'orm', migrations: [CreateWidgets1700000000001, SeedWidgets1700000000002], poolSize: 2, applicationName: 'orm-test' });
    await source.initialize();
    expect(await runMigrations(source, 'orm')).toEqual(['CreateWidgets1700000000001', 'SeedWidgets1700000000002']);
    expect(await runMigrations(source, 'orm')).toEqual([]);
    expect(await source.query('SELECT name FROM orm.widgets ORDER BY id')).toEqual([{ name: 'a' }, { name: 'b' }]);
    await source.destroy();
  });

  it('records a failed login', async () => {
    const client = new Client({ connectionString: proxy.url('no_such_database_here'), application_name: 'failing-login' });
    const error = (await client.connect().catch((e) => e)) as { code: string };
    expect(error.code).toBe('3D000');
    await waitFor(() => proxy.records.some((r) => r.type === 'user.login_failed' && r.database_id === 'db_no_such_database_here'), 5000, 'login_failed');
  });
});
