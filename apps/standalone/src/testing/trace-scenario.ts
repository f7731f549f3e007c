import { randomBytes } from 'node:crypto';
import { flushTracing, tracingStatus } from '@vigil/platform';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver, startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './http';
import { startTestSystem, type TestSystem } from './test-system';

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/** The chain of spans from `span` up to the root of what was received. */
function ancestry(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain = [span];
  for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId)) chain.unshift(parent);
  return chain;
}

/**
 * Traces end to end on the whole system (one tracer provider for all services, on the given bus):
 * an ingest request that matches a webhook subscription is one trace, from the gateway's request
 * through RPC, the audit-events publish and its consumer to the webhook attempt, exported over
 * OTLP/HTTP to a real receiver on 127.0.0.1.
 */
export function traceScenario(bus: 'memory' | 'kafka'): void {
describe(`tracing (${bus} bus)`, () => {
  let system: TestSystem;
  let otlp: OtlpReceiver;
  let hooks: WebhookReceiver;
  let token: string;

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    hooks = await startWebhookReceiver();
    system = await startTestSystem({
      bus,
      env: { DELIVERY_ALLOW_INSECURE_TARGETS: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-token' },
    });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
    await hooks?.close();
    await otlp?.close();
  });

  it('follows one ingest request from the gateway to the webhook attempt it caused, in one trace', async () => {
    expect(tracingStatus()).toEqual({ enabled: true, serviceName: 'vigil', url: `${otlp.url}/v1/traces` });
    const subscribed = await http(system.gatewayUrl, 'POST', '/v1/webhooks', {
      token,
      body: { url: `${hooks.url}/traced`, events: ['data.export'], secret: 'traced-webhook-secret-0123456789' },
    });
    expect(subscribed.status).toBe(201);

    // The caller's own trace context is honoured: the gateway's span is the child of this one.
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const query = 'SELECT secret_column FROM payroll';
    const ingested = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
      token,
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
      body: { events: [{ type: 'data.export', database_id: 'db_traced', details: { user: 'bob', query } }] },
    });
    expect(ingested.status).toBe(202);
    await waitFor(() => hooks.on('/traced').length > 0, 20_000, 'the webhook delivery');

    const attempt = await waitFor(async () => {
      await flushTracing();
      return otlp.spans.find((s) => s.traceId === traceId && s.name === 'webhook attempt');
    }, 20_000, 'the webhook attempt span');
    const spans = otlp.spans.filter((s) => s.traceId === traceId);

    const chain = ancestry(attempt, spans);
    expect(chain.map((s) => [s.scope, s.kind, s.name])).toEqual([
      ['vigil.gateway', SERVER, 'POST /v1/events/ingest'],
      ['vigil.gateway', CLIENT, 'event-ingest.events.ingest'],
      ['vigil.event-ingest', SERVER, 'event-ingest.events.ingest'],
      ['vigil.event-ingest', PRODUCER, 'outbox write audit.events.v1'],
      ['vigil.event-ingest', PRODUCER, 'publish audit.events.v1'],
      ['vigil.delivery', CONSUMER, 'process audit.events.v1'],
      ['vigil.delivery', CLIENT, 'webhook attempt'],
    ]);
    expect(chain[0]!.parentSpanId).toBe(callerSpanId);
    expect(new Set(spans.map((s) => s.serviceName))).toEqual(new Set(['vigil']));
    expect(chain[0]!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/events/ingest', 'http.response.status_code': 202 });
    const system_ = bus === 'kafka' ? 'kafka' : 'vigil_memory';
    expect(chain[4]!.attributes).toMatchObject({ 'messaging.system': system_, 'messaging.destination.name': 'audit.events.v1' });
    expect(chain[5]!.attributes).toMatchObject({ 'messaging.system': system_, 'messaging.destination.name': 'audit.events.v1', 'messaging.consumer.group.name': 'delivery.webhooks' });
    expect(attempt.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'http.response.status_code': 200, 'vigil.event.id': ingested.body.ids[0] });

    // The stored event and the delivery keep the trace context that their publish and attempts continue.
    const [event] = await system.db.query<{ trace_context: { traceparent: string } }>(`SELECT trace_context FROM event_ingest.events WHERE id = $1`, [ingested.body.ids[0]]);
    expect(event!.trace_context.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // Nothing secret or user-supplied leaves in spans: no token, webhook secret, query text or target path.
    const exported = JSON.stringify(spans);
    for (const secret of [token, 'traced-webhook-secret', query, 'payroll', '/traced']) expect(exported).not.toContain(secret);
    // The collector's headers are sent with every export.
    expect(otlp.requests.every((h) => h.authorization === 'Bearer collector-token')).toBe(true);
  }, 60_000);

  it('follows an anomaly from the ingest request to the alert attempt it caused', async () => {
    const destination = await http(system.gatewayUrl, 'POST', '/v1/alert-destinations', { token, body: { name: 'traced alerts', url: `${hooks.url}/alerts` } });
    expect(destination.status).toBe(201);
    const traceId = randomBytes(16).toString('hex');
    const traceIds = [traceId];
    const ingested = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
      token,
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      body: { events: [{ type: 'security.anomaly', database_id: 'db_traced_alerts', details: { user: 'mallory', source_ip: '198.51.100.7', threat_type: 'unusual_volume', query: 'SELECT * FROM cards' } }] },
    });
    expect(ingested.status).toBe(202);
    await waitFor(() => hooks.on('/alerts').length > 0, 20_000, 'the alert delivery');
    const attempt = await waitFor(async () => {
      await flushTracing();
      return otlp.spans.find((s) => traceIds.includes(s.traceId) && s.name === 'alert attempt');
    }, 20_000, 'the alert attempt span');
    const chain = ancestry(attempt, otlp.spans.filter((s) => s.traceId === attempt.traceId));
    expect(chain.map((s) => [s.scope, s.kind, s.name])).toEqual([
      ['vigil.gateway', SERVER, 'POST /v1/events/ingest'],
      ['vigil.gateway', CLIENT, 'event-ingest.events.ingest'],
      ['vigil.event-ingest', SERVER, 'event-ingest.events.ingest'],
      ['vigil.event-ingest', PRODUCER, 'outbox write audit.events.v1'],
      ['vigil.event-ingest', PRODUCER, 'publish audit.events.v1'],
      ['vigil.delivery', CONSUMER, 'process audit.events.v1'],
      ['vigil.delivery', CLIENT, 'alert attempt'],
    ]);
    expect(chain[5]!.attributes).toMatchObject({ 'messaging.consumer.group.name': 'delivery.alerts' });
    expect(attempt.attributes).toMatchObject({ 'vigil.destination.id': destination.body.id, 'vigil.destination.provider': 'webhook', 'http.response.status_code': 200 });
    expect(JSON.stringify(chain)).not.toContain('cards');
  }, 90_000);
});
}
