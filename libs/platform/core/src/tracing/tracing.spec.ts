import { context, propagation, trace } from '@opentelemetry/api';
import { createLogger } from '../logging/logger';
import { beginSpan, currentTraceCarrier, inSpan } from './spans';
import { startTracing, tracingEnabled, tracingStatus } from './tracing';
import { loadConfig } from '../config/config';
import { tracingConfigSpec } from '../config/config';
import { startOtlpReceiver } from '@vigil/testing';

const logger = createLogger('test', 'silent');

describe('startTracing', () => {
  it('creates nothing without an endpoint: the API stays a no-op and the span helpers do nothing', async () => {
    const handle = startTracing(loadConfig('test', tracingConfigSpec, {}), 'vigil-test', logger);
    expect(handle.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(tracingStatus()).toEqual({ enabled: false });
    expect(trace.getTracer('x').startSpan('y').isRecording()).toBe(false);
    expect(beginSpan('nothing')).toBeUndefined();
    expect(currentTraceCarrier()).toBeUndefined();
    expect(await inSpan('work', {}, async (span) => span.isRecording())).toBe(false);
    await handle.release();
  });

  it('shares one provider between its users and removes it when the last one releases it', async () => {
    const otlp = await startOtlpReceiver();
    const config = loadConfig('test', tracingConfigSpec, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
    const first = startTracing({ ...config, OTEL_SERVICE_NAME: 'vigil-eu' }, 'vigil', logger);
    const second = startTracing({ ...config, OTEL_SERVICE_NAME: 'ignored' }, 'vigil-gateway', logger);
    expect(tracingStatus()).toEqual({ enabled: true, serviceName: 'vigil-eu', url: `${otlp.url}/v1/traces` });
    const carried = await inSpan('parent', { tracer: trace.getTracer('vigil.test') }, async (span) => {
      expect(span.isRecording()).toBe(true);
      await Promise.resolve();
      return { carrier: currentTraceCarrier(), traceId: span.spanContext().traceId };
    });
    expect(carried.carrier?.traceparent).toMatch(new RegExp(`^00-${carried.traceId}-[0-9a-f]{16}-01$`));
    expect(beginSpan('internal', { childOnly: true })).toBeUndefined();

    await first.release();
    await first.release();
    expect(tracingEnabled()).toBe(true);
    expect(otlp.spans).toEqual([]);
    await second.release();
    expect(tracingEnabled()).toBe(false);
    // The last release flushed the span, under the first user's service name.
    expect(otlp.spans.map((s) => [s.name, s.serviceName, s.scope])).toEqual([['parent', 'vigil-eu', 'vigil.test']]);
    await otlp.close();
    expect(trace.getTracer('x').startSpan('y').isRecording()).toBe(false);
    expect(context.active()).toBeDefined();
    expect(propagation.fields()).toEqual([]);
  });

  it.each([
    ['always_off', {}, false],
    ['parentbased_always_off', {}, false],
    ['traceidratio', { OTEL_TRACES_SAMPLER_ARG: '0' }, false],
    ['parentbased_traceidratio', { OTEL_TRACES_SAMPLER_ARG: '1' }, true],
  ])('samples new traces as %s %j says', async (sampler, extra, recorded) => {
    const otlp = await startOtlpReceiver();
    const handle = startTracing(loadConfig('test', tracingConfigSpec, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_TRACES_SAMPLER: sampler, ...extra }), 'vigil', logger);
    const carrier = await inSpan('root', {}, async (span) => {
      expect(span.isRecording()).toBe(recorded);
      return currentTraceCarrier();
    });
    // Unsampled traces still propagate, flagged unsampled, so the services downstream agree.
    expect(carrier?.traceparent).toMatch(recorded ? /-01$/ : /-00$/);
    await handle.release();
    expect(otlp.spans).toHaveLength(recorded ? 1 : 0);
    await otlp.close();
  });
});
