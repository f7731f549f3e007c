import { connect } from 'node:net';
import { createRpcAuthority, RpcPatterns } from '@vigil/contracts';
import { DomainException, RpcClient, type RunningService } from '@vigil/platform';
import { testRpcCredentials } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Internal calls as a hostile neighbour makes them, over real TCP against a running system: every
 * service's RPC port demands a client certificate from the installation's CA, and each caller may
 * call only what its allow-list names. Nothing a refused call asks for happens.
 */
describe('authenticated RPC', () => {
  let system: TestSystem;
  let token: string;
  const clients: RpcClient[] = [];
  const service = (name: string): RunningService => system.services.find((s) => s.name === name)!;
  const address = (name: string) => `127.0.0.1:${service(name).context.config.RPC_PORT}`;
  const client = (target: string, as: ReturnType<typeof testRpcCredentials> | null, timeoutMs = 5_000) => {
    const c = new RpcClient(target, address(target), timeoutMs, as);
    clients.push(c);
    return c;
  };
  const apiKeys = async () => Number((await system.db.query<{ n: string }>('SELECT count(*) AS n FROM auth.api_keys'))[0]!.n);
  const refusals = async (name: string, labels: Record<string, string>) => {
    const metric = await service(name).context.metrics.getSingleMetric('vigil_rpc_refused_total')!.get();
    return metric.values.filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want)).reduce((sum, v) => sum + v.value, 0);
  };
  const createKey = { name: 'rogue', scopes: ['admin'], expires_at: null, created_by: 'user:usr_rogue' };

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory' });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await system?.close();
  });

  it('works for the callers the allow-lists name: the gateway creates a key, pg-proxy reads policy snapshots', async () => {
    const before = await apiKeys();
    const created = await http(system.gatewayUrl, 'POST', '/v1/api-keys', { token, body: { name: 'legit', scopes: ['read:logs'] } });
    expect(created.status).toBe(201);
    expect(await apiKeys()).toBe(before + 1);
    await expect(client('policy', testRpcCredentials('pg-proxy')).call(RpcPatterns.policies.snapshots, {})).resolves.toMatchObject({ policies: expect.any(Array) });
  });

  it('refuses a plain TCP client (no certificate) before any message is read: the connection closes, no key is created', async () => {
    const before = await apiKeys();
    const refusedBefore = await refusals('auth', { reason: 'unauthenticated' });
    const frame = JSON.stringify({ pattern: RpcPatterns.auth.apiKeysCreate, data: { meta: {}, data: createKey }, id: 'raw-1' });
    const answer = await new Promise<string>((resolve, reject) => {
      let received = '';
      const socket = connect(Number(address('auth').split(':')[1]), '127.0.0.1', () => socket.write(`${Buffer.byteLength(frame)}#${frame}`));
      socket.on('data', (d) => (received += d.toString('latin1')));
      socket.on('error', () => undefined); // a reset is a refusal too
      socket.on('close', () => resolve(received));
      setTimeout(() => reject(new Error('the server kept a client without a certificate connected')), 10_000).unref();
    });
    // Whatever came back is TLS framing (a handshake alert), never an RPC answer.
    expect(answer).not.toContain('"id":"raw-1"');
    expect(await apiKeys()).toBe(before);
    expect(await refusals('auth', { reason: 'unauthenticated' })).toBeGreaterThan(refusedBefore);
  });

  it('refuses a certificate from another CA, even one named "gateway": no key is created', async () => {
    const before = await apiKeys();
    const forged = testRpcCredentials('gateway', createRpcAuthority('someone-elses-ca'));
    await expect(client('auth', forged).call(RpcPatterns.auth.apiKeysCreate, createKey)).rejects.toMatchObject({ status: 503 });
    expect(await apiKeys()).toBe(before);
  });

  it("refuses another service's credentials for the gateway's patterns: pg-proxy and event-ingest cannot create keys", async () => {
    const before = await apiKeys();
    for (const identity of ['pg-proxy', 'event-ingest', 'policy']) {
      const refusedBefore = await refusals('auth', { caller: identity, pattern: RpcPatterns.auth.apiKeysCreate, reason: 'unknown_caller' });
      await expect(client('auth', testRpcCredentials(identity)).call(RpcPatterns.auth.apiKeysCreate, createKey)).rejects.toMatchObject({
        status: 403,
        code: 'rpc_caller_not_allowed',
      });
      expect(await refusals('auth', { caller: identity, pattern: RpcPatterns.auth.apiKeysCreate, reason: 'unknown_caller' })).toBe(refusedBefore + 1);
    }
    expect(await apiKeys()).toBe(before);
  });

  it('refuses a known caller a pattern it does not need: pg-proxy may read policy snapshots but not create or disable policies', async () => {
    const policies = async () => Number((await system.db.query<{ n: string }>('SELECT count(*) AS n FROM policy.policies'))[0]!.n);
    const before = await policies();
    const proxy = client('policy', testRpcCredentials('pg-proxy'));
    const create = { name: 'rogue', type: 'query_control', databases: ['db_x'], config: { rules: [] }, enabled: true };
    await expect(proxy.call(RpcPatterns.policies.create, create)).rejects.toMatchObject({ status: 403, code: 'rpc_caller_not_allowed' });
    await expect(proxy.call(RpcPatterns.policies.disable, { id: 'pol_x' })).rejects.toMatchObject({ status: 403 });
    expect(await refusals('policy', { caller: 'pg-proxy', pattern: RpcPatterns.policies.create, reason: 'pattern_not_allowed' })).toBe(1);
    expect(await policies()).toBe(before);
  });

  it('refuses to talk to a server whose certificate is not the expected service: the gateway asking "auth" on policy\'s port', async () => {
    const wrong = new RpcClient('auth', address('policy'), 5_000, testRpcCredentials('gateway'));
    clients.push(wrong);
    await expect(wrong.call(RpcPatterns.auth.jwks, {})).rejects.toMatchObject({ status: 503 });
  });

  it('refuses at the boundary a payload with a SQL fragment in every field that reaches a query, before any handler runs', async () => {
    const sql = "x' OR '1'='1'); DROP TABLE event_ingest.events; --";
    const gateway = client('event-ingest', testRpcCredentials('gateway'));
    const filters = {
      types: [sql],
      severities: [sql],
      database_ids: [sql],
      source_ips: [sql],
      operations: [sql],
      start: sql,
      end: sql,
    };
    const invalidBefore = await refusals('event-ingest', { reason: 'invalid_payload' });
    const aggregate = gateway.call(RpcPatterns.events.aggregate, { filters, metrics: [sql], group_by: [sql], bucket: sql, limit: sql });
    await expect(aggregate).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
    const fields = ((await aggregate.catch((e: DomainException) => e)) as DomainException).errors!.map((e) => e.field);
    for (const field of ['filters.types[0]', 'filters.severities[0]', 'filters.database_ids[0]', 'filters.source_ips[0]', 'filters.operations[0]', 'filters.start', 'filters.end', 'metrics[0]', 'group_by[0]', 'bucket', 'limit']) {
      expect(fields).toContain(field);
    }
    await expect(gateway.call(RpcPatterns.events.list, { filters: {}, page: sql, limit: sql, cursor: sql, snapshot: sql })).rejects.toMatchObject({ status: 400 });
    await expect(gateway.call(RpcPatterns.events.search, { filters: { start: sql, end: sql }, limit: 10 })).rejects.toMatchObject({ status: 400 });
    await expect(gateway.call(RpcPatterns.events.replay, { after_seq: sql, filters: {}, limit: 10 })).rejects.toMatchObject({ status: 400 });
    // A limit past the bounds or a fractional one reaches no LIMIT clause either.
    await expect(gateway.call(RpcPatterns.events.list, { filters: {}, page: 1, limit: 1.5 })).rejects.toMatchObject({ status: 400 });
    expect(await refusals('event-ingest', { reason: 'invalid_payload' })).toBe(invalidBefore + 5);
    // The table is still there and the same calls with valid values answer.
    await expect(gateway.call(RpcPatterns.events.list, { filters: {}, page: 1, limit: 10 })).resolves.toMatchObject({ events: expect.any(Array) });
  });

  it('refuses SQL fragments in the other services\' query fields too (sorts, pages, limits, statuses, ids, timestamps), before any handler runs: nothing changes', async () => {
    const fragments = ['1; DROP TABLE x--', "day') OR 1=1--"];
    const gateway = (target: string) => client(target, testRpcCredentials('gateway'));
    const count = async (table: string) => Number((await system.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
    const tables = ['policy.policies', 'event_ingest.databases', 'delivery.webhooks'];
    const before = await Promise.all(tables.map(count));
    const calls: [string, string, (sql: string) => unknown][] = [
      ['policy', RpcPatterns.policies.list, (sql) => ({ sort: sql, database_id: sql, page: 1, per_page: 10 })],
      ['policy', RpcPatterns.policies.list, (sql) => ({ page: sql, per_page: sql })],
      ['policy', RpcPatterns.policies.violations, (sql) => ({ policy_id: sql, start_date: sql, end_date: sql, severity: [sql], page: sql, limit: sql })],
      ['policy', RpcPatterns.policies.create, (sql) => ({ name: 'n', type: sql, databases: [sql], config: {}, enforcement_mode: sql })],
      ['policy', RpcPatterns.policies.disable, (sql) => ({ id: sql })],
      ['event-ingest', RpcPatterns.databases.list, (sql) => ({ status: sql, type: sql, environment: sql, connection_status: sql, page: sql, per_page: sql })],
      ['event-ingest', RpcPatterns.databases.create, (sql) => ({ id: sql, name: 'n', type: sql, host: sql, tags: [sql] })],
      ['event-ingest', RpcPatterns.databases.update, (sql) => ({ id: 'db_x', changes: { [sql]: 'x' } })],
      ['event-ingest', RpcPatterns.reports.list, (sql) => ({ type: sql, status: sql, schedule_id: sql, page: 1, per_page: sql })],
      ['event-ingest', RpcPatterns.integrity.leaves, (sql) => ({ from: sql, limit: sql })],
      ['delivery', RpcPatterns.webhooks.deliveries, (sql) => ({ id: sql, page: 1, per_page: 10, status: sql })],
      ['delivery', RpcPatterns.webhooks.redeliver, (sql) => ({ id: 'wh_x', statuses: [sql], since: sql, until: sql })],
      ['delivery', RpcPatterns.alerts.list, (sql) => ({ severity: [sql], status: [sql], type: [sql], database_id: sql, start_date: sql, page: 1, per_page: 20 })],
      ['delivery', RpcPatterns.alertDestinations.deliveries, (sql) => ({ id: sql, page: 1, per_page: 10, status: sql })],
    ];
    for (const sql of fragments) {
      for (const [target, pattern, payload] of calls) {
        const invalidBefore = await refusals(target, { pattern, reason: 'invalid_payload' });
        await expect(gateway(target).call(pattern, payload(sql))).rejects.toMatchObject({ status: 400, code: 'validation_failed' });
        // Counted as refused by the guard, so no handler ran.
        expect({ pattern, refused: await refusals(target, { pattern, reason: 'invalid_payload' }) }).toEqual({ pattern, refused: invalidBefore + 1 });
      }
      // delivery's alert figures are event-ingest's call: its identity, the same refusal.
      const report = client('delivery', testRpcCredentials('event-ingest')).call(RpcPatterns.alerts.report, { period_start: sql, period_end: sql, databases: [sql], limit: sql });
      await expect(report).rejects.toMatchObject({ status: 400 });
    }
    expect(await Promise.all(tables.map(count))).toEqual(before);
    // The same services answer well-formed calls.
    await expect(gateway('policy').call(RpcPatterns.policies.list, { sort: 'violation_count', page: 1, per_page: 10 })).resolves.toMatchObject({ data: expect.any(Array) });
    await expect(gateway('event-ingest').call(RpcPatterns.databases.list, { status: 'registered', page: 1, per_page: 10 })).resolves.toMatchObject({ data: expect.any(Array) });
    await expect(gateway('delivery').call(RpcPatterns.alerts.list, { severity: ['critical'], page: 1, per_page: 10 })).resolves.toMatchObject({ data: expect.any(Array) });
  });

  it('answers a free-text filter (a bound parameter) whatever it contains', async () => {
    const gateway = client('event-ingest', testRpcCredentials('gateway'));
    const page = await gateway.call<unknown, { events: unknown[] }>(RpcPatterns.events.list, {
      filters: { users: ["x' OR '1'='1"], query_contains: "'; DROP TABLE event_ingest.events; --" },
      page: 1,
      limit: 10,
    });
    expect(page.events).toEqual([]);
  });
});
