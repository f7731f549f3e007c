import { verify } from '@octokit/webhooks-methods';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Webhooks end to end on the whole system (in-process bus): events ingested over HTTP reach a real
 * receiver on 127.0.0.1, signed; signatures are checked by an independent implementation.
 */
describe('webhooks', () => {
  let system: TestSystem;
  let receiver: WebhookReceiver;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
  const ingest = async (events: unknown[]) => {
    const response = await api('POST', '/v1/events/ingest', { events });
    expect(response.status).toBe(202);
    return response.body.ids as string[];
  };
  const subscribe = async (path: string, events: string[], secret?: string) => {
    const response = await api('POST', '/v1/webhooks', { url: `${receiver.url}${path}`, events, ...(secret ? { secret } : {}) });
    expect(response.status).toBe(201);
    return response.body;
  };

  /** The official Standard Webhooks verifier, keyed as docs/webhooks.md tells receivers to. */
  const standardVerifier = (secret: string) => new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
  const verifyStandard = (secret: string, request: { body: string; headers: Record<string, unknown> }) =>
    standardVerifier(secret).verify(request.body, request.headers as Record<string, string>);
  /** Runs a synchronous check as if the clock read `at` (ms); nothing else runs meanwhile. */
  const atTime = <T>(at: number, check: () => T): T => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(at);
    try {
      return check();
    } finally {
      now.mockRestore();
    }
  };

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { DELIVERY_ALLOW_INSECURE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '0,1,1' } });
    receiver = await startWebhookReceiver();
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  it('creates form A with the client secret and answers exactly the form A fields', async () => {
    const created = await subscribe('/crud-a', ['security.*'], 'form-a-secret-0123456789');
    expect(Object.keys(created).sort()).toEqual(['created_at', 'events', 'id', 'status', 'url']);
    expect(created).toMatchObject({ id: expect.stringMatching(/^wh_/), events: ['security.*'], status: 'active' });
    const got = await api('GET', `/v1/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: created.id, form: 'A', active: true, status: 'active', events: ['security.*'] });
    expect(JSON.stringify(got.body)).not.toContain('form-a-secret');
  });

  it('creates form B with a generated secret shown once, sealed at rest with its key id', async () => {
    const response = await api('POST', '/v1/webhooks', { url: `${receiver.url}/crud-b`, events: ['alert.created'], description: 'ops', active: false });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['active', 'created_at', 'description', 'events', 'id', 'secret', 'url']);
    expect(response.body).toMatchObject({ description: 'ops', active: false, secret: expect.stringMatching(/^whsec_.{40,}/) });
    const { id, secret } = response.body;
    const got = await api('GET', `/v1/webhooks/${id}`);
    expect(got.body).toMatchObject({ form: 'B', active: false, status: 'inactive' });
    expect(got.body.secret).toBeUndefined();
    const list = await api('GET', '/v1/webhooks?per_page=100');
    expect(list.body.data.some((w: { id: string }) => w.id === id)).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const [row] = await system.db.query<{ secret_sealed: string; secret_key_id: string }>(`SELECT secret_sealed, secret_key_id FROM delivery.webhooks WHERE id = $1`, [id]);
    expect(row!.secret_sealed).toMatch(/^v2\./);
    expect(row!.secret_sealed).not.toContain(secret);
    expect(row!.secret_sealed.split('.')[1]).toBe(row!.secret_key_id);
  });

  it('updates events, active, url and description, and deletes', async () => {
    const { id } = await subscribe('/crud-patch', ['database.query']);
    const patched = await api('PATCH', `/v1/webhooks/${id}`, { events: ['policy.*', 'user.login_failed'], active: false, url: `${receiver.url}/crud-patched`, description: 'changed' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ['policy.*', 'user.login_failed'], active: false, status: 'inactive', url: `${receiver.url}/crud-patched`, description: 'changed' });
    expect((await api('DELETE', `/v1/webhooks/${id}`)).body).toEqual({ deleted: true, id });
    const gone = await api('GET', `/v1/webhooks/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'webhook_not_found' });
    expect((await api('PATCH', `/v1/webhooks/${id}`, { active: true })).status).toBe(404);
  });

  it('needs read:logs besides write:alerts to subscribe to audit log event types, on create and on update', async () => {
    const created = await api('POST', '/v1/api-keys', { name: 'alerts writer', scopes: ['write:alerts', 'read:alerts'] });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const asKey = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token: key, body });
    for (const events of [['database.*'], ['user.login_failed'], ['data.export'], ['*'], ['alert.*', 'database.connected']]) {
      const refused = await asKey('POST', '/v1/webhooks', { url: `${receiver.url}/scoped`, events });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope', status: 403 });
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="read:logs"');
    }
    const allowed = await asKey('POST', '/v1/webhooks', { url: `${receiver.url}/scoped`, events: ['alert.*', 'policy.updated', 'report.generated'] });
    expect(allowed.status).toBe(201);
    const widened = await asKey('PATCH', `/v1/webhooks/${allowed.body.id}`, { events: ['alert.*', 'user.*'] });
    expect(widened.status).toBe(403);
    expect(widened.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="read:logs"');
    expect((await asKey('PATCH', `/v1/webhooks/${allowed.body.id}`, { description: 'renamed', events: ['alert.created'] })).status).toBe(200);
    expect((await api('GET', `/v1/webhooks/${allowed.body.id}`)).body.events).toEqual(['alert.created']);

    const withLogs = await api('POST', '/v1/api-keys', { name: 'alerts and logs', scopes: ['write:alerts', 'read:logs'] });
    const both = await http(system.gatewayUrl, 'POST', '/v1/webhooks', { token: withLogs.body.key, body: { url: `${receiver.url}/scoped`, events: ['database.*', 'user.login_failed'] } });
    expect(both.status).toBe(201);
  });

  it.each([
    ['an unknown event type', { url: 'http://127.0.0.1:1/x', events: ['security.nope'] }, 422, 'unknown_event_type', 'events[0]'],
    ['a pattern matching no type', { url: 'http://127.0.0.1:1/x', events: ['database.query', 'nothing.*'] }, 422, 'unknown_event_type', 'events[1]'],
    ['an unknown field', { url: 'http://127.0.0.1:1/x', events: ['*'], colour: 'red' }, 400, 'validation_failed', 'colour'],
    ['no events', { url: 'http://127.0.0.1:1/x', events: [] }, 400, 'validation_failed', 'events'],
    ['a short secret', { url: 'http://127.0.0.1:1/x', events: ['*'], secret: 'short' }, 400, 'validation_failed', 'secret'],
    ['a URL that is not one', { url: 'not a url', events: ['*'] }, 400, 'validation_failed', 'url'],
    ['a ftp URL', { url: 'ftp://example.com/x', events: ['*'] }, 422, 'webhook_url_not_allowed', 'url'],
  ])('refuses %s', async (_label, body, status, code, field) => {
    const response = await api('POST', '/v1/webhooks', body);
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code, status });
    expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('delivers form A signed over "<timestamp>.<raw body>" and form B signed over the raw body, verified independently', async () => {
    const secretA = 'form-a-delivery-secret-123';
    await subscribe('/sig-a', ['security.*'], secretA);
    const formB = await subscribe('/sig-b', ['user.login_failed']);
    const [threatId, loginId] = await ingest([
      { type: 'security.threat_detected', database_id: 'db_hooks', details: { threat_type: 'sql_injection', source_ip: '198.51.100.7', user: 'eve' } },
      { type: 'user.login_failed', database_id: 'db_hooks', details: { user: 'mallory' } },
    ]);

    const [a] = await waitFor(() => (receiver.on('/sig-a').length ? receiver.on('/sig-a') : undefined), 20_000, 'form A delivery');
    const bodyA = JSON.parse(a!.body);
    expect(Object.keys(bodyA)).toEqual(['id', 'type', 'created', 'data']);
    expect(bodyA).toMatchObject({ id: threatId, type: 'security.threat_detected', data: { database_id: 'db_hooks', severity: 'critical', threat_type: 'sql_injection', source_ip: '198.51.100.7' } });
    expect(a!.headers['content-type']).toBe('application/json');
    const timestamp = String(a!.headers['x-service-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const signatureA = String(a!.headers['x-service-signature']);
    expect(await verify(secretA, `${timestamp}.${a!.body}`, signatureA)).toBe(true);
    expect(await verify(secretA, a!.body, signatureA)).toBe(false);
    expect(await verify('another-secret-entirely', `${timestamp}.${a!.body}`, signatureA)).toBe(false);

    const [b] = await waitFor(() => (receiver.on('/sig-b').length ? receiver.on('/sig-b') : undefined), 20_000, 'form B delivery');
    const bodyB = JSON.parse(b!.body);
    expect(Object.keys(bodyB)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(bodyB).toMatchObject({ id: loginId, type: 'user.login_failed', data: { user: 'mallory', severity: 'warning' } });
    expect(b!.headers['x-service-event']).toBe('user.login_failed');
    expect(String(b!.headers['x-service-delivery-id'])).toMatch(/^wha_/);
    expect(b!.headers['x-service-timestamp']).toMatch(/^\d{10}$/);
    expect(await verify(formB.secret, b!.body, String(b!.headers['x-service-signature']))).toBe(true);
    // Nothing else reached form B: the threat does not match its subscription.
    expect(receiver.on('/sig-b')).toHaveLength(1);
  });

  it('signs both forms per Standard Webhooks: the official verifier accepts real deliveries unchanged, and refuses a replay outside its 5-minute tolerance and a tampered body', async () => {
    const secretA = 'form-a standard webhooks secret, any text: é€';
    // The receiver itself verifies with the official library and answers 401 to anything it refuses.
    const verdicts: string[] = [];
    let secretB = '';
    for (const path of ['/std-a', '/std-b']) {
      receiver.behave(path, (request) => {
        try {
          verifyStandard(path === '/std-a' ? secretA : secretB, request);
          verdicts.push(`${path} ok`);
          return { status: 200 };
        } catch (error) {
          verdicts.push(`${path} ${(error as Error).message}`);
          return { status: 401 };
        }
      });
    }
    const { id: idA } = await subscribe('/std-a', ['database.connection'], secretA);
    const formB = await subscribe('/std-b', ['database.connection']);
    secretB = formB.secret;
    const [eventId] = await ingest([{ type: 'database.connection', database_id: 'db_hooks', details: { user: 'zoë' } }]);

    const [a] = await waitFor(() => (receiver.on('/std-a').length ? receiver.on('/std-a') : undefined), 20_000, 'form A delivery');
    const [b] = await waitFor(() => (receiver.on('/std-b').length ? receiver.on('/std-b') : undefined), 20_000, 'form B delivery');
    expect(verdicts.sort()).toEqual(['/std-a ok', '/std-b ok']);
    const historyA = await waitFor(async () => {
      const response = await api('GET', `/v1/webhooks/${idA}/deliveries`);
      return response.body.data[0]?.status === 'succeeded' ? response.body.data[0] : undefined;
    }, 10_000, 'form A delivery recorded as succeeded');
    expect(historyA.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([200]);

    for (const [request, secret] of [[a!, secretA], [b!, secretB]] as const) {
      expect(JSON.parse(request.body).id).toBe(eventId);
      expect(request.headers['webhook-id']).toMatch(/^whd_/);
      expect(request.headers['webhook-timestamp']).toBe(request.headers['x-service-timestamp']);
      expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      // The X-Service-* scheme is still there, unchanged.
      expect(String(request.headers['x-service-delivery-id'])).toMatch(/^wha_/);
      // Accepted unchanged, with the raw key or with its whsec_ form.
      expect(verifyStandard(secret, request)).toEqual(JSON.parse(request.body));
      expect(new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`).verify(request.body, request.headers as Record<string, string>)).toEqual(JSON.parse(request.body));
      // Tampered body, or another subscription's secret: refused.
      const tampered = request.body.replace('zoë', 'eve');
      expect(tampered).not.toBe(request.body);
      expect(() => verifyStandard(secret, { ...request, body: tampered })).toThrow('No matching signature');
      expect(() => verifyStandard(secret === secretA ? secretB : secretA, request)).toThrow('No matching signature');

      // The captured delivery replayed later, headers and body byte for byte.
      const sentAt = Number(request.headers['webhook-timestamp']) * 1000;
      expect(atTime(sentAt + 290_000, () => verifyStandard(secret, request))).toEqual(JSON.parse(request.body));
      expect(() => atTime(sentAt + 301_000, () => verifyStandard(secret, request))).toThrow(new WebhookVerificationError('Message timestamp too old'));
      // Refreshing the timestamp to get past the check breaks the signature.
      const refreshed = { ...request, headers: { ...request.headers, 'webhook-timestamp': String(Math.floor((sentAt + 301_000) / 1000)) } };
      expect(() => atTime(sentAt + 301_000, () => verifyStandard(secret, refreshed))).toThrow('No matching signature');
    }
    // One message id per subscription: the two deliveries of the same event are two messages.
    expect(a!.headers['webhook-id']).not.toBe(b!.headers['webhook-id']);
    expect(a!.headers['webhook-id']).toBe(historyA.id);
  });

  it('retries a receiver that fails twice: the same event id three times, three different delivery ids, recorded in the history', async () => {
    receiver.behave('/flaky', (_r, n) => ({ status: n <= 2 ? 503 : 200 }));
    const { id } = await subscribe('/flaky', ['data.export']);
    const [eventId] = await ingest([{ type: 'data.export', database_id: 'db_hooks', details: { user: 'bob' } }]);
    const got = await waitFor(() => (receiver.on('/flaky').length >= 3 ? receiver.on('/flaky') : undefined), 30_000, 'three attempts');
    expect(got.map((r) => JSON.parse(r.body).id)).toEqual([eventId, eventId, eventId]);
    expect(new Set(got.map((r) => r.headers['x-service-delivery-id'])).size).toBe(3);
    // Standard Webhooks: one webhook-id for the message, a timestamp and signature per attempt.
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['webhook-signature'])).size).toBe(3);
    // The schedule (0, 1, 1 s) is kept between attempts.
    expect(got[1]!.receivedAt - got[0]!.receivedAt).toBeGreaterThanOrEqual(800);

    const history = await waitFor(async () => {
      const response = await api('GET', `/v1/webhooks/${id}/deliveries`);
      return response.body.data[0]?.status === 'succeeded' ? response.body : undefined;
    }, 10_000, 'delivery recorded as succeeded');
    const [delivery] = history.data;
    expect(delivery).toMatchObject({ event_id: eventId, event_type: 'data.export', attempt_count: 3, max_attempts: 3, last_status_code: 200, next_attempt_at: null });
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([503, 503, 200]);
    expect(delivery.attempts.map((a: { delivery_attempt_id: string }) => a.delivery_attempt_id)).toEqual(got.map((r) => r.headers['x-service-delivery-id']));
    expect(got[0]!.headers['webhook-id']).toBe(delivery.id);
    expect(delivery.attempts.every((a: { latency_ms: number }) => Number.isInteger(a.latency_ms))).toBe(true);
    const one = await api('GET', `/v1/webhooks/${id}/deliveries/${delivery.id}`);
    expect(one.body.id).toBe(delivery.id);
  }, 60_000);

  it('counts an answer after 30 s as a failure and retries', async () => {
    receiver.behave('/slow', (_r, n) => (n === 1 ? { status: 200, delayMs: 31_000 } : { status: 200 }));
    const { id } = await subscribe('/slow', ['database.disconnect']);
    await ingest([{ type: 'database.disconnect', database_id: 'db_hooks' }]);
    const history = await waitFor(async () => {
      const response = await api('GET', `/v1/webhooks/${id}/deliveries`);
      return response.body.data[0]?.status === 'succeeded' ? response.body : undefined;
    }, 50_000, 'second attempt succeeded');
    const [first, second] = history.data[0].attempts;
    expect(first).toMatchObject({ success: false, status_code: null, error: expect.stringContaining('30000 ms') });
    expect(first.latency_ms).toBeGreaterThanOrEqual(29_900);
    expect(second).toMatchObject({ success: true, status_code: 200 });
  }, 70_000);

  it('sends a test delivery with test: true to that subscription only', async () => {
    const { id, secret } = await subscribe('/test-delivery', ['database.query']);
    const response = await api('POST', `/v1/webhooks/${id}/test`, { event_type: 'alert.created' });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ delivery_id: expect.stringMatching(/^whd_/), event_id: expect.stringMatching(/^evt_/), event_type: 'alert.created' });
    const [got] = await waitFor(() => (receiver.on('/test-delivery').length ? receiver.on('/test-delivery') : undefined), 20_000, 'test delivery');
    expect(JSON.parse(got!.body)).toMatchObject({ id: response.body.event_id, type: 'alert.created', test: true, data: { alert_id: expect.any(String) } });
    expect(await verify(secret, got!.body, String(got!.headers['x-service-signature']))).toBe(true);
    expect((await api('POST', `/v1/webhooks/${id}/test`, { event_type: 'nope.nope' })).status).toBe(422);
  });

  it('marks a delivery failed after the last attempt, flags the endpoint and holds new deliveries, then replays everything once fixed', async () => {
    receiver.behave('/down', () => ({ status: 500 }));
    const { id } = await subscribe('/down', ['user.login_success']);
    const [first] = await ingest([{ type: 'user.login_success', database_id: 'db_hooks', details: { user: 'carol' } }]);
    await waitFor(async () => (await api('GET', `/v1/webhooks/${id}`)).body.status === 'failing', 30_000, 'endpoint flagged');
    const failed = (await api('GET', `/v1/webhooks/${id}/deliveries?status=failed`)).body.data;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ event_id: first, status: 'failed', attempt_count: 3, last_status_code: 500 });
    expect(receiver.on('/down')).toHaveLength(3);

    // While failing, new events are recorded but held, not sent.
    const [second] = await ingest([{ type: 'user.login_success', database_id: 'db_hooks', details: { user: 'dave' } }]);
    await waitFor(async () => (await api('GET', `/v1/webhooks/${id}/deliveries?status=held`)).body.data.length === 1, 10_000, 'held delivery');
    expect(receiver.on('/down')).toHaveLength(3);

    // The receiver is fixed; one replay call sends what it missed (failed and held).
    receiver.behave('/down', () => ({ status: 204 }));
    const replay = await api('POST', `/v1/webhooks/${id}/redeliver`, {});
    expect(replay.status).toBe(202);
    expect(replay.body.redelivered).toBe(2);
    const ids = await waitFor(() => {
      const seen = receiver.on('/down').slice(3).map((r) => JSON.parse(r.body).id);
      return seen.length >= 2 ? seen : undefined;
    }, 20_000, 'replayed deliveries');
    expect(ids.sort()).toEqual([first, second].sort());
    await waitFor(async () => (await api('GET', `/v1/webhooks/${id}`)).body.status === 'active', 10_000, 'flag cleared by the success');

    // Single redelivery of a succeeded delivery: same event id, a new delivery id.
    const delivered = (await api('GET', `/v1/webhooks/${id}/deliveries?status=succeeded`)).body.data[0];
    const again = await api('POST', `/v1/webhooks/${id}/deliveries/${delivered.id}/redeliver`);
    expect(again.status).toBe(202);
    const last = await waitFor(() => (receiver.on('/down').length >= 6 ? receiver.on('/down')[5] : undefined), 20_000, 'redelivery');
    expect(JSON.parse(last!.body).id).toBe(delivered.event_id);
    expect((await api('POST', `/v1/webhooks/${id}/deliveries/whd_nope/redeliver`)).status).toBe(404);
  }, 60_000);
});
