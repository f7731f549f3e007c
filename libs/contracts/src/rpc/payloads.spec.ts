import { createValidator } from '../validation';
import { RpcPatterns } from './patterns';
import { rpcPayloadSchema, RpcPayloadSchemas } from './payloads';

const patterns = Object.values(RpcPatterns).flatMap((group) => Object.values(group) as string[]);
const check = (pattern: string, data: unknown) => createValidator(rpcPayloadSchema(pattern)!).validate(data);
const SQL = "1; DROP TABLE x--";

describe('RpcPayloadSchemas', () => {
  it('has a schema for every pattern of RpcPatterns, and for nothing else', () => {
    const missing = patterns.filter((p) => !rpcPayloadSchema(p));
    expect(missing).toEqual([]);
    expect(Object.keys(RpcPayloadSchemas).sort()).toEqual([...patterns].sort());
    expect(rpcPayloadSchema('__proto__')).toBeUndefined();
    expect(rpcPayloadSchema('auth.anything-made-up')).toBeUndefined();
  });

  it('accepts what the real callers send, nulls and omitted optional fields included', () => {
    const accepted: [string, unknown][] = [
      [RpcPatterns.auth.jwks, {}],
      [RpcPatterns.auth.apiKeysRotate, { id: 'key_01jabcdefghjkmnpqrstvwxyz0', overlap_seconds: 0 }],
      [RpcPatterns.auth.usersUpdate, { id: 'usr_01jabcdefghjkmnpqrstvwxyz0', disabled: true }],
      [RpcPatterns.auth.usersChangeOwnPassword, { user_id: 'usr_01jabcdefghjkmnpqrstvwxyz0', current_password: 'a', new_password: 'b', keep_session_id: null }],
      [RpcPatterns.auth.oauthToken, { client: { client_id: 'cli_x', client_secret: 's', methods: ['client_secret_basic'] }, form: { grant_type: 'client_credentials' } }],
      [RpcPatterns.auth.oauthAuthorize, { params: { client_id: 'cli_x', state: "anything ' at all" } }],
      [RpcPatterns.events.position, {}],
      [RpcPatterns.events.ingest, { records: [{ type: 'database.query', database_id: 'db_x', anything: 'checked by the ingest service' }] }],
      [RpcPatterns.policies.create, { name: 'p', type: 'query_control', databases: ['db_x', '*'], config: { rules: [] }, description: null }],
      [RpcPatterns.policies.update, { id: 'pol_x', changes: { enabled: false } }],
      [RpcPatterns.policies.test, { id: 'pol_x', sample: { query: "SELECT '1; DROP TABLE x--'", timestamp: '2026-01-01T10:00:00Z' } }],
      [RpcPatterns.policies.violations, { policy_id: 'pol_x', severity: ['critical', 'high'], user: "o'brien", page: 1, limit: 20 }],
      [RpcPatterns.alertDestinations.update, { id: 'dest_x', changes: { auth_token: null, custom_headers: { 'X-A': 'b' }, rate_limit: 0.5 } }],
      [RpcPatterns.alerts.list, { severity: ['urgent'], page: 1, per_page: 20 }],
      [RpcPatterns.alerts.report, { period_start: '2026-01-01T00:00:00.000Z', period_end: '2026-02-01T00:00:00.000Z', databases: [], limit: 50 }],
      [RpcPatterns.databases.create, { id: 'db_prod.main-1', name: 'Main', type: 'postgresql', host: '[::1]', port: 5432, tags: ['pci:scope'] }],
      [RpcPatterns.databases.list, { q: "50% o'clock", page: 1, per_page: 20 }],
      [RpcPatterns.reports.create, { type: 'sox', period_start: '2026-01-01', period_end: '2026-02-01T00:00:00+01:00', databases: null }],
      [RpcPatterns.reports.schedulesUpdate, { id: 'rps_x', changes: { cron: '0 6 * * 1', enabled: false } }],
      [RpcPatterns.webhooks.update, { id: 'wh_x', description: null }],
      [RpcPatterns.integrity.startVerification, { from_index: 0, tree_size: null }],
    ];
    for (const [pattern, data] of accepted) expect({ pattern, result: check(pattern, data) }).toEqual({ pattern, result: expect.objectContaining({ ok: true }) });
  });

  it('refuses a SQL fragment in every field that reaches a query as anything but a bind parameter', () => {
    const range = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z' };
    const refused: [string, unknown, string][] = [
      [RpcPatterns.events.aggregate, { filters: range, metrics: ['count'], group_by: [], bucket: SQL, limit: 10 }, 'bucket'],
      [RpcPatterns.events.aggregate, { filters: range, metrics: [SQL], group_by: [], limit: 10 }, 'metrics[0]'],
      [RpcPatterns.events.aggregate, { filters: range, metrics: ['count'], group_by: [SQL], limit: 10 }, 'group_by[0]'],
      [RpcPatterns.events.aggregate, { filters: range, metrics: ['count'], group_by: [], limit: SQL }, 'limit'],
      [RpcPatterns.events.search, { filters: range, limit: 1.5 }, 'limit'],
      [RpcPatterns.events.list, { filters: {}, page: 1, limit: 10, snapshot: SQL }, 'snapshot'],
      [RpcPatterns.events.replay, { after_seq: SQL, filters: {}, limit: 10 }, 'after_seq'],
      [RpcPatterns.policies.list, { sort: SQL, page: 1, per_page: 10 }, 'sort'],
      [RpcPatterns.policies.list, { page: SQL, per_page: 10 }, 'page'],
      [RpcPatterns.policies.violations, { policy_id: 'pol_x', page: 1, limit: 100_000 }, 'limit'],
      [RpcPatterns.alerts.list, { severity: [SQL], page: 1, per_page: 20 }, 'severity[0]'],
      [RpcPatterns.alerts.list, { page: 1, per_page: 20, start_date: "2026-01-01' OR 1=1--" }, 'start_date'],
      [RpcPatterns.databases.list, { status: SQL, page: 1, per_page: 20 }, 'status'],
      [RpcPatterns.databases.update, { id: 'db_x', changes: { [SQL]: 'x' } }, `changes.${SQL}`],
      [RpcPatterns.reports.list, { schedule_id: SQL, page: 1, per_page: 20 }, 'schedule_id'],
      [RpcPatterns.webhooks.deliveries, { id: 'wh_x', page: 1, per_page: SQL }, 'per_page'],
      [RpcPatterns.alerts.report, { period_start: SQL, period_end: '2026-02-01T00:00:00.000Z', databases: [SQL], limit: 10 }, 'databases[0]'],
      [RpcPatterns.policies.get, { id: `pol_x'; ${SQL}` }, 'id'],
    ];
    for (const [pattern, data, field] of refused) {
      const result = check(pattern, data);
      expect({ pattern, field, ok: result.ok }).toEqual({ pattern, field, ok: false });
      if (!result.ok) expect({ pattern, fields: result.errors.map((e) => e.field) }).toEqual({ pattern, fields: expect.arrayContaining([field]) });
    }
  });

  it('refuses fields no caller sends, and payloads that are not objects', () => {
    expect(check(RpcPatterns.policies.snapshots, { since: 1 }).ok).toBe(false);
    expect(check(RpcPatterns.auth.usersGet, { id: 'usr_x', admin: true }).ok).toBe(false);
    expect(check(RpcPatterns.integrity.keys, null).ok).toBe(false);
    expect(check(RpcPatterns.webhooks.list, [1, 2]).ok).toBe(false);
  });
});
