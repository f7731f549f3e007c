import { createHash, randomBytes } from 'node:crypto';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { apiKey, gatewayRoutes } from './testing/access';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Every administrative action is a vigil.* event (docs/events.md#administrative-actions): the
 * route walk, logins, refresh-token reuse, redaction, the events API and the compliance report.
 */
describe('administrative actions are audited', () => {
  let system: TestSystem;
  let base: string;
  let admin: string;
  let adminId: string;
  let receiver: WebhookReceiver;
  let walkCount = 0;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { DELIVERY_ALLOW_INSECURE_TARGETS: 'true' } });
    base = system.gatewayUrl;
    receiver = await startWebhookReceiver();
    admin = await login(base, 'admin@example.com', system.adminPassword);
    adminId = JSON.parse(Buffer.from(admin.split('.')[1]!, 'base64url').toString()).sub;
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  interface StoredVigil {
    id: string;
    type: string;
    database_id: string;
    details: { actor: { kind: string; id: string | null }; source_ip: string | null; user_agent: string | null; correlation_id: string | null; changes: unknown; subject?: string };
    ingested_by: { kind: string; id: string } | null;
    correlation_id: string | null;
  }

  /** The vigil.* events stored for one request (by its correlation id), once the outbox has delivered them. */
  async function auditedAs(correlationId: string, settleMs = 400): Promise<StoredVigil[]> {
    const read = () =>
      system.db.query<StoredVigil>(
        `SELECT id, type, database_id, details, ingested_by, correlation_id FROM event_ingest.events WHERE type LIKE 'vigil.%' AND correlation_id = $1`,
        [correlationId],
      );
    await waitFor(async () => (await read()).length > 0, 10_000, `a vigil.* event for ${correlationId}`).catch(() => undefined);
    // Give a second (wrong) event the time to arrive too, so "exactly one" means it.
    await new Promise((r) => setTimeout(r, settleMs));
    return read();
  }

  const api = (method: string, path: string, body?: unknown, token = admin) => http(base, method, path, { token, body });
  const unique = () => `${Date.now()}-${randomBytes(3).toString('hex')}`;

  async function createPolicy(enabled = false) {
    const created = await api('POST', '/v1/policies', { name: `walk ${unique()}`, type: 'query_control', databases: ['*'], enabled, config: { rules: [{ name: 'r', pattern: 'DROP', action: 'log' }] } });
    if (created.status !== 201) throw new Error(`policy: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.id as string;
  }
  async function createWebhook() {
    const created = await api('POST', '/v1/webhooks', { url: `${receiver.url}/walk`, events: ['database.query'] });
    if (created.status !== 201) throw new Error(`webhook: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.id as string;
  }
  async function createDestination() {
    const created = await api('POST', '/v1/alert-destinations', { name: `walk ${unique()}`, url: `${receiver.url}/alerts` });
    if (created.status !== 201) throw new Error(`destination: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body.id as string;
  }
  async function openAlert() {
    const db = `db_walk_${unique().replace(/-/g, '_')}`;
    const ingested = await api('POST', '/v1/events/ingest', { events: [{ type: 'security.anomaly', database_id: db, details: { user: 'mallory', threat_type: 'walk' } }] });
    if (ingested.status !== 202) throw new Error(`ingest: ${ingested.status}`);
    return waitFor(async () => (await api('GET', `/v1/alerts?database_id=${db}`)).body.data[0]?.id as string | undefined, 15_000, 'an alert');
  }
  async function createDatabase() {
    const created = await api('POST', '/v1/databases', { name: `walk ${unique()}`, type: 'postgresql' });
    if (created.status !== 201) throw new Error(`database: ${created.status}`);
    return created.body.id as string;
  }
  const period = () => ({ period_start: new Date(Date.now() - 86_400_000).toISOString(), period_end: new Date().toISOString() });
  async function createReport() {
    const created = await api('POST', '/v1/reports', { type: 'sox', ...period(), formats: ['json'] });
    if (created.status !== 202) throw new Error(`report: ${created.status}`);
    return created.body.id as string;
  }
  async function createSchedule() {
    const created = await api('POST', '/v1/report-schedules', { name: `walk ${unique()}`, type: 'pci_dss', cron: '0 6 * * *' });
    if (created.status !== 201) throw new Error(`schedule: ${created.status}`);
    return created.body.id as string;
  }
  async function oauthClient(grants: string[]) {
    const created = await api('POST', '/v1/oauth/clients', { name: `walk ${unique()}`, redirect_uris: ['http://127.0.0.1:8765/cb'], grant_types: grants, scopes: ['read:logs'] });
    if (created.status !== 201) throw new Error(`client: ${created.status} ${JSON.stringify(created.body)}`);
    return created.body as { client_id: string; client_secret: string };
  }
  /** A user other than the administrator, with its password and a login token of its own. */
  async function createUser() {
    const password = `walk-password-${randomBytes(8).toString('hex')}`;
    const email = `walk-${unique()}@example.com`;
    const created = await api('POST', '/v1/users', { email, password, scopes: ['read:logs'] });
    return { id: created.body.id as string, email, password };
  }
  const form = (fields: Record<string, string>) => ({ raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  /** The login-and-consent form of an authorization request, filled in with `password`. */
  async function consentForm(password: string) {
    const client = await oauthClient(['authorization_code']);
    const challenge = createHash('sha256').update('v'.repeat(50)).digest('base64url');
    const url = `${base}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: 'http://127.0.0.1:8765/cb', response_type: 'code', scope: 'read:logs', code_challenge: challenge, code_challenge_method: 'S256' })}`;
    const page = await fetch(url, { redirect: 'manual' });
    const html = await page.text();
    const fields = {
      request_id: /name="request_id" value="([^"]+)"/.exec(html)![1]!,
      csrf_token: /name="csrf_token" value="([^"]+)"/.exec(html)![1]!,
      email: 'admin@example.com',
      password,
      decision: 'approve',
    };
    const f = form(fields);
    return { raw: f.raw, headers: { ...f.headers, cookie: page.headers.get('set-cookie')!.split(';')[0]! } };
  }

  /** One successful call of a route: what to send, and the vigil.* event it must produce. */
  interface Call {
    path: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    token?: string | null;
    type: string;
    actor: { kind: string; id: string };
    /** A form post answered with a redirect (to the client's URI): not followed. */
    redirect?: 'manual';
  }
  const asAdmin = () => ({ kind: 'user', id: adminId });

  /**
   * How to call each mutating route successfully (fixtures are made beforehand, under other
   * correlation ids). A new POST/PUT/PATCH/DELETE route needs an entry here AND a vigil.* event
   * recorded by the owning service in the transaction of its change (AuditTrail.record, see
   * docs/events.md#administrative-actions), or an entry in EXEMPT if it changes nothing.
   */
  const CALLS: Record<string, () => Promise<Call>> = {
    'POST /v1/auth/login': async () => ({ path: '/v1/auth/login', token: null, body: { email: 'admin@example.com', password: system.adminPassword }, type: 'vigil.session.login_succeeded', actor: asAdmin() }),
    'POST /v1/auth/refresh': async () => {
      const tokens = (await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword } })).body;
      return { path: '/v1/auth/refresh', token: null, body: { refresh_token: tokens.refresh_token }, type: 'vigil.session.refreshed', actor: asAdmin() };
    },
    'POST /v1/users': async () => ({ path: '/v1/users', body: { email: `walk-${unique()}@example.com`, password: 'a-long-enough-password', scopes: ['read:logs'] }, type: 'vigil.user.created', actor: asAdmin() }),
    'PATCH /v1/users/:user_id': async () => ({ path: `/v1/users/${(await createUser()).id}`, body: { scopes: ['read:logs', 'read:alerts'] }, type: 'vigil.user.updated', actor: asAdmin() }),
    'DELETE /v1/users/:user_id': async () => ({ path: `/v1/users/${(await createUser()).id}`, type: 'vigil.user.deleted', actor: asAdmin() }),
    'POST /v1/users/:user_id/password': async () => ({ path: `/v1/users/${(await createUser()).id}/password`, body: { password: `reset-password-${randomBytes(8).toString('hex')}` }, type: 'vigil.user.password_reset', actor: asAdmin() }),
    'DELETE /v1/users/:user_id/sessions': async () => ({ path: `/v1/users/${(await createUser()).id}/sessions`, type: 'vigil.session.revoked', actor: asAdmin() }),
    'POST /v1/auth/password': async () => {
      // A user changes their own password: the actor is that user, with a login of their own.
      const user = await createUser();
      const token = (await http(base, 'POST', '/v1/auth/login', { body: { email: user.email, password: user.password } })).body.access_token as string;
      return { path: '/v1/auth/password', token, body: { current_password: user.password, new_password: `changed-password-${randomBytes(8).toString('hex')}` }, type: 'vigil.user.password_changed', actor: { kind: 'user', id: user.id } };
    },
    'POST /v1/auth/logout': async () => {
      // A session of its own: logging out must not end the session the walk uses.
      const token = (await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword } })).body.access_token as string;
      return { path: '/v1/auth/logout', token, type: 'vigil.session.logged_out', actor: asAdmin() };
    },
    'POST /v1/auth/signing-keys/rotate': async () => ({ path: '/v1/auth/signing-keys/rotate', type: 'vigil.signing_key.rotated', actor: asAdmin() }),
    'POST /v1/api-keys/:key_id/rotate': async () => ({ path: `/v1/api-keys/${(await apiKey(base, admin, ['read:logs'])).id}/rotate`, body: {}, type: 'vigil.api_key.rotated', actor: asAdmin() }),
    'POST /v1/oauth/clients/:client_id/secret': async () => ({ path: `/v1/oauth/clients/${(await oauthClient(['client_credentials'])).client_id}/secret`, body: {}, type: 'vigil.oauth_client.secret_rotated', actor: asAdmin() }),
    'DELETE /v1/oauth/clients/:client_id': async () => ({ path: `/v1/oauth/clients/${(await oauthClient(['client_credentials'])).client_id}`, type: 'vigil.oauth_client.deleted', actor: asAdmin() }),
    'POST /v1/integrity/keys/rotate': async () => ({ path: '/v1/integrity/keys/rotate', type: 'vigil.integrity_key.rotated', actor: asAdmin() }),
    'POST /v1/api-keys': async () => ({ path: '/v1/api-keys', body: { name: 'walk', scopes: ['read:logs'] }, type: 'vigil.api_key.created', actor: asAdmin() }),
    'DELETE /v1/api-keys/:key_id': async () => {
      // Done with an API key as the actor: the recorded actor is the key, not a user.
      const actorKey = await apiKey(base, admin, ['admin']);
      const { id } = await apiKey(base, admin, ['read:logs']);
      return { path: `/v1/api-keys/${id}`, token: actorKey.key, type: 'vigil.api_key.revoked', actor: { kind: 'api_key', id: actorKey.id } };
    },
    'POST /v1/oauth/clients': async () => ({ path: '/v1/oauth/clients', body: { name: `walk ${unique()}`, redirect_uris: [], grant_types: ['client_credentials'], scopes: ['read:logs'] }, type: 'vigil.oauth_client.created', actor: asAdmin() }),
    'POST /oauth/authorize': async () => {
      const consent = await consentForm(system.adminPassword);
      return { path: '/oauth/authorize', token: null, ...consent, type: 'vigil.oauth.authorized', actor: asAdmin(), redirect: 'manual' };
    },
    'POST /oauth/token': async () => {
      const client = await oauthClient(['client_credentials']);
      const f = form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
      return { path: '/oauth/token', token: null, ...f, type: 'vigil.oauth.token_issued', actor: { kind: 'oauth_client', id: client.client_id } };
    },
    'POST /oauth/revoke': async () => {
      const client = await oauthClient(['client_credentials']);
      const issued = await http(base, 'POST', '/oauth/token', form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }));
      const f = form({ token: issued.body.access_token, client_id: client.client_id, client_secret: client.client_secret });
      return { path: '/oauth/revoke', token: null, ...f, type: 'vigil.token.revoked', actor: { kind: 'oauth_client', id: client.client_id } };
    },
    'POST /v1/policies': async () => ({ path: '/v1/policies', body: { name: `walk ${unique()}`, type: 'query_control', databases: ['*'], config: { rules: [{ name: 'r', pattern: 'DROP', action: 'log' }] } }, type: 'vigil.policy.created', actor: asAdmin() }),
    'PUT /v1/policies/:policy_id': async () => ({ path: `/v1/policies/${await createPolicy()}`, body: { description: 'changed' }, type: 'vigil.policy.updated', actor: asAdmin() }),
    'DELETE /v1/policies/:policy_id': async () => ({ path: `/v1/policies/${await createPolicy()}`, type: 'vigil.policy.deleted', actor: asAdmin() }),
    'POST /v1/policies/:policy_id/enable': async () => ({ path: `/v1/policies/${await createPolicy(false)}/enable`, type: 'vigil.policy.enabled', actor: asAdmin() }),
    'POST /v1/policies/:policy_id/disable': async () => ({ path: `/v1/policies/${await createPolicy(true)}/disable`, type: 'vigil.policy.disabled', actor: asAdmin() }),
    'POST /v1/webhooks': async () => ({ path: '/v1/webhooks', body: { url: `${receiver.url}/walk`, events: ['vigil.*'] }, type: 'vigil.webhook.created', actor: asAdmin() }),
    'PATCH /v1/webhooks/:webhook_id': async () => ({ path: `/v1/webhooks/${await createWebhook()}`, body: { description: 'changed' }, type: 'vigil.webhook.updated', actor: asAdmin() }),
    'DELETE /v1/webhooks/:webhook_id': async () => ({ path: `/v1/webhooks/${await createWebhook()}`, type: 'vigil.webhook.deleted', actor: asAdmin() }),
    'POST /v1/webhooks/:webhook_id/test': async () => ({ path: `/v1/webhooks/${await createWebhook()}/test`, body: { event_type: 'database.query' }, type: 'vigil.webhook.tested', actor: asAdmin() }),
    'POST /v1/webhooks/:webhook_id/deliveries/:delivery_id/redeliver': async () => {
      const id = await createWebhook();
      const test = await api('POST', `/v1/webhooks/${id}/test`, { event_type: 'database.query' });
      return { path: `/v1/webhooks/${id}/deliveries/${test.body.delivery_id}/redeliver`, type: 'vigil.webhook.redelivered', actor: asAdmin() };
    },
    'POST /v1/webhooks/:webhook_id/redeliver': async () => ({ path: `/v1/webhooks/${await createWebhook()}/redeliver`, body: {}, type: 'vigil.webhook.redelivered', actor: asAdmin() }),
    'POST /v1/alert-destinations': async () => ({ path: '/v1/alert-destinations', body: { name: `walk ${unique()}`, url: `${receiver.url}/alerts` }, type: 'vigil.alert_destination.created', actor: asAdmin() }),
    'PUT /v1/alert-destinations/:destination_id': async () => ({ path: `/v1/alert-destinations/${await createDestination()}`, body: { name: `walk ${unique()}`, url: `${receiver.url}/alerts2` }, type: 'vigil.alert_destination.updated', actor: asAdmin() }),
    'PATCH /v1/alert-destinations/:destination_id': async () => ({ path: `/v1/alert-destinations/${await createDestination()}`, body: { enabled: false }, type: 'vigil.alert_destination.updated', actor: asAdmin() }),
    'DELETE /v1/alert-destinations/:destination_id': async () => ({ path: `/v1/alert-destinations/${await createDestination()}`, type: 'vigil.alert_destination.deleted', actor: asAdmin() }),
    'POST /v1/alerts/test': async () => ({ path: '/v1/alerts/test', body: { destination_id: await createDestination() }, type: 'vigil.alert.tested', actor: asAdmin() }),
    'POST /v1/alerts/:alert_id/acknowledge': async () => ({ path: `/v1/alerts/${await openAlert()}/acknowledge`, type: 'vigil.alert.acknowledged', actor: asAdmin() }),
    'POST /v1/alerts/:alert_id/resolve': async () => ({ path: `/v1/alerts/${await openAlert()}/resolve`, type: 'vigil.alert.resolved', actor: asAdmin() }),
    'POST /v1/alerts/:alert_id/escalate': async () => ({ path: `/v1/alerts/${await openAlert()}/escalate`, body: {}, type: 'vigil.alert.escalated', actor: asAdmin() }),
    'POST /v1/databases': async () => ({ path: '/v1/databases', body: { name: `walk ${unique()}`, type: 'postgresql' }, type: 'vigil.database.registered', actor: asAdmin() }),
    'PATCH /v1/databases/:database_id': async () => ({ path: `/v1/databases/${await createDatabase()}`, body: { description: 'changed' }, type: 'vigil.database.updated', actor: asAdmin() }),
    'DELETE /v1/databases/:database_id': async () => ({ path: `/v1/databases/${await createDatabase()}`, type: 'vigil.database.deleted', actor: asAdmin() }),
    'POST /v1/reports': async () => ({ path: '/v1/reports', body: { type: 'sox', ...period(), formats: ['json'] }, type: 'vigil.report.requested', actor: asAdmin() }),
    'DELETE /v1/reports/:report_id': async () => ({ path: `/v1/reports/${await createReport()}`, type: 'vigil.report.deleted', actor: asAdmin() }),
    'POST /v1/report-schedules': async () => ({ path: '/v1/report-schedules', body: { name: `walk ${unique()}`, type: 'pci_dss', cron: '0 6 * * *' }, type: 'vigil.report_schedule.created', actor: asAdmin() }),
    'PATCH /v1/report-schedules/:schedule_id': async () => ({ path: `/v1/report-schedules/${await createSchedule()}`, body: { enabled: false }, type: 'vigil.report_schedule.updated', actor: asAdmin() }),
    'DELETE /v1/report-schedules/:schedule_id': async () => ({ path: `/v1/report-schedules/${await createSchedule()}`, type: 'vigil.report_schedule.deleted', actor: asAdmin() }),
  };

  /** Mutating routes that change no administrative state, each with the reason. Nothing else belongs here. */
  const EXEMPT: Record<string, string> = {
    // Stores the producers' own audit records (attributed by ingested_by); auditing it would double the log.
    'POST /v1/events/ingest': 'stores audit records themselves',
    // Read-only queries sent as POST because their filters do not fit a URL.
    'POST /v1/events/aggregate': 'read-only query',
    'POST /v1/events/search': 'read-only query',
    // A simulation: nothing is stored, blocked or sent.
    'POST /v1/policies/:policy_id/test': 'read-only simulation',
    // Reads the log and stores only its own progress; an event of its own would grow the log it checks.
    'POST /v1/integrity/verifications': 'read-only check of the event log',
  };

  it('walks every mutating route of the real router: each produces exactly one vigil.* event with the right actor', async () => {
    const routes = gatewayRoutes(system).filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const { method, path } of routes) {
      const label = `${method} ${path}`;
      if (EXEMPT[label]) continue;
      const recipe = CALLS[label];
      if (!recipe) {
        failures.push(
          `${label}: no audit event is checked for this route. Record a vigil.<resource>.<action> event in the owning service ` +
            `(AuditTrail.record in the transaction of the change; add the type to libs/contracts/src/events/admin-audit.ts and docs/events.md), ` +
            `then add '${label}' to CALLS in apps/standalone/src/admin-audit.int-spec.ts; or, if the route changes nothing, to EXEMPT with the reason.`,
        );
        continue;
      }
      const call = await recipe();
      const correlationId = `walk-${++walkCount}-${unique()}`;
      const headers = { ...call.headers, 'x-correlation-id': correlationId, 'user-agent': 'audit-walk/1.0' };
      const response = call.redirect
        ? await fetch(`${base}${call.path}`, { method, redirect: 'manual', headers, body: call.raw }).then(async (r) => ({ status: r.status, body: await r.text() }))
        : await http(base, method, call.path, { token: call.token === null ? undefined : (call.token ?? admin), body: call.body, raw: call.raw, headers });
      if (response.status >= 400) {
        failures.push(`${label}: the call in CALLS failed with ${response.status} ${JSON.stringify(response.body)?.slice(0, 200)}`);
        continue;
      }
      const events = await auditedAs(correlationId, 150);
      if (events.length !== 1) {
        failures.push(`${label}: ${events.length} vigil.* events (${events.map((e) => e.type).join(', ')}), expected exactly one ${call.type}`);
        continue;
      }
      const [event] = events;
      const problems: string[] = [];
      if (event!.type !== call.type) problems.push(`type ${event!.type}, expected ${call.type}`);
      if (event!.details.actor.kind !== call.actor.kind || event!.details.actor.id !== call.actor.id) {
        problems.push(`actor ${JSON.stringify(event!.details.actor)}, expected ${JSON.stringify(call.actor)}`);
      }
      if (event!.details.user_agent !== 'audit-walk/1.0') problems.push(`user_agent ${event!.details.user_agent}`);
      if (!event!.details.source_ip) problems.push('no source_ip');
      if (event!.details.correlation_id !== correlationId) problems.push(`correlation_id ${event!.details.correlation_id}`);
      if (event!.ingested_by?.kind !== 'system' || event!.database_id !== 'vigil') problems.push(`ingested_by ${JSON.stringify(event!.ingested_by)} database_id ${event!.database_id}`);
      if (problems.length) failures.push(`${label}: ${problems.join('; ')}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('records a failed login (unknown user and wrong password) and no event for a refused change', async () => {
    const correlationId = `login-fail-${unique()}`;
    const failed = await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'wrong-password' }, headers: { 'x-correlation-id': correlationId } });
    expect(failed.status).toBe(401);
    const [event] = await auditedAs(correlationId);
    expect(event).toMatchObject({ type: 'vigil.session.login_failed', details: { actor: { kind: 'anonymous', id: null }, subject: 'admin@example.com', reason: 'wrong_password' } });
    expect(JSON.stringify(event)).not.toContain('wrong-password');

    // The OAuth consent form is a login too.
    const consentId = `consent-fail-${unique()}`;
    const consent = await consentForm('wrong-consent-password');
    const retry = await fetch(`${base}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { ...consent.headers, 'x-correlation-id': consentId }, body: consent.raw });
    expect(retry.status).toBe(401);
    const [consentEvent] = await auditedAs(consentId);
    expect(consentEvent).toMatchObject({ type: 'vigil.session.login_failed', details: { subject: 'admin@example.com', reason: 'wrong_password' } });
    expect(JSON.stringify(consentEvent)).not.toContain('wrong-consent-password');

    const unknownId = `login-unknown-${unique()}`;
    await http(base, 'POST', '/v1/auth/login', { body: { email: 'nobody@example.com', password: 'whatever-it-is' }, headers: { 'x-correlation-id': unknownId } });
    expect(await auditedAs(unknownId)).toMatchObject([{ type: 'vigil.session.login_failed', details: { reason: 'unknown_user', target: { type: 'user', id: null } } }]);

    // A change that fails (409: the name is taken) commits nothing and records nothing.
    const name = `dup ${unique()}`;
    await api('POST', '/v1/policies', { name, type: 'query_control', databases: ['*'], config: { rules: [{ name: 'r', pattern: 'x', action: 'log' }] } });
    const refusedId = `refused-${unique()}`;
    const refused = await http(base, 'POST', '/v1/policies', {
      token: admin,
      body: { name, type: 'query_control', databases: ['*'], config: { rules: [{ name: 'r', pattern: 'x', action: 'log' }] } },
      headers: { 'x-correlation-id': refusedId },
    });
    expect(refused.status).toBe(409);
    expect(await auditedAs(refusedId, 800)).toEqual([]);
  }, 60_000);

  it('records refresh-token reuse as critical, attributed to the session owner, and revokes the session', async () => {
    const first = (await http(base, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: system.adminPassword } })).body;
    expect((await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: first.refresh_token } })).status).toBe(200);
    const correlationId = `reuse-${unique()}`;
    const reused = await http(base, 'POST', '/v1/auth/refresh', { body: { refresh_token: first.refresh_token }, headers: { 'x-correlation-id': correlationId } });
    expect(reused.status).toBe(401);
    const [event] = await auditedAs(correlationId);
    expect(event).toMatchObject({ type: 'vigil.session.refresh_reused', details: { actor: { kind: 'user', id: adminId }, target: { type: 'session' }, reason: 'refresh_token_reused' } });
    const [{ severity }] = await system.db.query<{ severity: string }>(`SELECT severity FROM event_ingest.events WHERE id = $1`, [event!.id]);
    expect(severity).toBe('critical');
    expect(JSON.stringify(event)).not.toContain(first.refresh_token);
  }, 60_000);

  it('names the retired and the new key of a signing key rotation (tokens and checkpoints)', async () => {
    // A fresh token is signed by the current key (the route walk rotated the one of beforeAll's).
    admin = await login(base, 'admin@example.com', system.adminPassword);
    const kidBefore = JSON.parse(Buffer.from(admin.split('.')[0]!, 'base64url').toString()).kid as string;
    const tokenRotation = `rotate-tokens-${unique()}`;
    const rotated = await http(base, 'POST', '/v1/auth/signing-keys/rotate', { token: admin, headers: { 'x-correlation-id': tokenRotation } });
    expect(rotated.status).toBeLessThan(300);
    const [tokenEvent] = await auditedAs(tokenRotation, 0);
    expect(tokenEvent!.details.changes).toEqual({ before: { kid: kidBefore }, after: { kid: expect.any(String) } });
    expect((tokenEvent!.details.changes as { after: { kid: string } }).after.kid).not.toBe(kidBefore);
    admin = await login(base, 'admin@example.com', system.adminPassword);

    const active = ((await api('GET', '/v1/integrity/keys')).body.data as { key_id: string; status: string }[]).find((k) => k.status === 'active')!;
    const keyRotation = `rotate-checkpoints-${unique()}`;
    const created = await http(base, 'POST', '/v1/integrity/keys/rotate', { token: admin, headers: { 'x-correlation-id': keyRotation } });
    expect(created.status).toBe(201);
    const [keyEvent] = await auditedAs(keyRotation, 0);
    expect(keyEvent!.details.changes).toEqual({ before: { key_id: active.key_id }, after: { key_id: created.body.key_id } });
  }, 60_000);

  it('never records a secret, hash or token: API key values, webhook secrets, OAuth client secrets, passwords', async () => {
    const keyId = `secret-key-${unique()}`;
    const key = await http(base, 'POST', '/v1/api-keys', { token: admin, body: { name: 'secret check', scopes: ['read:logs'] }, headers: { 'x-correlation-id': keyId } });
    const webhookId = `secret-hook-${unique()}`;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const hook = await http(base, 'POST', '/v1/webhooks', { token: admin, body: { url: `${receiver.url}/s`, events: ['database.query'], secret }, headers: { 'x-correlation-id': webhookId } });
    expect(hook.status).toBe(201);
    const clientId = `secret-client-${unique()}`;
    const client = await http(base, 'POST', '/v1/oauth/clients', { token: admin, body: { name: 'secret', redirect_uris: [], grant_types: ['client_credentials'], scopes: ['read:logs'] }, headers: { 'x-correlation-id': clientId } });
    const userId = `secret-user-${unique()}`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    await http(base, 'POST', '/v1/users', { token: admin, body: { email: `s-${unique()}@example.com`, password, scopes: [] }, headers: { 'x-correlation-id': userId } });

    const checks: [string, string[]][] = [
      [keyId, [key.body.key, createHash('sha256').update(key.body.key).digest('hex')]],
      [webhookId, [secret]],
      [clientId, [client.body.client_secret, createHash('sha256').update(client.body.client_secret).digest('hex')]],
      [userId, [password]],
    ];
    for (const [correlationId, secrets] of checks) {
      const events = await auditedAs(correlationId);
      expect(events).toHaveLength(1);
      // The whole stored row, every column, as text.
      const [row] = await system.db.query<{ row: string }>(`SELECT to_jsonb(e)::text AS row FROM event_ingest.events e WHERE id = $1`, [events[0]!.id]);
      for (const value of secrets) expect(row!.row).not.toContain(value);
    }
    const [keyEvent] = await auditedAs(keyId, 0);
    expect(keyEvent!.details.changes).toEqual({ before: null, after: { name: 'secret check', prefix: key.body.prefix, scopes: ['read:logs'], expires_at: null } });
  }, 60_000);

  it('serves vigil.* events through GET /v1/events?type=vigil.* with ingested_by, and to webhooks subscribed to them', async () => {
    const hook = await api('POST', '/v1/webhooks', { url: `${receiver.url}/vigil-hook`, events: ['vigil.*'] });
    expect(hook.status).toBe(201);
    const correlationId = `query-${unique()}`;
    const created = await http(base, 'POST', '/v1/databases', { token: admin, body: { name: `query ${unique()}`, type: 'mysql' }, headers: { 'x-correlation-id': correlationId } });
    expect(created.status).toBe(201);
    const [stored] = await auditedAs(correlationId, 0);
    const listed = await waitFor(async () => {
      const page = await api('GET', '/v1/events?type=vigil.*&limit=1000');
      if (page.status !== 200) throw new Error(`GET /v1/events: ${page.status} ${JSON.stringify(page.body)}`);
      return (page.body.events as { id: string; type: string }[]).find((e) => e.id === stored!.id);
    }, 10_000, 'listed');
    expect(listed).toMatchObject({ type: 'vigil.database.registered', database_id: 'vigil' });
    const one = await api('GET', `/v1/events/${stored!.id}`);
    expect(one.body).toMatchObject({
      type: 'vigil.database.registered',
      ingested_by: { kind: 'system', id: 'event-ingest' },
      details: { actor: { kind: 'user', id: adminId }, target: { type: 'database', id: created.body.id }, changes: { before: null, after: { name: created.body.name, type: 'mysql' } } },
    });
    const delivered = await waitFor(() => receiver.on('/vigil-hook').find((r) => r.body.includes(stored!.id)), 15_000, 'delivered to the webhook');
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'vigil.database.registered' });
  }, 60_000);

  it('a webhook subscribing to vigil.* needs read:logs', async () => {
    const writer = await apiKey(base, admin, ['write:alerts']);
    const refused = await api('POST', '/v1/webhooks', { url: `${receiver.url}/x`, events: ['vigil.*'] }, writer.key);
    expect(refused.status).toBe(403);
  });

  it('records ingested_by for events posted to /v1/events/ingest: the API key that sent them', async () => {
    const producer = await apiKey(base, admin, ['write:events']);
    const ingested = await api('POST', '/v1/events/ingest', { events: [{ type: 'database.query', database_id: 'db_attrib', details: { query: 'SELECT 1' } }] }, producer.key);
    expect(ingested.status).toBe(202);
    const event = await api('GET', `/v1/events/${ingested.body.ids[0]}`);
    expect(event.body.ingested_by).toEqual({ kind: 'api_key', id: producer.id });
  });

  it('refuses reserved types from producers with 400 naming events[i].type, and stores nothing of the request', async () => {
    const db = `db_reserved_${unique().replace(/-/g, '_')}`;
    for (const type of ['policy.violation', 'policy.match', 'vigil.policy.created', 'audit.checkpoint']) {
      const response = await api('POST', '/v1/events/ingest', {
        events: [
          { type: 'database.query', database_id: db, details: { query: 'SELECT 1' } },
          { type, database_id: db, details: {} },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'events[1].type', message: expect.stringContaining(`"${type}" is reserved to Vigil`) }]);
    }
    const [{ n }] = await system.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE database_id = $1`, [db]);
    expect(n).toBe(0);
  });

  it('includes the administrative actions in the compliance report (PCI DSS 10.2.1.2)', async () => {
    const correlationId = `report-${unique()}`;
    const created = await http(base, 'POST', '/v1/policies', {
      token: admin,
      body: { name: `reported ${unique()}`, type: 'query_control', databases: ['*'], config: { rules: [{ name: 'r', pattern: 'x', action: 'log' }] } },
      headers: { 'x-correlation-id': correlationId },
    });
    expect(created.status).toBe(201);
    const [stored] = await auditedAs(correlationId, 0);
    const requested = await api('POST', '/v1/reports', { type: 'pci_dss', period_start: new Date(Date.now() - 3_600_000).toISOString(), period_end: new Date(Date.now() + 60_000).toISOString(), formats: ['json'] });
    expect(requested.status).toBe(202);
    const report = await waitFor(async () => {
      const r = await api('GET', `/v1/reports/${requested.body.id}`);
      return r.body.status === 'completed' ? r.body : undefined;
    }, 60_000, 'report completed');
    const document = (await api('GET', `/v1/reports/${report.id}/download?format=json`)).body as { sections: { id: string; controls: string[] }[] };
    const section = document.sections.find((s) => s.id === 'administrative_actions')!;
    expect(section).toBeDefined();
    expect(section.controls).toContain('PCI DSS 10.2.1.2');
    expect(JSON.stringify(section)).toContain(stored!.id);
    expect(JSON.stringify(section)).toContain('vigil.policy.created');
  }, 90_000);
});
