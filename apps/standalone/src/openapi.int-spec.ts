import { Validator } from '@seriousme/openapi-schema-validator';
import { http } from './testing/http';
import { OpenApiResponseValidator } from './testing/openapi-validator';
import { startTestSystem, type TestSystem } from './testing/test-system';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** The OpenAPI document is generated from the code; these checks keep it complete and truthful. */
describe('OpenAPI document', () => {
  let system: TestSystem;
  let document: any;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory' });
    document = (await http(system.gatewayUrl, 'GET', '/v1/openapi.json')).body;
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route the gateway serves, and nothing it does not', () => {
    const gateway = system.services.find((s) => s.name === 'gateway')!;
    const express = gateway.app.getHttpAdapter().getInstance() as { router: { stack: RouteLayer[] } };
    const served = new Set<string>();
    for (const layer of express.router.stack) {
      if (!layer.route) continue;
      const path = layer.route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      if (/^\/(health|metrics)/.test(path) || path.startsWith('/v1/docs') || path === '/v1/openapi.json') continue;
      for (const method of Object.keys(layer.route.methods)) served.add(`${method.toUpperCase()} ${path}`);
    }
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    expect(served.size).toBeGreaterThan(5);
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });

  it('documents the paging parameters of every list as numbers', () => {
    const paging: { operation: string; name: string; type: unknown }[] = [];
    for (const [path, item] of Object.entries<Record<string, { parameters?: { name: string; in: string; schema?: { type?: unknown } }[] }>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const p of operation.parameters ?? []) {
          if (p.in === 'query' && (p.name === 'page' || p.name === 'per_page')) paging.push({ operation: `${method.toUpperCase()} ${path}`, name: p.name, type: p.schema?.type });
        }
      }
    }
    expect(paging.length).toBeGreaterThan(10);
    expect(paging.filter((p) => p.type !== 'number' && p.type !== 'integer')).toEqual([]);
  });

  it('names the scope of every operation that needs a credential, and documents its errors as problem documents', () => {
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const label = `${method.toUpperCase()} ${path}`;
        const secured = (operation.security ?? [{}]).length > 0;
        if (secured) {
          expect({ label, scope: typeof operation['x-required-scope'] }).toEqual({ label, scope: 'string' });
          expect({ label, has401: Boolean(operation.responses['401']), has403: Boolean(operation.responses['403']) }).toEqual({ label, has401: true, has403: true });
        }
        // /oauth/* answers errors in the RFC 6749 form, everything else as problem documents.
        const errorMediaType = path.startsWith('/oauth/') ? 'application/json' : 'application/problem+json';
        expect({ label, has429: operation.responses['429']?.content?.[errorMediaType] !== undefined }).toEqual({ label, has429: true });
      }
    }
  });

  it('describes the outgoing requests with every header a receiver verifies: X-Service-* and Standard Webhooks on both webhook forms', () => {
    const headersOf = (name: string) => (document.webhooks[name].post.parameters as { name: string; in: string; required: boolean }[]).map((p) => `${p.in}:${p.name}:${p.required}`);
    const standard = ['header:webhook-id:true', 'header:webhook-timestamp:true', 'header:webhook-signature:true'];
    const xService = ['header:X-Service-Signature:true', 'header:X-Service-Timestamp:true', 'header:X-Service-Event:true', 'header:X-Service-Delivery-ID:true'];
    for (const form of ['webhookDeliveryFormA', 'webhookDeliveryFormB']) expect(headersOf(form).sort()).toEqual([...standard, ...xService].sort());
    expect(document.webhooks.webhookDeliveryFormA.post.requestBody.content['application/json'].schema.required).toEqual(['id', 'type', 'created', 'data']);
    expect(document.webhooks.webhookDeliveryFormB.post.requestBody.content['application/json'].schema.required).toEqual(['id', 'type', 'created_at', 'data']);
    expect(headersOf('alertDestinationRequest').sort()).toEqual(standard.map((h) => h.replace(':true', ':false')).sort());
  });

  it('serves a browsable page', async () => {
    const page = await fetch(`${system.gatewayUrl}/v1/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });

  it('is checked against real responses: a body or status the document does not allow is caught', () => {
    const validator = new OpenApiResponseValidator(document);
    const wrongBody = validator.check('GET', '/v1/events/evt_01', 404, 'application/problem+json', { status: 'not a number' });
    expect(wrongBody.join('\n')).toMatch(/required property|must be integer/);
    expect(validator.check('GET', '/v1/events/evt_01', 418, 'application/json', {})).toEqual([expect.stringContaining('status not documented')]);
    expect(validator.check('GET', '/v1/unknown-thing', 200, 'application/json', {})).toEqual([expect.stringContaining('no such operation')]);
    const problem = { type: 'urn:vigil:problem:event_not_found', title: 'Not Found', status: 404, detail: 'x', instance: '/v1/events/evt_01', code: 'event_not_found', correlation_id: 'c' };
    expect(validator.check('GET', '/v1/events/evt_01', 404, 'application/problem+json', problem)).toEqual([]);
  });
});
