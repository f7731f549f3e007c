import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { snapshot, startTestProxy, type TestProxy } from '../testing/test-proxy';

let db: TestDatabase;
let proxy: TestProxy;
const auditor = `vigil_auditor_${randomBytes(4).toString('hex')}`;

async function client(p: TestProxy, user?: string, application = 'enforcement-test'): Promise<Client> {
  const c = new Client({ connectionString: p.url(db.name, user), application_name: application });
  await c.connect();
  return c;
}

async function failure(promise: Promise<unknown>): Promise<{ code?: string; message: string; detail?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the statement to fail');
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(`CREATE ROLE ${auditor} LOGIN`);
  await db.query(`GRANT ALL ON SCHEMA public TO ${auditor}`);
  await db.query('CREATE TABLE customers (id int PRIMARY KEY, name text, ssn text, email varchar(100), score int)');
  await db.query("INSERT INTO customers VALUES (1, 'Ada', '123-45-6789', 'ada@example.com', 90), (2, 'Bob', '987-65-4321', 'bob@example.com', 70)");
  await db.query('CREATE TABLE orders (id int, customer_id int, total numeric)');
  await db.query('INSERT INTO orders VALUES (10, 1, 5.5), (11, 2, 7)');
  await db.query('CREATE TABLE keep (id int)');
  await db.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${auditor}`);
  proxy = await startTestProxy();
  const database = `db_${db.name}`;
  proxy.store.apply(
    snapshot({
      id: 'pol_noddl',
      name: 'no drops',
      type: 'query_control',
      databases: [database],
      config: { rules: [{ name: 'drop', pattern: '^\\s*drop\\s+table', action: 'block', severity: 'critical', message: 'Dropping tables is not allowed' }] },
    }),
  );
  proxy.store.apply(
    snapshot({
      id: 'pol_pii',
      name: 'pii',
      type: 'data_protection',
      databases: [database],
      config: {
        rules: [
          { name: 'ssn', columns: ['customers.ssn'], method: 'partial', show_last: 4 },
          { name: 'email', columns: ['*.email'], method: 'redact' },
          { name: 'score', columns: ['customers.score'], method: 'null' },
        ],
        exceptions: { users: [auditor] },
      },
    }),
  );
}, 30_000);

afterAll(async () => {
  await proxy?.close();
  await db?.drop();
  const admin = await createTestDatabase();
  await admin.query(`DROP ROLE IF EXISTS ${auditor}`).catch(() => undefined);
  await admin.drop();
});

describe('blocking', () => {
  it('refuses a forbidden statement with SQLSTATE 42501 and the policy message, and records it as blocked', async () => {
    const c = await client(proxy, undefined, 'block-alone');
    const error = await failure(c.query('DROP TABLE keep'));
    expect(error).toMatchObject({ code: '42501', message: 'Dropping tables is not allowed' });
    expect(error.detail).toContain('pol_noddl');
    expect(await db.query(`SELECT to_regclass('keep') AS t`)).toEqual([{ t: 'keep' }]);
    expect((await c.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    await c.end();
    await waitFor(() => proxy.records.find((r) => r.details?.client_application === 'block-alone' && r.details?.blocked), 5000, 'blocked record');
    const record = proxy.records.find((r) => r.details?.client_application === 'block-alone' && r.details?.blocked)!;
    expect(record).toMatchObject({ type: 'database.query', details: { query: 'DROP TABLE keep', blocked: true, error: { code: '42501' }, enforcement: { action: 'blocked', policy_id: 'pol_noddl' } } });
  });

  it('refuses a whole multi-statement string when one of its statements is forbidden', async () => {
    const c = await client(proxy);
    const error = await failure(c.query('INSERT INTO keep VALUES (1); DROP TABLE keep; INSERT INTO keep VALUES (2)'));
    expect(error.code).toBe('42501');
    expect(await db.query('SELECT count(*)::int AS n FROM keep')).toEqual([{ n: 0 }]);
    await c.end();
  });

  it('aborts an explicit transaction on the server too: nothing of it persists after COMMIT', async () => {
    const c = await client(proxy);
    await c.query('BEGIN');
    await c.query('INSERT INTO keep VALUES (100)');
    expect((await failure(c.query('DROP TABLE keep'))).code).toBe('42501');
    // Like after any error: the transaction is aborted, further statements fail, COMMIT rolls back.
    expect((await failure(c.query('INSERT INTO keep VALUES (101)'))).code).toBe('25P02');
    const commit = await c.query('COMMIT');
    expect(commit.command).toBe('ROLLBACK');
    expect(await db.query('SELECT count(*)::int AS n FROM keep WHERE id >= 100')).toEqual([{ n: 0 }]);
    expect((await c.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    await c.end();
  });

  it('blocks through the extended protocol, at Parse and at Execute of a statement prepared before the policy', async () => {
    const c = await client(proxy);
    const error = await failure(c.query({ name: 'dropper', text: 'DROP TABLE keep' }));
    expect(error.code).toBe('42501');
    await c.query({ name: 'truncate-keep', text: 'TRUNCATE keep' });
    await c.query('BEGIN');
    await c.query({ text: 'INSERT INTO keep VALUES ($1)', values: [7] });
    proxy.store.apply(
      snapshot({ id: 'pol_notrunc', name: 'no truncate', type: 'query_control', databases: [`db_${db.name}`], config: { rules: [{ name: 't', pattern: '^truncate', action: 'block', message: 'No truncation' }] } }),
    );
    const late = await failure(c.query({ name: 'truncate-keep', text: 'TRUNCATE keep' }));
    expect(late).toMatchObject({ code: '42501', message: 'No truncation' });
    expect((await c.query('COMMIT')).command).toBe('ROLLBACK');
    expect(await db.query('SELECT count(*)::int AS n FROM keep WHERE id = 7')).toEqual([{ n: 0 }]);
    expect((await c.query({ text: 'SELECT $1::int AS v', values: [5] })).rows).toEqual([{ v: 5 }]);
    await c.end();
  });

  it('enforces access_control at connect (source CIDR) and names the policy', async () => {
    const p = await startTestProxy();
    p.store.apply(snapshot({ id: 'pol_net', name: 'office only', type: 'access_control', databases: [`db_${db.name}`], config: { conditions: { allowed_ips: ['10.0.0.0/8'] }, actions: [{ type: 'block' }] } }));
    const c = new Client({ connectionString: p.url(db.name) });
    const error = await failure(c.connect());
    expect(error.code).toBe('42501');
    await waitFor(() => p.records.find((r) => r.type === 'user.login_failed' && r.details?.blocked), 5000, 'refused login record');
    await p.close();
  });
});

describe('masking', () => {
  it('masks protected columns by source table and column, whatever the alias, in SELECT *, and across joins', async () => {
    const c = await client(proxy, undefined, 'mask-test');
    expect((await c.query('SELECT id, ssn, email FROM customers ORDER BY id')).rows).toEqual([
      { id: 1, ssn: '*******6789', email: '***' },
      { id: 2, ssn: '*******4321', email: '***' },
    ]);
    expect((await c.query('SELECT ssn AS harmless, name FROM customers WHERE id = 1')).rows).toEqual([{ harmless: '*******6789', name: 'Ada' }]);
    expect((await c.query('SELECT * FROM customers WHERE id = 2')).rows).toEqual([{ id: 2, name: 'Bob', ssn: '*******4321', email: '***', score: null }]);
    expect((await c.query('SELECT o.id, c.ssn AS s FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id')).rows).toEqual([
      { id: 10, s: '*******6789' },
      { id: 11, s: '*******4321' },
    ]);
    expect((await c.query({ text: 'SELECT x.ssn FROM (SELECT * FROM customers) x WHERE x.id = $1', values: [1] })).rows).toEqual([{ ssn: '*******6789' }]);
    // Extended protocol without a Describe from the client (rowMode array still describes; a named statement reused).
    for (let i = 0; i < 2; i++) expect((await c.query({ name: 'ssn-by-id', text: 'SELECT ssn FROM customers WHERE id = $1', values: [2] })).rows).toEqual([{ ssn: '*******4321' }]);
    await c.end();
    await waitFor(() => proxy.records.filter((r) => r.type === 'data.sensitive_access' && r.details?.client_application === 'mask-test').length >= 6, 5000, 'sensitive access records');
    const access = proxy.records.find((r) => r.type === 'data.sensitive_access' && r.details?.client_application === 'mask-test')!;
    expect(access.details).toMatchObject({ masked: true, columns: ['customers.ssn', 'customers.email'] });
  });

  it('shows real values to an exempt user', async () => {
    const c = await client(proxy, auditor);
    expect((await c.query('SELECT ssn, email, score FROM customers WHERE id = 1')).rows).toEqual([{ ssn: '123-45-6789', email: 'ada@example.com', score: 90 }]);
    await c.end();
  });

  it('masks an expression over a protected column (PROXY_MASK_COMPUTED=mask), or refuses it (refuse)', async () => {
    const c = await client(proxy);
    const rows = (await c.query("SELECT upper(ssn) AS u, 'x' || email AS e, length(name) AS n FROM customers WHERE id = 1")).rows;
    // Computed values are masked whole (a partial rule shows nothing of them), as is every other
    // computed column of a statement that reads the protected table.
    expect(rows[0]).toEqual({ u: '***', e: '***', n: null });
    await c.end();
    const strict = await startTestProxy({ config: { maskComputed: 'refuse' } });
    strict.store.apply(snapshot({ type: 'data_protection', databases: [`db_${db.name}`], config: { rules: [{ name: 'ssn', columns: ['customers.ssn'], method: 'redact' }] } }));
    const s = new Client({ connectionString: strict.url(db.name) });
    await s.connect();
    expect((await failure(s.query('SELECT upper(ssn) FROM customers'))).code).toBe('42501');
    expect((await s.query('SELECT ssn FROM customers WHERE id = 1')).rows).toEqual([{ ssn: '***' }]);
    expect((await failure(s.query('COPY customers TO STDOUT'))).code).toBe('42501');
    await s.end();
    await strict.close();
  });
});

describe('shadow mode (the policy field enforcement_mode)', () => {
  it('records what shadow policies would have blocked and masked without enforcing it, and enforces them once switched to enforce', async () => {
    const p = await startTestProxy();
    const database = `db_${db.name}`;
    const block = snapshot({ id: 'pol_shadowblock', name: 'try no deletes', type: 'query_control', enforcement_mode: 'shadow', databases: [database], config: { rules: [{ name: 'del', pattern: '^delete', action: 'block', message: 'No deletes' }] } });
    const mask = snapshot({ id: 'pol_shadowmask', name: 'try masking', type: 'data_protection', enforcement_mode: 'shadow', databases: [database], config: { rules: [{ name: 'ssn', columns: ['ssn'], method: 'redact' }] } });
    p.store.apply(block);
    p.store.apply(mask);
    const c = new Client({ connectionString: p.url(db.name), application_name: 'shadow-test' });
    await c.connect();
    expect((await c.query('DELETE FROM orders WHERE id = -1')).rowCount).toBe(0);
    expect((await c.query('SELECT ssn FROM customers WHERE id = 1')).rows).toEqual([{ ssn: '123-45-6789' }]);
    // COPY TO is refused only while an enforced data_protection policy applies.
    await expect(c.query('COPY customers TO STDOUT')).resolves.toBeDefined();
    await waitFor(() => p.records.some((r) => r.type === 'data.sensitive_access'), 5000, 'records');
    const deleted = p.records.find((r) => r.details?.query === 'DELETE FROM orders WHERE id = -1')!;
    expect(deleted.details).toMatchObject({ shadow: { would_block: [{ policy_id: 'pol_shadowblock', policy_name: 'try no deletes' }] } });
    expect(deleted.details).not.toHaveProperty('blocked');
    expect(deleted.details).not.toHaveProperty('enforcement');
    expect(p.records.find((r) => r.type === 'data.sensitive_access')!.details).toMatchObject({
      masked: false,
      masking: [{ column: 'customers.ssn', policy_id: 'pol_shadowmask', shadow: true }],
      shadow: { would_mask: ['customers.ssn'] },
    });

    // Switched to enforce (a new version of the same policies, as policy.events.v1 delivers it):
    // the open session blocks and masks from its next statement on.
    p.store.apply({ ...block, enforcement_mode: 'enforce', version: 2 });
    p.store.apply({ ...mask, enforcement_mode: 'enforce', version: 2 });
    expect(await failure(c.query('DELETE FROM orders WHERE id = -1'))).toMatchObject({ code: '42501', message: 'No deletes' });
    expect((await c.query('SELECT ssn FROM customers WHERE id = 1')).rows).toEqual([{ ssn: '***' }]);
    expect((await failure(c.query('COPY customers TO STDOUT'))).code).toBe('42501');
    await c.end();
    await waitFor(() => p.records.filter((r) => r.type === 'data.sensitive_access').length === 2, 5000, 'records after the switch');
    const blocked = p.records.filter((r) => r.details?.query === 'DELETE FROM orders WHERE id = -1')[1]!;
    expect(blocked.details).toMatchObject({ blocked: true, enforcement: { action: 'blocked', policy_id: 'pol_shadowblock' } });
    expect(blocked.details).not.toHaveProperty('shadow');
    const masked = p.records.filter((r) => r.type === 'data.sensitive_access')[1]!;
    expect(masked.details).toMatchObject({ masked: true, masking: [{ column: 'customers.ssn', shadow: false }] });
    expect(masked.details).not.toHaveProperty('shadow');
    await p.close();
  });

  it('lets a session in that a shadow access_control policy would refuse, and its connection record says so', async () => {
    const p = await startTestProxy();
    p.store.apply(
      snapshot({ id: 'pol_shadownet', name: 'try office only', type: 'access_control', enforcement_mode: 'shadow', databases: [`db_${db.name}`], config: { conditions: { allowed_ips: ['10.0.0.0/8'] }, actions: [{ type: 'block' }] } }),
    );
    try {
      const c = new Client({ connectionString: p.url(db.name) });
      await c.connect();
      expect((await c.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await c.end();
      await waitFor(() => p.records.some((r) => r.type === 'database.connection'), 5000, 'connection record');
      expect(p.records.find((r) => r.type === 'database.connection')!.details).toMatchObject({
        shadow: { would_block: [{ policy_id: 'pol_shadownet', policy_name: 'try office only' }] },
      });
      expect(p.records.find((r) => r.type === 'database.connection')!.details).not.toHaveProperty('enforcement');
    } finally {
      await p.close();
    }
  });

  it('reads a snapshot without enforcement_mode (announced before the field existed) as enforced', async () => {
    const p = await startTestProxy();
    const legacy = snapshot({ type: 'query_control', databases: [`db_${db.name}`], config: { rules: [{ name: 'del', pattern: '^delete', action: 'block' }] } });
    delete (legacy as Partial<typeof legacy>).enforcement_mode;
    p.store.apply(legacy);
    const c = new Client({ connectionString: p.url(db.name) });
    await c.connect();
    expect((await failure(c.query('DELETE FROM orders WHERE id = -1'))).code).toBe('42501');
    await c.end();
    await p.close();
  });
});
