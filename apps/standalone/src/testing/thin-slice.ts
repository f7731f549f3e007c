import { http, login } from './http';

/** The thin slice through the whole system, the same assertions in every mode. */
export function thinSliceScenarios(system: () => { gatewayUrl: string; adminPassword: string }) {
  const base = () => system().gatewayUrl;
  const admin = () => login(base(), 'admin@example.com', system().adminPassword);

  it('is ready, and logs in the administrator from AUDIT_ADMIN_* with a 3600 s ES256 JWT', async () => {
    expect((await http(base(), 'GET', '/health/ready')).status).toBe(200);
    const response = await http(base(), 'POST', '/v1/auth/login', { body: { email: 'ADMIN@example.com', password: system().adminPassword } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ expires_in: 3600, token_type: 'Bearer' });
    expect(typeof response.body.refresh_token).toBe('string');
    const [header, claims] = response.body.access_token.split('.').slice(0, 2).map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(typeof header.kid).toBe('string');
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('refuses a wrong password with a 401 problem document', async () => {
    const response = await http(base(), 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'wrong' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
  });

  it.each([
    ['no credential', undefined],
    ['a malformed token', 'not-a-jwt'],
    ['a token signed by someone else', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4Iiwic2NvcGUiOiJhZG1pbiJ9.c2lnbmF0dXJl'],
  ])('answers 401 with WWW-Authenticate to %s on every /v1 endpoint', async (_label, token) => {
    for (const [method, path] of [['GET', '/v1/events/evt_x'], ['POST', '/v1/events/ingest']] as const) {
      const response = await http(base(), method, path, { token, body: method === 'POST' ? { events: [] } : undefined });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(response.body).toMatchObject({ type: 'urn:vigil:problem:unauthorized', status: 401, instance: path });
      expect(response.body.correlation_id).toBe(response.headers.get('x-correlation-id'));
    }
  });

  /** How many events are stored for a database id: read back through the list endpoint, which counts every row. */
  const storedFor = async (token: string, databaseId: string): Promise<number> => {
    const listed = await http(base(), 'GET', `/v1/events?database_id=${databaseId}&limit=1000`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body.events).toHaveLength(listed.body.pagination.total);
    return listed.body.pagination.total;
  };

  // Fails when a retried producer id stores a second row (checked by storing the retried record
  // again while still answering with the earlier id: the count became 3).
  it('ingests records over HTTP, gives evt_ ids in order, and serves each by id', async () => {
    const token = await admin();
    const producerId = `e2e-${Date.now()}`;
    const databaseId = `db_e2e_${Date.now()}`;
    const response = await http(base(), 'POST', '/v1/events/ingest', {
      token,
      headers: { 'x-correlation-id': 'e2e-correlation-1' },
      body: {
        events: [
          { id: producerId, type: 'database.query', database_id: databaseId, details: { user: 'alice', query: 'SELECT 1', session_id: 'sess_1' } },
          { type: 'user.login_failed', database_id: databaseId, timestamp: '2026-01-01T10:00:00.000Z', details: { user: 'mallory', session_id: 'sess_1' } },
        ],
      },
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('x-correlation-id')).toBe('e2e-correlation-1');
    expect(response.body.accepted).toBe(2);
    const [first, second] = response.body.ids;
    expect(first).toMatch(/^evt_/);

    const one = await http(base(), 'GET', `/v1/events/${first}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: first, type: 'database.query', severity: 'info', database_id: databaseId, details: { user: 'alice', query: 'SELECT 1' } });
    expect(Number.isInteger(one.body.context.risk_score)).toBe(true);
    expect(one.body.related_events).toEqual([second]);
    const two = await http(base(), 'GET', `/v1/events/${second}`, { token });
    expect(two.body).toMatchObject({ type: 'user.login_failed', severity: 'warning', timestamp: '2026-01-01T10:00:00.000Z' });

    // A valid batch stores exactly its records.
    expect(await storedFor(token, databaseId)).toBe(2);

    // The producer id is an idempotency key: a retry gets the same id and stores nothing new.
    const retry = await http(base(), 'POST', '/v1/events/ingest', { token, body: { events: [{ id: producerId, type: 'database.query', database_id: databaseId }] } });
    expect(retry.status).toBe(202);
    expect(retry.body.ids).toEqual([first]);
    expect(await storedFor(token, databaseId)).toBe(2);
  });

  // Fails when the batch is not all-or-nothing (checked by storing the valid records of a refused
  // batch before answering 400: the count was 1).
  it('refuses a batch with one invalid record as 400 with field paths, storing none of it', async () => {
    const token = await admin();
    const producerId = `e2e-invalid-${Date.now()}`;
    const databaseId = `db_e2e_invalid_${Date.now()}`;
    const response = await http(base(), 'POST', '/v1/events/ingest', {
      token,
      body: { events: [{ id: producerId, type: 'database.query', database_id: databaseId }, { type: 'database.nope', database_id: databaseId }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'events[1].type', message: expect.any(String) }]);
    expect(await storedFor(token, databaseId)).toBe(0);
    // The same records without the invalid one are then stored, exactly once each: the refusal left
    // nothing behind that the producer id would collide with.
    const again = await http(base(), 'POST', '/v1/events/ingest', { token, body: { events: [{ id: producerId, type: 'database.query', database_id: databaseId }] } });
    expect(again.status).toBe(202);
    expect(await storedFor(token, databaseId)).toBe(1);
  });

  it.each([
    ['malformed JSON', { raw: '{"events": [' }, 400, 'malformed_json'],
    ['an unknown field', { body: { events: [{ type: 'database.query', database_id: 'db_x' }], extra: true } }, 400, 'validation_failed'],
    ['more than 1000 records', { body: { events: Array.from({ length: 1001 }, () => ({ type: 'database.query', database_id: 'db_x' })) } }, 400, 'validation_failed'],
  ])('answers %s with a problem document', async (_label, request, status, code) => {
    const response = await http(base(), 'POST', '/v1/events/ingest', { token: await admin(), ...request });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ status, code });
  });

  it('answers an unknown event id with 404 event_not_found', async () => {
    const response = await http(base(), 'GET', '/v1/events/evt_00000000000000000000000000', { token: await admin() });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'event_not_found', status: 404 });
  });
}
