import { login } from './testing/http';
import { casesFor, type HostileCase, type HostileOperation, operationsOf, sampleOf, seededRandom } from './testing/hostile-input';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Fuzzing every operation of the OpenAPI document the gateway serves, so a new route is fuzzed
 * without anyone adding it here: hostile path segments, query values and bodies (wrong types,
 * NUL, lone surrogates, invalid UTF-8, sizes past the limits, deep nesting, malformed JSON), with
 * an admin token and without a credential. No answer may be a 5xx, and every 4xx must be an
 * RFC 9457 problem document (the RFC 6749 error form on /oauth/*).
 *
 * Deterministic: FUZZ_SEED (default below) picks the cases; a failure names the seed and case.
 * Bounded: about 48 cases per operation, answered by an in-process system.
 */
/**
 * Create bodies the schema alone cannot produce (a policy's config, a reachable target): used only
 * to create one resource per collection; every operation is still fuzzed from the document.
 */
const VALID_BODIES: Record<string, unknown> = {
  '/v1/webhooks': { url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'fuzz' },
  '/v1/policies': {
    name: 'fuzz policy',
    type: 'query_control',
    databases: ['db_fuzz'],
    config: { rules: [{ name: 'no drops', pattern: 'DROP', action: 'block', severity: 'high', message: 'no' }] },
  },
  '/v1/alert-destinations': { name: 'fuzz destination', provider: 'webhook', url: 'http://127.0.0.1:9/alert' },
  '/v1/api-keys': { name: 'fuzz key', scopes: ['read:logs'] },
  '/v1/oauth/clients': { name: 'fuzz client', redirect_uris: ['https://example.com/cb'], grant_types: ['authorization_code'], scopes: ['read:logs'] },
  '/v1/report-schedules': { name: 'fuzz schedule', type: 'pci_dss', cron: '0 6 1 * *' },
  '/v1/events/ingest': { events: [{ type: 'database.query', database_id: 'db_fuzz', details: { user: 'fuzz', query: 'SELECT 1', session_id: 'sess_fuzz' } }] },
};

describe('hostile input on every operation', () => {
  const seed = Number(process.env.FUZZ_SEED ?? 20_261_125);
  let system: TestSystem;
  let document: any;
  let adminToken: string;

  beforeAll(async () => {
    system = await startTestSystem({
      bus: 'memory',
      env: { DELIVERY_ALLOW_INSECURE_TARGETS: 'true', RATE_LIMIT_DEFAULT_PER_MINUTE: '10000000', RATE_LIMIT_LOGIN_PER_MINUTE: '10000000', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '10000000' },
    });
    adminToken = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    document = await (await fetch(`${system.gatewayUrl}/v1/openapi.json`)).json();
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  const streams = (op: HostileOperation) => Object.values<any>(op.operation.responses ?? {}).some((r) => r?.content?.['text/event-stream']);

  async function send(op: HostileOperation, c: HostileCase): Promise<{ status: number; contentType: string; body: unknown; text: string }> {
    const headers: Record<string, string> = { 'x-correlation-id': `fuzz-${seed}` };
    if (c.auth === 'garbage') headers.authorization = 'Bearer not.a.token';
    else if (c.auth !== 'none') headers.authorization = `Bearer ${adminToken}`;
    if (c.contentType) headers['content-type'] = c.contentType;
    if (streams(op)) headers.accept = 'text/event-stream';
    const url = `${system.gatewayUrl}${c.path}${c.query ? `?${c.query}` : ''}`;
    const response = await fetch(url, { method: op.method, headers, body: c.body as string | Uint8Array<ArrayBuffer> | undefined, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.startsWith('text/event-stream')) {
      // A stream never ends: its status and headers are the answer; read nothing more.
      await response.body?.cancel();
      return { status: response.status, contentType, body: undefined, text: '' };
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, contentType, body, text };
  }

  function judge(op: HostileOperation, answer: { status: number; contentType: string; body: any; text: string }): string | null {
    if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
    if (answer.status < 400) return null;
    // A browser-facing page (the OAuth consent page) documents its errors as HTML pages.
    const documented = op.operation.responses?.[String(answer.status)]?.content ?? {};
    if (documented['text/html'] && answer.contentType.startsWith('text/html')) return null;
    if (op.template.startsWith('/oauth/')) {
      const rfc6749 = typeof answer.body?.error === 'string';
      const problem = answer.contentType.startsWith('application/problem+json') && typeof answer.body?.code === 'string';
      return rfc6749 || problem ? null : `answered ${answer.status} neither in the RFC 6749 form nor as a problem document: ${answer.contentType} ${answer.text.slice(0, 200)}`;
    }
    if (!answer.contentType.startsWith('application/problem+json')) return `answered ${answer.status} as ${answer.contentType || 'no content type'}: ${answer.text.slice(0, 200)}`;
    const b = answer.body ?? {};
    const missing = ['type', 'title', 'detail', 'code', 'correlation_id'].filter((k) => typeof b[k] !== 'string');
    if (typeof b.status !== 'number' || b.status !== answer.status) missing.push('status');
    if ((answer.status === 400 || answer.status === 422) && !Array.isArray(b.errors)) missing.push('errors');
    return missing.length ? `answered ${answer.status} with a problem document lacking ${missing.join(', ')}: ${answer.text.slice(0, 200)}` : null;
  }

  /**
   * One resource of every collection the sample body can create (`POST /v1/x` answering an id),
   * so operations on `/v1/x/{id}` are fuzzed on a real resource as well as on unknown ids.
   */
  async function createResources(operations: HostileOperation[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const op of operations) {
      if (op.method !== 'POST' || op.template.includes('{') || !op.template.startsWith('/v1/')) continue;
      const schema = op.operation.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const response = await fetch(`${system.gatewayUrl}${op.template}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(VALID_BODIES[op.template] ?? sampleOf(document, schema)),
      });
      const body = (await response.json().catch(() => undefined)) as { id?: unknown; ids?: unknown } | undefined;
      if (response.ok && typeof body?.id === 'string') ids.set(op.template, body.id);
      // POST /v1/events/ingest answers the ids of what it stored under /v1/events.
      if (response.ok && Array.isArray(body?.ids) && typeof body.ids[0] === 'string') ids.set(op.template.slice(0, op.template.lastIndexOf('/')), body.ids[0]);
    }
    return ids;
  }

  it('answers every hostile request with a 4xx problem document or a success, never a 5xx', async () => {
    // Deletions last, so the resources they remove are fuzzed by every other operation first; logout
    // after them, since it ends the session of the token every case carries.
    const rank = (op: HostileOperation) => (op.template === '/v1/auth/logout' ? 2 : op.method === 'DELETE' ? 1 : 0);
    const operations = operationsOf(document).sort((a, b) => rank(a) - rank(b));
    expect(operations.length).toBeGreaterThan(40);
    const created = await createResources(operations);
    const idFor = (template: string, param: string) => {
      const collection = template.slice(0, template.indexOf(`/{${param}}`));
      return created.get(collection);
    };
    const random = seededRandom(seed);
    const failures: string[] = [];
    const walked = new Set<string>();
    let sent = 0;
    const started = Date.now();
    for (const op of operations) {
      const cases = casesFor(document, op, random, { idFor });
      expect({ op: `${op.method} ${op.template}`, cases: cases.length > 0 }).toEqual({ op: `${op.method} ${op.template}`, cases: true });
      for (const c of cases) {
        let verdict: string | null;
        try {
          const answer = await send(op, c);
          verdict = judge(op, answer);
          // A case may end the admin's session (logout, a password change): log in again.
          if (answer.status === 401 && c.auth !== 'none' && c.auth !== 'garbage') adminToken = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
        } catch (error) {
          verdict = `no answer: ${(error as Error).message}`;
        }
        sent++;
        if (verdict) failures.push(`${op.method} ${op.template} [${c.label}] ${c.path.slice(0, 120)}${c.query ? `?${c.query.slice(0, 120)}` : ''}: ${verdict}`);
      }
      walked.add(`${op.method} ${op.template}`);
    }
    process.stdout.write(`hostile input: created ${[...created.keys()].join(', ') || 'nothing'}\n`);
    process.stdout.write(`hostile input: ${walked.size} operations, ${sent} requests in ${Math.round((Date.now() - started) / 1000)} s (FUZZ_SEED=${seed})\n`);
    expect(walked.size).toBe(operations.length);
    expect(failures).toEqual([]);
  }, 240_000);
});
