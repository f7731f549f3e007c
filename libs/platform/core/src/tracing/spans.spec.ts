import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from './context-manager';
import { extractTraceContext, injectTraceContext, traceKey } from './spans';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('trace context propagation', () => {
  it('writes traceparent and tracestate of a context into headers and RPC metadata', () => {
    const ctx = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const headers = injectTraceContext<Record<string, string>>({ 'x-message-id': 'm1' }, ctx);
    expect(headers).toEqual({ 'x-message-id': 'm1', traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` });
    const meta = injectTraceContext<{ correlation_id?: string; traceparent?: string }>({ correlation_id: 'c1' }, ctx);
    expect(meta).toEqual({ correlation_id: 'c1', traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` });
  });

  it('writes nothing for a context without a span (tracing off, or untraced work)', () => {
    expect(injectTraceContext({}, ROOT_CONTEXT)).toEqual({});
  });

  it('reads back what it wrote, with tracestate, as a remote parent', () => {
    const extracted = extractTraceContext({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: 'vendor=abc' });
    const parent = trace.getSpanContext(extracted)!;
    expect(parent).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    expect(parent.traceState?.get('vendor')).toBe('abc');
    expect(injectTraceContext({}, extracted)).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: 'vendor=abc' });
  });

  it('reads the first value of a repeated HTTP header', () => {
    const extracted = extractTraceContext({ traceparent: [`00-${TRACE_ID}-${SPAN_ID}-00`, 'junk'] });
    expect(trace.getSpanContext(extracted)).toMatchObject({ traceId: TRACE_ID, traceFlags: TraceFlags.NONE });
  });

  it.each([
    ['no carrier', undefined],
    ['no header', { 'x-other': '1' }],
    ['a malformed header', { traceparent: 'not-a-traceparent' }],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` }],
    ['a header with an injected line', { traceparent: `00-${TRACE_ID}-${SPAN_ID}-01\r\nx: y` }],
  ])('ignores %s', (_, carrier) => {
    expect(trace.getSpanContext(extractTraceContext(carrier as Record<string, unknown> | undefined))).toBeUndefined();
  });

  it('keys stored carriers by traceparent', () => {
    expect(traceKey({ traceparent: 'a', tracestate: 'b' })).toBe('a');
    expect(traceKey({})).toBe('');
    expect(traceKey(null)).toBe('');
  });
});

describe('AsyncLocalStorageContextManager', () => {
  const manager = new AsyncLocalStorageContextManager();
  const key = Symbol('k');

  afterEach(() => context.disable());

  it('keeps the active context across awaits and timers, and restores the outer one after', async () => {
    const inner = ROOT_CONTEXT.setValue(key, 'inner');
    const seen = await manager.with(inner, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await Promise.resolve();
      return manager.active().getValue(key);
    });
    expect(seen).toBe('inner');
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('binds a function to a context, with its this and arguments', () => {
    const bound = manager.bind(ROOT_CONTEXT.setValue(key, 'bound'), function (this: { n: number }, m: number) {
      return `${String(manager.active().getValue(key))}:${this.n + m}`;
    });
    expect(bound.call({ n: 1 }, 2)).toBe('bound:3');
  });

  it('serves as the global context manager of the API', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
    const ctx = ROOT_CONTEXT.setValue(key, 'global');
    await context.with(ctx, async () => {
      await Promise.resolve();
      expect(context.active().getValue(key)).toBe('global');
    });
  });
});
