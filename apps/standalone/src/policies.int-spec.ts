import { waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/** Policies end to end on the in-process bus: the nine endpoints, enforcement, violations, concurrency. */
describe('policies', () => {
  let system: TestSystem;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
  const unique = (name: string) => `${name} ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const dropRules = { rules: [{ name: 'no drops', pattern: '\\bDROP\\s+TABLE\\b', action: 'block', severity: 'critical', message: 'DROP is forbidden' }] };
  const create = async (extra: Record<string, unknown> = {}) => {
    const response = await api('POST', '/v1/policies', { name: unique('drops'), type: 'query_control', databases: ['db_pol'], config: dropRules, ...extra });
    expect(response.status).toBe(201);
    return response.body;
  };
  const ingest = async (events: unknown[]) => {
    const response = await api('POST', '/v1/events/ingest', { events });
    expect(response.status).toBe(202);
    return response.body.ids as string[];
  };
  /**
   * Ingests `event` on its own until the policy's stored outcome for it is `action`, one attempt at
   * a time: a policy change reaches enforcement within about a second (docs/policies.md), so this
   * waits for the change instead of for a fixed time (up to 5 s). Answers the id of the event that
   * showed it and the policy's outcomes for the attempts before it (none while it was not in force).
   */
  const ingestUntil = async (policyId: string, event: Record<string, unknown>, action: string) => {
    const before: string[] = [];
    const id = await waitFor(async () => {
      const [attempt] = await ingest([event]);
      // The outcomes of an event are stored with it, in one transaction.
      const outcomes = await waitFor(async () => {
        const rows = await system.db.query<{ id: string; policy_id: string | null; action: string | null }>(
          `SELECT id, policy_id, details->>'action_taken' AS action FROM event_ingest.events WHERE id = $1 OR details->>'triggering_event_id' = $1`,
          [attempt],
        );
        return rows.some((r) => r.id === attempt) ? rows.filter((r) => r.policy_id === policyId).map((r) => r.action!) : undefined;
      }, 10_000, `event ${attempt} stored`);
      if (outcomes.includes(action)) return attempt!;
      before.push(...outcomes);
      return undefined;
    }, 5000, `${action} by policy ${policyId}`);
    return { id, before };
  };

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory' });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('creates with defaults, answers get with config and counters, and lists items without config', async () => {
    const created = await create({ description: undefined });
    expect(created).toEqual({
      id: expect.stringMatching(/^pol_/),
      name: expect.any(String),
      type: 'query_control',
      enabled: false,
      enforcement_mode: 'enforce',
      description: '',
      created_at: expect.any(String),
      updated_at: created.created_at,
      databases: ['db_pol'],
      config: dropRules,
      violation_count: 0,
      last_violation_at: null,
    });
    const got = await api('GET', `/v1/policies/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);

    const listed = await api('GET', `/v1/policies?type=query_control&enabled=false&database_id=db_pol&per_page=100`);
    expect(listed.status).toBe(200);
    const item = listed.body.data.find((p: { id: string }) => p.id === created.id);
    expect(item).toBeDefined();
    expect(item.config).toBeUndefined();
    expect(item.last_violation_at).toBeUndefined();
    expect(item.violation_count).toBe(0);
    expect(listed.body.pagination).toMatchObject({ page: 1, per_page: 100, has_more: false });
    expect((await api('GET', `/v1/policies?enabled=true&database_id=db_pol`)).body.data.some((p: { id: string }) => p.id === created.id)).toBe(false);
    expect((await api('GET', `/v1/policies?database_id=db_elsewhere`)).body.data.some((p: { id: string }) => p.id === created.id)).toBe(false);
  });

  it('paginates with page and per_page', async () => {
    const prefix = unique('page');
    for (let i = 0; i < 3; i++) await create({ name: `${prefix} ${i}`, databases: ['db_pages'] });
    const first = await api('GET', '/v1/policies?database_id=db_pages&per_page=2&page=1');
    const second = await api('GET', '/v1/policies?database_id=db_pages&per_page=2&page=2');
    expect(first.body.pagination).toEqual({ total: 3, page: 1, per_page: 2, has_more: true });
    expect(second.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, has_more: false });
    expect(second.body.data).toHaveLength(1);
  });

  it.each([
    ['a missing required field', { type: 'query_control', databases: ['db_pol'], config: dropRules }, 400, 'name'],
    ['an unknown field', { name: 'x', type: 'query_control', databases: ['db_pol'], config: dropRules, color: 'red' }, 400, 'color'],
    ['an unknown type', { name: 'x', type: 'firewall', databases: ['db_pol'], config: {} }, 400, 'type'],
    ['a bad database id', { name: 'x', type: 'query_control', databases: ['main'], config: dropRules }, 400, 'databases'],
    ['a pattern RE2 cannot run', { name: 'x', type: 'query_control', databases: ['db_pol'], config: { rules: [{ name: 'r', pattern: '(a)\\1', action: 'block' }] } }, 422, 'config.rules[0].pattern'],
    ['a bad CIDR', { name: 'x', type: 'access_control', databases: ['db_pol'], config: { conditions: { allowed_ips: ['10.0.0.0/40'] }, actions: [{ type: 'block' }] } }, 422, 'config.conditions.allowed_ips[0]'],
    ['an unknown time zone', { name: 'x', type: 'access_control', databases: ['db_pol'], config: { conditions: { time_window: { start: '09:00', end: '17:00', timezone: 'Nowhere/City' } }, actions: [{ type: 'block' }] } }, 422, 'config.conditions.time_window.timezone'],
    ['a config of another type', { name: 'x', type: 'alerting', databases: ['db_pol'], config: dropRules }, 422, 'config.rules'],
    ['an unknown enforcement mode', { name: 'x', type: 'query_control', databases: ['db_pol'], config: dropRules, enforcement_mode: 'dry-run' }, 400, 'enforcement_mode'],
    ['an enforcement mode of the wrong type', { name: 'x', type: 'query_control', databases: ['db_pol'], config: dropRules, enforcement_mode: true }, 400, 'enforcement_mode'],
    ['a null enforcement mode', { name: 'x', type: 'query_control', databases: ['db_pol'], config: dropRules, enforcement_mode: null }, 400, 'enforcement_mode'],
  ])('answers %s with the right status and field path', async (_label, body, status, field) => {
    const response = await api('POST', '/v1/policies', body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers a duplicate name with 409, also on update', async () => {
    const a = await create();
    const b = await create();
    const duplicate = await api('POST', '/v1/policies', { name: a.name, type: 'query_control', databases: ['db_pol'], config: dropRules });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('policy_name_taken');
    expect((await api('PUT', `/v1/policies/${b.id}`, { name: a.name })).status).toBe(409);
  });

  it('updates only the given fields, enables and disables, deletes, and answers 404 afterwards', async () => {
    const policy = await create();
    const updated = await api('PUT', `/v1/policies/${policy.id}`, { description: 'now described', databases: ['db_pol', 'db_other'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: policy.name, config: dropRules, description: 'now described', databases: ['db_pol', 'db_other'], enabled: false });
    expect(updated.body.updated_at > policy.updated_at).toBe(true);
    expect((await api('PUT', `/v1/policies/${policy.id}`, { config: { rules: [{ name: 'r', pattern: '(?=x)', action: 'block' }] } })).status).toBe(422);

    const enabled = await api('POST', `/v1/policies/${policy.id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ id: policy.id, enabled: true, updated_at: expect.any(String) });
    expect(enabled.body.updated_at > updated.body.updated_at).toBe(true);
    const disabled = await api('POST', `/v1/policies/${policy.id}/disable`);
    expect(disabled.body).toEqual({ id: policy.id, enabled: false, updated_at: expect.any(String) });
    expect((await api('GET', `/v1/policies/${policy.id}`)).body.config).toEqual(dropRules);

    const deleted = await api('DELETE', `/v1/policies/${policy.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, id: policy.id });
    for (const [method, path] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['POST', '/enable'], ['POST', '/disable'], ['POST', '/test']] as const) {
      const response = await api(method, `/v1/policies/${policy.id}${path}`, method === 'GET' || method === 'DELETE' || path === '/enable' || path === '/disable' ? undefined : {});
      expect([method, path, response.status, response.body.code]).toEqual([method, path, 404, 'policy_not_found']);
    }
    // An id of a form Vigil never makes names no policy either: 404, not a validation error.
    for (const bogus of ['xyz', encodeURIComponent("pol_x'; DROP TABLE policies--")]) {
      const response = await api('GET', `/v1/policies/${bogus}`);
      expect([bogus, response.status, response.body.code]).toEqual([bogus, 404, 'policy_not_found']);
    }
    // The name is free again.
    expect((await api('POST', '/v1/policies', { name: policy.name, type: 'query_control', databases: ['db_pol'], config: dropRules })).status).toBe(201);
  });

  it('stores every change as an event of the policy stream and announces it as policy.updated', async () => {
    const policy = await create();
    await api('PUT', `/v1/policies/${policy.id}`, { description: 'x' });
    await api('POST', `/v1/policies/${policy.id}/enable`);
    await api('POST', `/v1/policies/${policy.id}/disable`);
    await api('DELETE', `/v1/policies/${policy.id}`);
    const events = await system.db.query<{ version: number; type: string }>(`SELECT version, type FROM policy.event_store WHERE stream_id = $1 ORDER BY version`, [policy.id]);
    expect(events).toEqual([
      { version: 1, type: 'policy.created' },
      { version: 2, type: 'policy.updated' },
      { version: 3, type: 'policy.enabled' },
      { version: 4, type: 'policy.disabled' },
      { version: 5, type: 'policy.deleted' },
    ]);
    await expect(system.db.query(`UPDATE policy.event_store SET type = 'x' WHERE stream_id = $1`, [policy.id])).rejects.toThrow(/immutable/);
  });

  it('simulates with /test: would_trigger, matched conditions with reasons, actions; nothing stored', async () => {
    const access = await api('POST', '/v1/policies', {
      name: unique('office hours'),
      type: 'access_control',
      databases: ['db_pol'],
      config: {
        conditions: { users: ['alice'], time_window: { start: '08:00', end: '18:00', timezone: 'Europe/Berlin', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] }, allowed_ips: ['10.0.0.0/8'] },
        actions: [{ type: 'block' }, { type: 'alert', severity: 'high', channels: ['secops'] }],
      },
    });
    expect(access.status).toBe(201);
    const outside = await api('POST', `/v1/policies/${access.body.id}/test`, { user: 'alice', source_ip: '203.0.113.5', query: 'SELECT 1', timestamp: '2026-03-07T22:00:00Z' });
    expect(outside.status).toBe(200);
    expect(outside.body).toEqual({
      would_trigger: true,
      matched_conditions: [
        { type: 'user', reason: expect.any(String) },
        { type: 'time_window', reason: expect.stringContaining('saturday 23:00 Europe/Berlin') },
        { type: 'ip_restriction', reason: expect.stringContaining('203.0.113.5') },
      ],
      actions_would_execute: [{ type: 'block', severity: 'high' }, { type: 'alert', severity: 'high', channels: ['secops'] }],
    });
    const inside = await api('POST', `/v1/policies/${access.body.id}/test`, { user: 'alice', source_ip: '10.1.1.1', timestamp: '2026-03-04T10:00:00Z' });
    expect(inside.body).toEqual({ would_trigger: false, matched_conditions: [], actions_would_execute: [] });
    // Without a timestamp the sample happens now: the answer is well-formed either way.
    const now = await api('POST', `/v1/policies/${access.body.id}/test`, { user: 'alice', source_ip: '10.1.1.1' });
    expect(now.status).toBe(200);
    expect(typeof now.body.would_trigger).toBe('boolean');
    expect((await api('POST', `/v1/policies/${access.body.id}/test`, { timestamp: 'yesterday' })).status).toBe(400);
    expect((await api('GET', `/v1/policies/${access.body.id}/violations`)).body.pagination.total).toBe(0);
  });

  it('refuses an application-only exemption with 422 on create and update, and honours an application bound to users', async () => {
    const appOnly = { ...dropRules, exceptions: { applications: ['migrator'] } };
    const refused = await api('POST', '/v1/policies', { name: unique('app only'), type: 'query_control', databases: ['db_exempt'], config: appOnly });
    expect([refused.status, refused.headers.get('content-type')]).toEqual([422, expect.stringContaining('application/problem+json')]);
    expect(refused.body.errors).toEqual([{ field: 'config.exceptions.applications', message: expect.stringContaining('application_name is chosen by the database client') }]);
    const existing = await create({ databases: ['db_exempt'] });
    const refusedUpdate = await api('PUT', `/v1/policies/${existing.id}`, { config: appOnly });
    expect([refusedUpdate.status, refusedUpdate.body.errors?.map((e: { field: string }) => e.field)]).toEqual([422, ['config.exceptions.applications']]);
    expect((await api('GET', `/v1/policies/${existing.id}`)).body.config).toEqual(dropRules);

    const bound = await create({ databases: ['db_exempt'], config: { ...dropRules, exceptions: { users: ['deployer'], applications: ['migrator'] } } });
    const sample = (user: string, client_application: string) => api('POST', `/v1/policies/${bound.id}/test`, { user, client_application, query: 'DROP TABLE t' });
    expect((await sample('deployer', 'migrator')).body.would_trigger).toBe(false);
    expect((await sample('deployer', 'psql')).body.would_trigger).toBe(true);
    expect((await sample('mallory', 'migrator')).body.would_trigger).toBe(true); // a spoofed application_name

    expect((await api('POST', `/v1/policies/${bound.id}/enable`)).status).toBe(200);
    await api('DELETE', `/v1/policies/${existing.id}`);
    const spoofed = { type: 'database.query', database_id: 'db_exempt', details: { user: 'mallory', client_application: 'migrator', query: 'DROP TABLE accounts' } };
    await ingestUntil(bound.id, spoofed, 'blocked');
    // The policy is in force now: the exempt pair gets no outcome from it.
    const [exempt] = await ingest([{ type: 'database.query', database_id: 'db_exempt', details: { user: 'deployer', client_application: 'migrator', query: 'DROP TABLE accounts' } }]);
    const outcomes = await waitFor(async () => {
      const rows = await system.db.query<{ id: string; policy_id: string | null }>(
        `SELECT id, policy_id FROM event_ingest.events WHERE id = $1 OR details->>'triggering_event_id' = $1`,
        [exempt],
      );
      return rows.some((r) => r.id === exempt) ? rows.filter((r) => r.policy_id === bound.id) : undefined;
    }, 10_000, 'the exempt event stored');
    expect(outcomes).toEqual([]);
  });

  it('enforces an enabled policy on ingested events: violation record, policy.violation event, counters; disabled and deleted stop at once', async () => {
    // Created first and never violated: first by creation, after the violated one by violations.
    const quiet = await create({ databases: ['db_enforce'], config: { rules: [{ ...dropRules.rules[0], pattern: '\\bNEVER_MATCHES_THIS\\b' }] } });
    const policy = await create({ databases: ['db_enforce'] });
    // Disabled: nothing happens.
    await ingest([{ type: 'database.query', database_id: 'db_enforce', details: { user: 'mallory', query: 'DROP TABLE accounts' } }]);
    expect((await api('POST', `/v1/policies/${policy.id}/enable`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000)); // a policy change reaches enforcement within a second
    const [eventId] = await ingest([
      { type: 'database.query', database_id: 'db_enforce', timestamp: '2026-03-04T10:00:00.000Z', details: { user: 'mallory', source_ip: '198.51.100.7', query: 'drop table accounts' } },
      { type: 'database.query', database_id: 'db_enforce', details: { user: 'mallory', query: 'SELECT 1' } },
    ]);
    const violations = await waitFor(async () => {
      const page = await api('GET', `/v1/policies/${policy.id}/violations`);
      return page.body.data.length ? page.body : undefined;
    }, 10_000, 'the violation');
    expect(violations.data).toEqual([
      {
        id: expect.stringMatching(/^vio_/),
        policy_id: policy.id,
        timestamp: '2026-03-04T10:00:00.000Z',
        user: 'mallory',
        database: 'db_enforce',
        source_ip: '198.51.100.7',
        query: 'drop table accounts',
        matched_conditions: ['query_pattern'],
        action_taken: 'blocked',
        severity: 'critical',
      },
    ]);
    expect(violations.pagination).toEqual({ total: 1, page: 1, per_page: 20, has_more: false });
    const stored = await system.db.query<{ type: string; severity: string; policy_id: string; details: Record<string, unknown> }>(
      `SELECT type, severity, policy_id, details FROM event_ingest.events WHERE policy_id = $1`,
      [policy.id],
    );
    expect(stored).toEqual([
      expect.objectContaining({ type: 'policy.violation', severity: 'critical', details: expect.objectContaining({ triggering_event_id: eventId, violation_id: violations.data[0].id, action_taken: 'blocked', message: 'DROP is forbidden' }) }),
    ]);
    const got = await api('GET', `/v1/policies/${policy.id}`);
    expect(got.body).toMatchObject({ violation_count: 1, last_violation_at: '2026-03-04T10:00:00.000Z' });
    expect((await api('GET', `/v1/policies?database_id=db_enforce`)).body.data.find((p: { id: string }) => p.id === policy.id).violation_count).toBe(1);
    const order = async (query: string) => (await api('GET', `/v1/policies?database_id=db_enforce&${query}`)).body.data.map((p: { id: string; violation_count: number }) => [p.id, p.violation_count]);
    expect(await order('sort=created_at')).toEqual([[quiet.id, 0], [policy.id, 1]]);
    expect(await order('sort=violation_count')).toEqual([[policy.id, 1], [quiet.id, 0]]);
    expect(await order('sort=violation_count&per_page=1')).toEqual([[policy.id, 1]]);
    const badSort = await api('GET', '/v1/policies?sort=name');
    expect([badSort.status, badSort.body.errors?.map((e: { field: string }) => e.field)]).toEqual([400, ['sort']]);
    await api('DELETE', `/v1/policies/${quiet.id}`);

    await api('POST', `/v1/policies/${policy.id}/disable`);
    await new Promise((r) => setTimeout(r, 1000));
    await ingest([{ type: 'database.query', database_id: 'db_enforce', details: { user: 'mallory', query: 'DROP TABLE again' } }]);
    await api('POST', `/v1/policies/${policy.id}/enable`);
    await api('DELETE', `/v1/policies/${policy.id}`);
    await new Promise((r) => setTimeout(r, 1000));
    await ingest([{ type: 'database.query', database_id: 'db_enforce', details: { user: 'mallory', query: 'DROP TABLE once more' } }]);
    // An event's policy outcomes are stored with it, in the transaction the 202 answered for, and a
    // violation record exists only for a stored policy.violation event: no later outcome for this
    // policy now means no later violation, without waiting. (Fails when a disabled policy is still
    // enforced: checked by keeping disabled policies in the enforcement cache — 2 outcomes.)
    const outcomes = await system.db.query<{ triggering: string | null }>(
      `SELECT details->>'triggering_event_id' AS triggering FROM event_ingest.events WHERE policy_id = $1`,
      [policy.id],
    );
    expect(outcomes.map((o) => o.triggering)).toEqual([eventId]);
    const after = await api('GET', `/v1/policies/${policy.id}/violations`);
    expect(after.status).toBe(200);
    expect(after.body.pagination.total).toBe(1);
    expect((await api('GET', '/v1/policies/pol_00000000000000000000000000/violations')).status).toBe(404);
  });

  it('filters violations by time range, severity and user, with limit and page', async () => {
    const policy = await create({ databases: ['db_filter'], enabled: true });
    await new Promise((r) => setTimeout(r, 1000));
    await ingest(
      ['alice', 'bob', 'alice'].map((user, i) => ({
        type: 'database.query',
        database_id: 'db_filter',
        timestamp: `2026-02-0${i + 1}T12:00:00.000Z`,
        details: { user, query: 'DROP TABLE t' },
      })),
    );
    await waitFor(async () => (await api('GET', `/v1/policies/${policy.id}`)).body.violation_count === 3, 10_000, 'three violations');
    const q = async (query: string) => (await api('GET', `/v1/policies/${policy.id}/violations?${query}`)).body;
    expect((await q('user=alice')).data.map((v: { timestamp: string }) => v.timestamp)).toEqual(['2026-02-03T12:00:00.000Z', '2026-02-01T12:00:00.000Z']);
    expect((await q('start_date=2026-02-02T00:00:00Z&end_date=2026-02-02T23:59:59Z')).data.map((v: { user: string }) => v.user)).toEqual(['bob']);
    expect((await q('severity=critical')).pagination.total).toBe(3);
    expect((await q('severity=low,info')).pagination.total).toBe(0);
    expect(await q('limit=2&page=2')).toMatchObject({ pagination: { total: 3, page: 2, per_page: 2, has_more: false } });
    expect((await api('GET', `/v1/policies/${policy.id}/violations?limit=0`)).status).toBe(400);
    expect((await api('GET', `/v1/policies/${policy.id}/violations?severity=urgent`)).status).toBe(400);
  });

  it('keeps violation_count exact under concurrent ingestion', async () => {
    const policy = await create({ databases: ['db_busy'], enabled: true });
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ingest(Array.from({ length: 5 }, (_, j) => ({ type: 'database.query', database_id: 'db_busy', details: { user: `u${i}`, query: `DROP TABLE t${j}` } }))),
      ),
    );
    await waitFor(async () => (await api('GET', `/v1/policies/${policy.id}`)).body.violation_count >= 50, 15_000, '50 violations');
    await new Promise((r) => setTimeout(r, 300));
    expect((await api('GET', `/v1/policies/${policy.id}`)).body.violation_count).toBe(50);
    expect((await api('GET', `/v1/policies/${policy.id}/violations`)).body.pagination.total).toBe(50);
  });

  it('never loses an update under concurrent PUTs: each is applied in turn or answered 409', async () => {
    const policy = await create();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api('PUT', `/v1/policies/${policy.id}`, { description: `writer ${i}`, databases: ['db_pol', `db_w${i}`] })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const applied = responses.filter((r) => r.status === 200).length;
    expect(applied).toBeGreaterThan(0);
    const events = await system.db.query<{ version: number; data: { changes: { description: string } } }>(
      `SELECT version, data FROM policy.event_store WHERE stream_id = $1 AND type = 'policy.updated' ORDER BY version`,
      [policy.id],
    );
    // Every 200 is one event on top of the one before it, and the read model is the last of them.
    expect(events).toHaveLength(applied);
    const final = await api('GET', `/v1/policies/${policy.id}`);
    expect(final.body.description).toBe(events[events.length - 1]!.data.changes.description);
    const [{ version }] = await system.db.query<{ version: number }>(`SELECT version FROM policy.policies WHERE id = $1`, [policy.id]);
    expect(version).toBe(1 + applied);
  });

  it('takes enforcement_mode on create and PUT, answers it on get and list, filters by it, and refuses bad values with 400', async () => {
    const shadow = await create({ enforcement_mode: 'shadow', databases: ['db_modes'] });
    expect(shadow.enforcement_mode).toBe('shadow');
    expect((await api('GET', `/v1/policies/${shadow.id}`)).body.enforcement_mode).toBe('shadow');
    const enforced = await create({ databases: ['db_modes'] });
    const list = async (query: string) => (await api('GET', `/v1/policies?database_id=db_modes&${query}`)).body.data.map((p: { id: string; enforcement_mode: string }) => [p.id, p.enforcement_mode]);
    expect(await list('enforcement_mode=shadow')).toEqual([[shadow.id, 'shadow']]);
    expect(await list('enforcement_mode=enforce')).toEqual([[enforced.id, 'enforce']]);
    expect(await list('per_page=100')).toEqual([[shadow.id, 'shadow'], [enforced.id, 'enforce']]);
    const badFilter = await api('GET', '/v1/policies?enforcement_mode=maybe');
    expect([badFilter.status, badFilter.body.errors?.map((e: { field: string }) => e.field)]).toEqual([400, ['enforcement_mode']]);

    const switched = await api('PUT', `/v1/policies/${shadow.id}`, { enforcement_mode: 'enforce' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ id: shadow.id, enforcement_mode: 'enforce', name: shadow.name, config: dropRules });
    // Other changes leave the mode as it is.
    expect((await api('PUT', `/v1/policies/${enforced.id}`, { enforcement_mode: 'shadow' })).body.enforcement_mode).toBe('shadow');
    expect((await api('PUT', `/v1/policies/${enforced.id}`, { description: 'still shadow' })).body).toMatchObject({ description: 'still shadow', enforcement_mode: 'shadow' });
    for (const value of ['off', null, 1, ['shadow']]) {
      const refused = await api('PUT', `/v1/policies/${enforced.id}`, { enforcement_mode: value });
      expect([value, refused.status, refused.headers.get('content-type'), refused.body.errors?.map((e: { field: string }) => e.field)]).toEqual([value, 400, expect.stringContaining('application/problem+json'), ['enforcement_mode']]);
    }
    expect((await api('GET', `/v1/policies/${enforced.id}`)).body.enforcement_mode).toBe('shadow');
  });

  it('records a shadow policy\'s matches as not enforced (would_block, would_alert, would_mask), sends no alert, and enforces it within a second once switched', async () => {
    const db = `db_shadow_${Math.random().toString(36).slice(2, 8)}`;
    const block = await create({ databases: [db], enabled: true, enforcement_mode: 'shadow' });
    const alerting = await create({
      databases: [db],
      enabled: true,
      enforcement_mode: 'shadow',
      config: { rules: [{ name: 'truncate', pattern: '\\bTRUNCATE\\b', action: 'alert', severity: 'high', message: 'TRUNCATE seen' }] },
    });
    const masking = await api('POST', '/v1/policies', {
      name: unique('try masking'),
      type: 'data_protection',
      databases: [db],
      enabled: true,
      enforcement_mode: 'shadow',
      config: { rules: [{ name: 'ssn', columns: ['customers.ssn'], method: 'redact' }] },
    });
    expect(masking.status).toBe(201);
    // Each event matches one of the policies: sent until its policy has reached enforcement.
    const drop = { type: 'database.query', database_id: db, details: { user: 'mallory', query: 'DROP TABLE accounts' } };
    const truncate = { type: 'database.query', database_id: db, details: { user: 'mallory', query: 'TRUNCATE accounts' } };
    const select = { type: 'database.query', database_id: db, details: { user: 'mallory', query: 'SELECT ssn FROM customers' } };
    const { id: dropId } = await ingestUntil(block.id, drop, 'would_block');
    const { id: truncateId } = await ingestUntil(alerting.id, truncate, 'would_alert');
    const { id: selectId } = await ingestUntil(masking.body.id, select, 'would_mask');
    const violationsOf = async (policyId: string, count: number) =>
      waitFor(async () => {
        const page = await api('GET', `/v1/policies/${policyId}/violations`);
        return page.body.data.length >= count ? page.body.data : undefined;
      }, 10_000, `${count} violation(s) of ${policyId}`);
    expect(await violationsOf(block.id, 1)).toEqual([expect.objectContaining({ query: 'DROP TABLE accounts', action_taken: 'would_block', severity: 'critical', matched_conditions: ['query_pattern'] })]);
    expect(await violationsOf(alerting.id, 1)).toEqual([expect.objectContaining({ query: 'TRUNCATE accounts', action_taken: 'would_alert', severity: 'high' })]);
    expect((await api('GET', `/v1/policies/${block.id}`)).body.violation_count).toBe(1);
    // The derived audit events are informational matches that say what would have happened.
    const derived = await waitFor(async () => {
      const rows = await system.db.query<{ type: string; severity: string; policy_id: string; details: Record<string, unknown> }>(
        `SELECT type, severity, policy_id, details FROM event_ingest.events WHERE database_id = $1 AND type LIKE 'policy.%'`,
        [db],
      );
      return rows.length === 3 ? new Map(rows.map((r) => [r.policy_id, r])) : undefined;
    }, 10_000, 'the derived events');
    expect(derived.get(block.id)).toMatchObject({ type: 'policy.match', severity: 'info', details: { triggering_event_id: dropId, action_taken: 'would_block', shadow: true, violation_id: expect.stringMatching(/^vio_/), policy_severity: 'critical', message: 'Shadow mode, not enforced: DROP is forbidden' } });
    expect(derived.get(alerting.id)).toMatchObject({ type: 'policy.match', severity: 'info', details: { triggering_event_id: truncateId, action_taken: 'would_alert', shadow: true } });
    expect(derived.get(masking.body.id)).toMatchObject({ type: 'policy.match', severity: 'info', details: { triggering_event_id: selectId, action_taken: 'would_mask', shadow: true, would_mask: [expect.objectContaining({ rule: 'ssn', method: 'redact' })] } });
    expect(derived.get(masking.body.id)!.details).not.toHaveProperty('masking');
    // Switched to enforce: enforced from the next events on (within the propagation bound).
    for (const policy of [block, alerting, masking.body]) {
      expect((await api('PUT', `/v1/policies/${policy.id}`, { enforcement_mode: 'enforce' })).body.enforcement_mode).toBe('enforce');
    }
    const blocked = await ingestUntil(block.id, drop, 'blocked');
    const alerted = await ingestUntil(alerting.id, truncate, 'alerted');
    const masked = await ingestUntil(masking.body.id, select, 'masked');
    // Until the switch reached enforcement, the policies still only recorded what they would have done.
    expect([blocked.before.filter((a) => a !== 'would_block'), alerted.before.filter((a) => a !== 'would_alert'), masked.before.filter((a) => a !== 'would_mask')]).toEqual([[], [], []]);
    expect((await violationsOf(block.id, 2 + blocked.before.length)).map((v: { action_taken: string }) => v.action_taken).sort()).toEqual(['blocked', 'would_block', ...blocked.before]);
    expect((await violationsOf(alerting.id, 2 + alerted.before.length)).map((v: { action_taken: string }) => v.action_taken).sort()).toEqual(['alerted', 'would_alert', ...alerted.before]);
    const alerts = await waitFor(async () => {
      const page = await api('GET', `/v1/alerts?database_id=${db}`);
      return page.body.data?.length ? page.body.data : undefined;
    }, 10_000, 'the alert of the enforced policy');
    // One alert with one occurrence: the shadow-mode match asked for none (alert requests of a policy
    // are applied in order, and a request for the same condition would have been folded into it).
    expect(alerts).toEqual([expect.objectContaining({ policy_id: alerting.id, type: 'policy_violation', occurrences: 1 })]);
    expect(alerts[0].event_ids).not.toContain(truncateId);
    // (The events were ingested one after another: drop, truncate, select.)
    const enforced = await system.db.query<{ type: string; details: Record<string, unknown> }>(
      `SELECT type, details FROM event_ingest.events WHERE database_id = $1 AND type LIKE 'policy.%' AND NOT (details ? 'shadow') ORDER BY type, "timestamp"`,
      [db],
    );
    expect(enforced.map((e) => [e.type, e.details.action_taken])).toEqual([['policy.match', 'masked'], ['policy.violation', 'blocked'], ['policy.violation', 'alerted']]);
  });

  it('asks for read:policies and write:policies', async () => {
    const reader = await api('POST', '/v1/users', { email: `reader-${Date.now()}@example.com`, password: 'reader-password-123', scopes: ['read:policies'] });
    expect(reader.status).toBe(201);
    const readerToken = await login(system.gatewayUrl, reader.body.email, 'reader-password-123');
    expect((await http(system.gatewayUrl, 'GET', '/v1/policies', { token: readerToken })).status).toBe(200);
    const refused = await http(system.gatewayUrl, 'POST', '/v1/policies', { token: readerToken, body: { name: 'x', type: 'query_control', databases: ['db_pol'], config: dropRules } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="write:policies"');
    expect((await http(system.gatewayUrl, 'GET', '/v1/policies')).status).toBe(401);
  });
});
