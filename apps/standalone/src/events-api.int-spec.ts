import { AuditEventCatalog, ProducerEventTypes } from '@vigil/contracts';
import { waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * The events read API end to end (gateway -> event-ingest -> PostgreSQL): every list filter and
 * their combinations checked against the same filter computed here, wildcards, pagination edges,
 * the detailed view, aggregate and search.
 */
describe('events API', () => {
  let system: TestSystem;
  let token: string;
  const now = Date.now();
  const users = ['alice', 'bob', 'carol'];
  const queries = ['SELECT * FROM accounts', 'DELETE FROM accounts', 'UPDATE t SET a = 1 WHERE id = 2', 'DROP TABLE secrets', 'select password from users'];
  interface Seed { id?: string; type: string; severity: string; database_id: string; timestamp: string; user: string; source_ip: string; query: string }
  const seeds: Seed[] = Array.from({ length: 48 }, (_, i) => {
    const type = ProducerEventTypes[i % ProducerEventTypes.length]!;
    return {
      type,
      severity: i % 7 === 0 ? 'critical' : AuditEventCatalog[type],
      database_id: i % 2 ? 'db_beta' : 'db_alpha',
      // Minutes apart, newest first; the last few are two days old.
      timestamp: new Date(now - (i < 44 ? i * 60_000 + 1000 : 2 * 86_400_000 + i * 1000)).toISOString(),
      user: users[i % 3]!,
      source_ip: `10.0.0.${i % 4}`,
      query: queries[i % queries.length]!,
    };
  });

  beforeAll(async () => {
    // Checkpoints of the event log are events too (audit.checkpoint): signed soon, so the listing settles soon.
    system = await startTestSystem({ bus: 'memory', env: { INTEGRITY_CHECKPOINT_INTERVAL_MS: '200' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    const response = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
      token,
      body: {
        events: seeds.map((s, i) => ({
          type: s.type,
          severity: s.severity,
          database_id: s.database_id,
          timestamp: s.timestamp,
          details: { user: s.user, source_ip: s.source_ip, query: s.query, session_id: `sess_${i % 5}`, client_application: 'psql' },
        })),
      },
    });
    expect(response.status).toBe(202);
    response.body.ids.forEach((id: string, i: number) => (seeds[i]!.id = id));
    // The login above is itself in the log (vigil.session.login_succeeded, docs/events.md#administrative-actions),
    // and so are the log's checkpoints (audit.checkpoint): events every unfiltered listing must show.
    // Once a checkpoint covers every event but itself, no other comes until something new is stored.
    // Settled twice in a row, a second apart, at the same head: nothing more is on its way.
    let lastHead = '';
    const own = await waitFor(async () => {
      const [settled] = await system.db.query<{ done: boolean; head: string }>(
        `SELECT (SELECT coalesce(max(tree_size), 0) FROM event_ingest.integrity_checkpoints) >= (SELECT max(seq) FROM event_ingest.events) - 1
           AND EXISTS (SELECT 1 FROM event_ingest.events WHERE type = 'vigil.session.login_succeeded') AS done,
           (SELECT max(seq)::text FROM event_ingest.events) AS head`,
      );
      const stable = settled?.done && settled.head === lastHead;
      lastHead = settled?.done ? settled.head : '';
      if (!stable) {
        await new Promise((r) => setTimeout(r, 1000));
        return undefined;
      }
      return system.db.query<{ id: string; type: string; severity: string; timestamp: Date }>(
        `SELECT id, type, severity, "timestamp" FROM event_ingest.events WHERE database_id = 'vigil'`,
      );
    }, 30_000, 'the login recorded and the log checkpointed');
    for (const e of own) seeds.push({ id: e.id, type: e.type, severity: e.severity, database_id: 'vigil', timestamp: e.timestamp.toISOString(), user: '', source_ip: '', query: '' });
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  const get = (path: string) => http(system.gatewayUrl, 'GET', path, { token });
  const post = (path: string, body: unknown) => http(system.gatewayUrl, 'POST', path, { token, body });
  const newestFirst = (list: Seed[]) => [...list].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : a.id! < b.id! ? 1 : -1));
  const matchType = (pattern: string, type: string) => (pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : pattern === '*' || pattern === type);

  const hourAgo = new Date(now - 3_600_000).toISOString();
  const halfHourAgo = new Date(now - 1_800_000).toISOString();
  const cases: [string, Record<string, string>, (s: Seed) => boolean][] = [
    ['no filter', {}, () => true],
    ['type exact', { type: 'database.query' }, (s) => s.type === 'database.query'],
    ['type wildcard', { type: 'security.*' }, (s) => matchType('security.*', s.type)],
    ['type list of patterns', { type: 'security.*,user.*' }, (s) => matchType('security.*', s.type) || matchType('user.*', s.type)],
    ['type *', { type: '*' }, () => true],
    ['severity', { severity: 'critical' }, (s) => s.severity === 'critical'],
    ['database_id', { database_id: 'db_beta' }, (s) => s.database_id === 'db_beta'],
    ['database_id vigil (Vigil\'s own events)', { database_id: 'vigil' }, (s) => s.database_id === 'vigil'],
    ['database_id list with vigil', { database_id: 'db_beta,vigil' }, (s) => s.database_id === 'db_beta' || s.database_id === 'vigil'],
    ['start_date', { start_date: hourAgo }, (s) => s.timestamp >= hourAgo],
    ['end_date', { end_date: hourAgo }, (s) => s.timestamp < hourAgo],
    ['start and end', { start_date: hourAgo, end_date: halfHourAgo }, (s) => s.timestamp >= hourAgo && s.timestamp < halfHourAgo],
    ['user', { user: 'bob' }, (s) => s.user === 'bob'],
    ['source_ip', { source_ip: '10.0.0.3' }, (s) => s.source_ip === '10.0.0.3'],
    ['wildcard + severity', { type: 'security.*', severity: 'critical' }, (s) => matchType('security.*', s.type) && s.severity === 'critical'],
    ['database + last hour', { database_id: 'db_alpha', start_date: hourAgo }, (s) => s.database_id === 'db_alpha' && s.timestamp >= hourAgo],
    ['user + database + ip', { user: 'alice', database_id: 'db_alpha', source_ip: '10.0.0.0' }, (s) => s.user === 'alice' && s.database_id === 'db_alpha' && s.source_ip === '10.0.0.0'],
    ['everything', { type: 'database.*', severity: 'info', database_id: 'db_beta', user: 'bob', start_date: new Date(now - 86_400_000).toISOString() },
      (s) => matchType('database.*', s.type) && s.severity === 'info' && s.database_id === 'db_beta' && s.user === 'bob' && s.timestamp >= new Date(now - 86_400_000).toISOString()],
  ];

  it.each(cases)('lists with %s exactly the matching events, newest first', async (_label, params, predicate) => {
    const expected = newestFirst(seeds.filter(predicate)).map((s) => s.id);
    const response = await get(`/v1/events?${new URLSearchParams({ ...params, limit: '1000' })}`);
    expect(response.status).toBe(200);
    expect(response.body.events.map((e: { id: string }) => e.id)).toEqual(expected);
    expect(response.body.pagination).toMatchObject({ total: expected.length, page: 1, per_page: 1000, total_estimated: false });
  });

  it('answers list items with the list fields of an event', async () => {
    const response = await get('/v1/events?limit=1&database_id=db_alpha');
    const [item] = response.body.events;
    expect(Object.keys(item).sort()).toEqual(['database_id', 'details', 'id', 'severity', 'timestamp', 'type']);
    expect(item.details).toMatchObject({ user: expect.any(String), source_ip: expect.any(String), query: expect.any(String) });
    expect(response.body.pagination.per_page).toBe(1);
  });

  it('pages without overlap or gap, and the last page says so', async () => {
    const all = newestFirst(seeds).map((s) => s.id);
    const seen: string[] = [];
    // 48 seeds plus Vigil's own events (the login and one or more checkpoints): five or six pages.
    const pages = Math.ceil(seeds.length / 10);
    expect(pages).toBeGreaterThanOrEqual(5);
    for (let page = 1; page <= pages; page++) {
      const response = await get(`/v1/events?limit=10&page=${page}`);
      expect(response.status).toBe(200);
      seen.push(...response.body.events.map((e: { id: string }) => e.id));
      expect(response.body.pagination).toMatchObject({ page, per_page: 10, total: seeds.length, has_more: page < pages });
    }
    expect(seen).toEqual(all);
    const beyond = await get(`/v1/events?limit=10&page=${pages + 1}`);
    expect(beyond.body.events).toEqual([]);
    expect(beyond.body.pagination.has_more).toBe(false);
  });

  it('keeps pages stable under concurrent inserts with snapshot, and pages by cursor', async () => {
    const first = await get('/v1/events?limit=20');
    const { snapshot } = first.body.pagination;
    await post('/v1/events/ingest', { events: [{ type: 'database.query', database_id: 'db_alpha', details: { user: 'zed' } }] });
    const second = await get(`/v1/events?limit=20&page=2&snapshot=${snapshot}`);
    const byCursor = await get(`/v1/events?limit=20&cursor=${first.body.pagination.next_cursor}`);
    const expected = newestFirst(seeds).slice(20, 40).map((s) => s.id);
    expect(second.body.events.map((e: { id: string }) => e.id)).toEqual(expected);
    expect(byCursor.body.events.map((e: { id: string }) => e.id)).toEqual(expected);
    // The snapshot's total leaves out what was stored after it (counted apart and subtracted).
    expect(second.body.pagination).toMatchObject({ total: first.body.pagination.total, total_estimated: false });
    const zed = await get(`/v1/events?user=zed&snapshot=${snapshot}`);
    expect(zed.body.pagination.total).toBe(0);
    // Without the snapshot the new event shifts the pages and counts, and so does the checkpoint of
    // the event log that follows it (audit.checkpoint, once the log has taken the new event).
    const settled = async () =>
      (await system.db.query<{ done: boolean }>(
        `SELECT (SELECT coalesce(max(tree_size), 0) FROM event_ingest.integrity_checkpoints) >= (SELECT max(seq) FROM event_ingest.events) - 1 AS done`,
      ))[0]!.done;
    await waitFor(settled, 30_000, 'the log checkpointed the new event');
    const shifted = await get('/v1/events?limit=20&page=2');
    const added = shifted.body.pagination.total - first.body.pagination.total;
    const checkpoints = Number((await system.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM event_ingest.events WHERE type = 'audit.checkpoint'`))[0]!.n);
    expect(added).toBe(1 + checkpoints - seeds.filter((e) => e.type === 'audit.checkpoint').length);
    expect(shifted.body.events[0].id).toBe(newestFirst(seeds)[20 - added]!.id);
    expect((await get('/v1/events?user=zed')).body.pagination.total).toBe(1);
  });

  it.each([
    ['limit above 1000', 'limit=1001', 'limit'],
    ['limit 0', 'limit=0', 'limit'],
    ['limit not a number', 'limit=ten', 'limit'],
    ['page 0', 'page=0', 'page'],
    ['a page deeper than 10000 events', 'page=12&limit=1000', 'page'],
    ['an unknown severity', 'severity=high', 'severity'],
    ['a type pattern matching nothing', 'type=nothing.*', 'type'],
    ['a bad date', 'start_date=yesterday', 'start_date'],
    ['start after end', `start_date=${halfHourAgo}&end_date=${hourAgo}`, 'start_date'],
    ['an unknown parameter', 'colour=red', 'colour'],
    ['a forged cursor', 'cursor=abc', 'cursor'],
  ])('refuses %s with 400 naming the field', async (_label, query, field) => {
    const response = await get(`/v1/events?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('serves the detailed view with context, risk score and related events of the same session', async () => {
    const seed = seeds[3]!;
    const response = await get(`/v1/events/${seed.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: seed.id,
      type: seed.type,
      database_id: seed.database_id,
      database_name: seed.database_id,
      details: { session_id: 'sess_3', client_application: 'psql', user: seed.user },
      context: { policy_id: null, rule_id: null, risk_score: expect.any(Number) },
    });
    expect(Number.isInteger(response.body.context.risk_score)).toBe(true);
    const sameSession = seeds.filter((s, i) => i % 5 === 3 && s.database_id === seed.database_id && s.id !== seed.id).map((s) => s.id).sort();
    expect([...response.body.related_events].sort()).toEqual(sameSession);
    expect(typeof response.body.processed_at).toBe('string');
  });

  it('aggregates counts grouped by database over the last 24 hours', async () => {
    const response = await post('/v1/events/aggregate', { metrics: ['count'], filters: { time_range: { last: '24h' } }, group_by: ['database_name'] });
    expect(response.status).toBe(200);
    const recent = seeds.filter((s) => s.timestamp >= new Date(now - 86_400_000).toISOString());
    const expected = ['db_alpha', 'db_beta'].map((db) => ({ db, n: recent.filter((s) => s.database_id === db).length }));
    const groups = Object.fromEntries(response.body.groups.map((g: { key: { database_name: string }; count: number }) => [g.key.database_name, g.count]));
    // One event of db_alpha was added by the snapshot test (it may have run first).
    expect(groups.db_beta).toBe(expected[1]!.n);
    expect([expected[0]!.n, expected[0]!.n + 1]).toContain(groups.db_alpha);
    // Vigil's own events (the login, the log's checkpoints) are a group of their own. A checkpoint
    // follows any event another test stored, so count them as stored around the request.
    const vigilStored = async () =>
      Number((await system.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM event_ingest.events WHERE database_id = 'vigil' AND "timestamp" >= now() - interval '24 hours'`))[0]!.n);
    expect(groups.vigil).toBeGreaterThanOrEqual(recent.filter((s) => s.database_id === 'vigil').length);
    expect(groups.vigil).toBeLessThanOrEqual(await vigilStored());
    expect(response.body.totals.count).toBe(groups.db_alpha + groups.db_beta + groups.vigil);
    expect(response.body).toMatchObject({ metrics: ['count'], group_by: ['database_name'], truncated: false });
  });

  it('names databases from the registry in aggregates and the detailed view once someone names them', async () => {
    const named = await http(system.gatewayUrl, 'PATCH', '/v1/databases/db_beta', { token, body: { name: 'Beta ledger' } });
    expect(named.status).toBe(200);
    try {
      const response = await post('/v1/events/aggregate', { metrics: ['count'], filters: { time_range: { last: '24h' } }, group_by: ['database_id', 'database_name'] });
      expect(response.status).toBe(200);
      const keys = response.body.groups.map((g: { key: Record<string, string> }) => g.key);
      expect(keys).toEqual(expect.arrayContaining([{ database_id: 'db_beta', database_name: 'Beta ledger' }, { database_id: 'db_alpha', database_name: 'db_alpha' }]));
      const seed = seeds.find((s) => s.database_id === 'db_beta')!;
      expect((await get(`/v1/events/${seed.id}`)).body.database_name).toBe('Beta ledger');
    } finally {
      await http(system.gatewayUrl, 'PATCH', '/v1/databases/db_beta', { token, body: { name: 'db_beta' } });
    }
  });

  it('aggregates several metrics by type and severity in hourly buckets, with filters', async () => {
    const response = await post('/v1/events/aggregate', {
      metrics: ['count', 'unique_users', 'max_risk_score'],
      filters: { time_range: { start: new Date(now - 3 * 3_600_000).toISOString(), end: new Date(now + 1000).toISOString() }, type: 'security.*', database_id: 'db_alpha' },
      group_by: ['type', 'severity', 'hour'],
    });
    expect(response.status).toBe(200);
    const matching = seeds.filter((s) => matchType('security.*', s.type) && s.database_id === 'db_alpha' && s.timestamp >= new Date(now - 3 * 3_600_000).toISOString());
    expect(response.body.totals.count).toBe(matching.length);
    const sum = response.body.groups.reduce((n: number, g: { count: number }) => n + g.count, 0);
    expect(sum).toBe(matching.length);
    for (const group of response.body.groups) {
      expect(group.key.type).toMatch(/^security\./);
      expect(group.bucket).toMatch(/T\d\d:00:00\.000Z$/);
      expect(group.unique_users).toBeGreaterThanOrEqual(1);
    }
  });

  it.each([
    ['an unknown metric', { metrics: ['sum'] }, 'metrics'],
    ['no metrics', { metrics: [] }, 'metrics'],
    ['a bad duration', { metrics: ['count'], filters: { time_range: { last: 'forever' } } }, 'filters.time_range.last'],
    ['an unknown group', { metrics: ['count'], group_by: ['colour'] }, 'group_by'],
    ['two time buckets', { metrics: ['count'], group_by: ['hour', 'day'] }, 'group_by'],
    ['an unknown filter', { metrics: ['count'], filters: { colour: 'red' } }, 'filters.colour'],
    ['a type matching nothing', { metrics: ['count'], filters: { type: 'nope.*' } }, 'filters.type'],
  ])('refuses an aggregate with %s: 400 with the field path', async (_label, body, field) => {
    const response = await post('/v1/events/aggregate', body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('searches by operation and text in the query, newest first, paged by cursor', async () => {
    const last24h = (s: Seed) => s.timestamp >= new Date(now - 86_400_000).toISOString();
    const response = await post('/v1/events/search', { filters: { operation: { in: ['delete', 'DROP'] }, time_range: { last: '24h' } }, limit: 5 });
    expect(response.status).toBe(200);
    const expected = newestFirst(seeds.filter((s) => last24h(s) && /^(DELETE|DROP)/.test(s.query))).map((s) => s.id);
    expect(response.body.events.map((e: { id: string }) => e.id)).toEqual(expected.slice(0, 5));
    expect(response.body.pagination.has_more).toBe(expected.length > 5);
    const next = await post('/v1/events/search', { filters: { operation: { in: ['delete', 'DROP'] }, time_range: { last: '24h' } }, limit: 5, cursor: response.body.pagination.next_cursor });
    expect(next.body.events.map((e: { id: string }) => e.id)).toEqual(expected.slice(5, 10));

    const text = await post('/v1/events/search', { filters: { query: { contains: 'PASSWORD' }, user: 'carol', time_range: { last: '7d' } }, limit: 100 });
    expect(text.body.events.map((e: { id: string }) => e.id)).toEqual(newestFirst(seeds.filter((s) => /password/i.test(s.query) && s.user === 'carol')).map((s) => s.id));
    const literal = await post('/v1/events/search', { filters: { query: { contains: '%' } }, limit: 100 });
    expect(literal.body.events).toEqual([]);
  });

  it('refuses a search with an invalid operation filter', async () => {
    const response = await post('/v1/events/search', { filters: { operation: { in: ['DROP TABLE'] } } });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toMatch(/^filters\.operation\.in/);
  });

  it('needs a credential: 401 without one', async () => {
    const response = await http(system.gatewayUrl, 'GET', '/v1/events', {});
    expect(response.status).toBe(401);
  });
});
