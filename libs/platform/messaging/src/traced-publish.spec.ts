import { createLogger, loadConfig, startTracing, type TracingHandle, tracingConfigSpec } from '@vigil/platform';
import { type OtlpReceiver, startOtlpReceiver } from '@vigil/testing';
import type { IncomingMessage } from './bus';
import { runsByTrace } from './consumer';
import { MemoryBus } from './memory-bus';
import { publishTraced } from './traced-publish';

const sampled = (trace: string, span: string) => `00-${trace.repeat(32).slice(0, 32)}-${span.repeat(16).slice(0, 16)}-01`;
const unsampled = (trace: string) => `00-${trace.repeat(32).slice(0, 32)}-${'1'.repeat(16)}-00`;

describe('runsByTrace', () => {
  it('groups consecutive messages of one sampled trace, and keeps untraced ones together', () => {
    const headers: Record<string, string>[] = [
      { traceparent: sampled('a', '1') },
      { traceparent: sampled('a', '1') },
      {},
      { traceparent: unsampled('c') },
      { traceparent: 'garbage' },
      { traceparent: sampled('b', '2') },
      { traceparent: sampled('a', '1') },
    ];
    expect(runsByTrace(headers, [0, 1, 2, 3, 4, 5, 6])).toEqual([[0, 1], [2, 3, 4], [5], [6]]);
  });

  it('keeps a batch without trace context in one run', () => {
    expect(runsByTrace([{}, {}, {}], ['x', 'y', 'z'])).toEqual([['x', 'y', 'z']]);
  });
});

describe('publishTraced', () => {
  let tracing: TracingHandle;
  let otlp: OtlpReceiver;
  const bus = new MemoryBus();

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    tracing = startTracing(loadConfig('test', tracingConfigSpec, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url }), 'test', createLogger('test', 'silent'));
  });

  afterAll(async () => {
    await bus.close();
    await tracing.release();
    await otlp.close();
  });

  it('hands each stored trace on in a publish span of that trace, and leaves untraced messages alone', async () => {
    const received: IncomingMessage[] = [];
    const subscription = await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async (messages) => void received.push(...messages) });
    const stored = sampled('a', '3');
    await publishTraced(bus, [
      {
        topic: 't',
        messages: [
          { key: '1', value: 'one', headers: { traceparent: stored, tracestate: 'v=1', 'x-message-id': 'm1' } },
          { key: '2', value: 'two', headers: { 'x-message-id': 'm2' } },
          { key: '3', value: 'three', headers: { traceparent: stored, 'x-message-id': 'm3' } },
        ],
      },
    ]);
    await subscription.stop();
    expect(received.map((m) => m.value)).toEqual(['one', 'two', 'three']);
    const [one, two, three] = received.map((m) => m.headers);
    expect(one!.traceparent).toMatch(/^00-a{32}-[0-9a-f]{16}-01$/);
    expect(one!.traceparent).not.toBe(stored);
    expect(three!.traceparent).toBe(one!.traceparent);
    expect(one!['x-message-id']).toBe('m1');
    expect(two).toEqual({ 'x-message-id': 'm2' });
    await tracing.release();
    // One publish span for the one stored trace, the child of the stored context.
    expect(otlp.spans.map((s) => [s.name, s.traceId, s.parentSpanId])).toEqual([['publish t', 'a'.repeat(32), '3'.repeat(16)]]);
    expect(one!.traceparent).toBe(`00-${'a'.repeat(32)}-${otlp.spans[0]!.spanId}-01`);
  });
});
