import type { RunningService } from '@vigil/platform';
import { createTestDatabase, type TestDatabase, testServerUrl, waitFor } from '@vigil/testing';
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { http, login } from './testing/http';
import { startProxyBehind } from './testing/proxy';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * The PostgreSQL audit proxy in front of a real database, with the whole system behind it on the
 * in-process bus: a policy created over the API reaches the proxy live, a blocked statement becomes
 * a violation with action_taken "blocked", and the captured session is in the events API; a
 * shadow-mode policy is recorded as would-block / would-mask and enforced once switched.
 */
let system: TestSystem;
let proxy: RunningService;
let target: TestDatabase;
let spillDir: string;
let proxyPort: number;
let token: string;

beforeAll(async () => {
  system = await startTestSystem({ bus: 'memory' });
  target = await createTestDatabase();
  await target.query('CREATE TABLE accounts (id int, owner text)');
  ({ service: proxy, port: proxyPort, spillDir } = await startProxyBehind(system, target, 'db_proxied'));
  token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await system?.close();
  await target?.drop();
  rmSync(spillDir, { recursive: true, force: true });
});

/** The error of `sql` (tried inside a transaction rolled back) once a policy refuses it; waits up to 5 s. */
function refusedOnceEnforced(client: Client, sql: string): Promise<{ code: string; message: string }> {
  return waitFor(
    async () => {
      await client.query('BEGIN');
      const e = await client.query(sql).then(
        () => undefined,
        (err: { code: string; message: string }) => err,
      );
      await client.query('ROLLBACK');
      return e;
    },
    5000,
    'the policy to be enforced',
  );
}

/**
 * Waits (up to 5 s) until the proxy and the pipeline both apply the shadow-mode policies `blockId`
 * (deletes of people) and `maskId` (people.ssn): a change reaches them within about a second, so
 * probes that match no row run on `client` until the proxy's records of them say would_block and
 * would_mask and the pipeline stored the delete's match. Answers the probes' delete statements.
 */
async function shadowInForce(client: Client, blockId: string, maskId: string): Promise<string[]> {
  const probes: string[] = [];
  await waitFor(
    async () => {
      const remove = `DELETE FROM people WHERE id = -${probes.length + 1}`;
      const read = `SELECT ssn FROM people WHERE id = -${probes.length + 1}`;
      probes.push(remove);
      await client.query(remove);
      await client.query(read);
      const records = await waitFor(async () => {
        const page = await http(system.gatewayUrl, 'GET', '/v1/events?database_id=db_proxied&limit=100', { token });
        const events = (page.body.events ?? []) as { id: string; type: string; details: Record<string, unknown> }[];
        const deleted = events.find((e) => e.type === 'database.query' && e.details.query === remove);
        const selected = events.find((e) => e.type === 'database.query' && e.details.query === read);
        const access = events.find((e) => e.type === 'data.sensitive_access' && e.details.query === read);
        return deleted && selected ? { deleted, access } : undefined;
      }, 10_000, 'the probe records');
      const shadow = (record: { details: Record<string, unknown> } | undefined) => record?.details.shadow as { would_block?: { policy_id: string }[]; would_mask?: string[] } | undefined;
      if (!shadow(records.deleted)?.would_block?.some((p) => p.policy_id === blockId)) return false;
      if (!shadow(records.access)?.would_mask?.includes('people.ssn')) return false;
      // The pipeline stores an event's outcomes with it, in one transaction.
      const matched = await system.db.query(`SELECT 1 FROM event_ingest.events WHERE policy_id = $1 AND details->>'triggering_event_id' = $2`, [blockId, records.deleted.id]);
      return matched.length > 0;
    },
    5000,
    `the shadow-mode policies ${blockId} and ${maskId} to apply`,
  );
  return probes;
}

function url(): string {
  const u = new URL(testServerUrl());
  u.host = `127.0.0.1:${proxyPort}`;
  u.pathname = `/${target.name}`;
  return u.toString();
}

it('enforces a policy created over the API within a second, and the violation is recorded as blocked', async () => {
  const client = new Client({ connectionString: url(), application_name: 'e2e-proxy' });
  await client.connect();
  await client.query("INSERT INTO accounts VALUES (1, 'ada')");
  const created = await http(system.gatewayUrl, 'POST', '/v1/policies', {
    token,
    body: {
      name: 'proxy: no deletes without where',
      type: 'query_control',
      databases: ['db_proxied'],
      enabled: true,
      config: { rules: [{ name: 'bare delete', pattern: '^\\s*delete\\s+from\\s+\\w+\\s*;?\\s*$', action: 'block', severity: 'critical', message: 'DELETE without WHERE is not allowed' }] },
    },
  });
  expect(created.status).toBe(201);
  const appliedAt = Date.now();
  const error = await refusedOnceEnforced(client, 'DELETE FROM accounts');
  expect(Date.now() - appliedAt).toBeLessThan(1500);
  expect(error).toMatchObject({ code: '42501', message: 'DELETE without WHERE is not allowed' });
  await client.end();
  expect(await target.query('SELECT count(*)::int AS n FROM accounts')).toEqual([{ n: 1 }]);

  const violations = await waitFor(async () => {
    const page = await http(system.gatewayUrl, 'GET', `/v1/policies/${created.body.id}/violations`, { token });
    return page.body.data?.length ? page.body.data : undefined;
  }, 10_000, 'the violation');
  expect(violations[0]).toMatchObject({ policy_id: created.body.id, database: 'db_proxied', query: 'DELETE FROM accounts', action_taken: 'blocked', severity: 'critical', source_ip: '127.0.0.1' });

  const events = await waitFor(async () => {
    const page = await http(system.gatewayUrl, 'GET', '/v1/events?database_id=db_proxied&limit=100', { token });
    const types = (page.body.events ?? []).map((e: { type: string }) => e.type);
    return types.includes('database.disconnect') ? types : undefined;
  }, 10_000, 'the captured session');
  expect(events).toEqual(expect.arrayContaining(['user.login_success', 'database.connection', 'database.query', 'policy.violation', 'database.disconnect']));
  // Captured records are attributed to the proxy; the violation derived from one, to Vigil.
  const attribution = await system.db.query<{ type: string; ingested_by: { kind: string; id: string } }>(
    `SELECT DISTINCT ON (type) type, ingested_by FROM event_ingest.events WHERE database_id = 'db_proxied' AND type IN ('database.query', 'policy.violation') ORDER BY type`,
  );
  expect(attribution).toEqual([
    { type: 'database.query', ingested_by: { kind: 'proxy', id: expect.stringMatching(/^pg-proxy@/) } },
    { type: 'policy.violation', ingested_by: { kind: 'system', id: 'event-ingest' } },
  ]);
}, 60_000);

it('lets a shadow-mode policy\'s statements run and results through unmasked, records what it would have done, and enforces it within a second once switched', async () => {
  await target.query('CREATE TABLE people (id int, ssn text)');
  await target.query("INSERT INTO people VALUES (1, '123-45-6789'), (2, '987-65-4321'), (3, '555-00-1111')");
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
  const block = await api('POST', '/v1/policies', {
    name: 'proxy: try no deletes of people',
    type: 'query_control',
    databases: ['db_proxied'],
    enabled: true,
    enforcement_mode: 'shadow',
    config: { rules: [{ name: 'people delete', pattern: '^\\s*delete\\s+from\\s+people\\b', action: 'block', severity: 'high', message: 'Deleting people is not allowed' }] },
  });
  const mask = await api('POST', '/v1/policies', {
    name: 'proxy: try masking ssn',
    type: 'data_protection',
    databases: ['db_proxied'],
    enabled: true,
    enforcement_mode: 'shadow',
    config: { rules: [{ name: 'ssn', columns: ['people.ssn'], method: 'redact' }] },
  });
  expect([block.status, mask.status]).toEqual([201, 201]);
  const client = new Client({ connectionString: url(), application_name: 'e2e-proxy-shadow' });
  await client.connect();
  const probes = await shadowInForce(client, block.body.id, mask.body.id);
  expect((await client.query('DELETE FROM people WHERE id = 3')).rowCount).toBe(1);
  expect((await client.query('SELECT ssn FROM people WHERE id = 1')).rows).toEqual([{ ssn: '123-45-6789' }]);

  // The proxy's records say what it would have done; the pipeline records the same as not enforced.
  const records = await waitFor(async () => {
    const page = await http(system.gatewayUrl, 'GET', '/v1/events?database_id=db_proxied&limit=100', { token });
    const events = (page.body.events ?? []) as { type: string; details: Record<string, unknown> }[];
    const deleted = events.find((e) => e.type === 'database.query' && e.details.query === 'DELETE FROM people WHERE id = 3');
    const access = events.find((e) => e.type === 'data.sensitive_access' && e.details.query === 'SELECT ssn FROM people WHERE id = 1');
    return deleted && access ? { deleted, access } : undefined;
  }, 10_000, 'the shadow records');
  expect(records.deleted.details).toMatchObject({ shadow: { would_block: [{ policy_id: block.body.id }] } });
  expect(records.deleted.details.blocked).toBeUndefined();
  expect(records.access.details).toMatchObject({ masked: false, shadow: { would_mask: ['people.ssn'] } });
  const violations = await waitFor(async () => {
    const page = await api('GET', `/v1/policies/${block.body.id}/violations?limit=100`);
    const found = ((page.body.data ?? []) as { query: string }[]).filter((v) => !probes.includes(v.query));
    return found.length ? found : undefined;
  }, 10_000, 'the shadow violation');
  expect(violations).toEqual([expect.objectContaining({ query: 'DELETE FROM people WHERE id = 3', action_taken: 'would_block', database: 'db_proxied' })]);

  // Switch both to enforce: the open session blocks and masks within the propagation bound.
  for (const policy of [block.body, mask.body]) {
    expect((await api('PUT', `/v1/policies/${policy.id}`, { enforcement_mode: 'enforce' })).status).toBe(200);
  }
  const switchedAt = Date.now();
  const error = await refusedOnceEnforced(client, 'DELETE FROM people WHERE id = 2');
  const blockedAfter = Date.now() - switchedAt;
  expect(error).toMatchObject({ code: '42501', message: 'Deleting people is not allowed' });
  await waitFor(async () => (await client.query('SELECT ssn FROM people WHERE id = 1')).rows[0].ssn === '***', 5000, 'masking');
  const maskedAfter = Date.now() - switchedAt;
  expect(blockedAfter).toBeLessThan(1000);
  expect(maskedAfter).toBeLessThan(1000);
  await client.end();
  expect(await target.query('SELECT count(*)::int AS n FROM people')).toEqual([{ n: 2 }]);
  const after = await waitFor(async () => {
    const page = await api('GET', `/v1/policies/${block.body.id}/violations`);
    return page.body.data?.some((v: { action_taken: string }) => v.action_taken === 'blocked') ? page.body.data : undefined;
  }, 10_000, 'the enforced violation');
  expect(after.map((v: { action_taken: string }) => v.action_taken)).toContain('would_block');
}, 60_000);

it('exempts from masking only the listed user with the listed application: a spoofed application_name (PGAPPNAME) from another user is masked', async () => {
  const owner = decodeURIComponent(new URL(testServerUrl()).username || 'postgres');
  const spoofer = `vigil_spoofer_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
  await target.query('CREATE TABLE cards (id int, pan text)');
  await target.query("INSERT INTO cards VALUES (1, '4111111111111111')");
  await target.query(`CREATE ROLE ${spoofer} LOGIN`);
  await target.query(`GRANT SELECT ON cards TO ${spoofer}`);
  const created = await http(system.gatewayUrl, 'POST', '/v1/policies', {
    token,
    body: {
      name: 'proxy: mask cards except the etl job',
      type: 'data_protection',
      databases: ['db_proxied'],
      enabled: true,
      config: { rules: [{ name: 'pan', columns: ['cards.pan'], method: 'redact' }], exceptions: { users: [owner], applications: ['etl'] } },
    },
  });
  expect(created.status).toBe(201);
  const session = async (application_name: string, user?: string) => {
    const u = new URL(url());
    if (user) {
      u.username = user;
      u.password = '';
    }
    const client = new Client({ connectionString: u.toString(), application_name });
    await client.connect();
    return client;
  };
  const clients = [await session('psql'), await session('etl'), await session('etl', spoofer)];
  try {
    const [ownerPsql, ownerEtl, spoofed] = clients;
    const pan = async (client: Client) => (await client.query('SELECT pan FROM cards WHERE id = 1')).rows[0].pan as string;
    await waitFor(async () => (await pan(ownerPsql!)) === '***', 5000, 'masking in force');
    expect(await pan(spoofed!)).toBe('***');
    expect(await pan(ownerEtl!)).toBe('4111111111111111');
  } finally {
    for (const client of clients) await client.end();
    await target.query(`DROP OWNED BY ${spoofer}`);
    await target.query(`DROP ROLE ${spoofer}`);
  }
}, 60_000);

it('serves health on its HTTP port and Prometheus metrics on a port of their own', async () => {
  const base = `http://127.0.0.1:${proxy.httpPort}`;
  expect((await fetch(`${base}/health/ready`)).status).toBe(200);
  expect((await fetch(`${base}/metrics`)).status).toBe(404);
  expect(proxy.metricsPort).not.toBe(proxy.httpPort);
  const metrics = await (await fetch(`http://127.0.0.1:${proxy.metricsPort}/metrics`)).text();
  for (const name of ['vigil_proxy_sessions', 'vigil_proxy_statements_total', 'vigil_proxy_blocked_total', 'vigil_proxy_masked_values_total', 'vigil_proxy_capture_buffer_depth', 'vigil_proxy_added_latency_seconds_bucket', 'vigil_policy_untrusted_exemptions']) {
    expect(metrics).toContain(name);
  }
  // Readiness as a metric, for alerts that need no kube-state-metrics (deploy/monitoring).
  expect(metrics).toMatch(/^vigil_ready\{service="pg-proxy"\} 1$/m);
});
