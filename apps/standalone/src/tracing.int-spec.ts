import { randomBytes } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { tracingStatus } from '@vigil/platform';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';
import { traceScenario } from './testing/trace-scenario';

traceScenario('memory');

/** With no OTLP endpoint, tracing costs nothing: no provider, no spans, no stored trace context. */
describe('tracing off (standalone)', () => {
  let system: TestSystem;
  let token: string;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory' });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('creates no provider and stores no trace context, even when the caller sends one', async () => {
    expect(tracingStatus()).toEqual({ enabled: false });
    const span = trace.getTracer('probe').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext().traceId).toBe('0'.repeat(32));
    const ingested = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
      token,
      headers: { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` },
      body: { events: [{ type: 'data.export', database_id: 'db_untraced' }] },
    });
    expect(ingested.status).toBe(202);
    const [event] = await system.db.query<{ trace_context: unknown }>(`SELECT trace_context FROM event_ingest.events WHERE id = $1`, [ingested.body.ids[0]]);
    expect(event).toBeDefined();
    expect(event!.trace_context).toBeNull();
  }, 60_000);
});
