import {
  type Context,
  context,
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { tracingEnabled } from './tracing';

/**
 * W3C trace context (`traceparent`, `tracestate`) in and out of the carriers Vigil uses: RPC
 * metadata, message headers (Kafka and the in-process bus), outbox rows and delivery rows. The
 * propagator is used directly rather than through the global API so these helpers behave the same
 * whether or not tracing is on; with tracing off no context is ever active, so nothing is written.
 */
const propagator = new W3CTraceContextPropagator();

/** Headers that carry the trace context. */
export const TraceHeaders = { traceparent: 'traceparent', tracestate: 'tracestate' } as const;

/** Writes the trace context of `ctx` (default: the active one) into `carrier`, if it has a valid span. */
export function injectTraceContext<C extends Record<string, unknown>>(carrier: C, ctx: Context = context.active()): C {
  propagator.inject(ctx, carrier, defaultTextMapSetter);
  return carrier;
}

/** Reads a trace context from a carrier (headers, metadata); a malformed one is ignored. */
export function extractTraceContext(carrier: Record<string, unknown> | null | undefined, base: Context = ROOT_CONTEXT): Context {
  if (!carrier) return base;
  return propagator.extract(base, carrier, defaultTextMapGetter);
}

/** The active trace context as a small object to store with a row, or undefined when there is none. */
export function currentTraceCarrier(ctx?: Context): Record<string, string> | undefined {
  if (!tracingEnabled()) return undefined;
  const carrier = injectTraceContext<Record<string, string>>({}, ctx ?? context.active());
  return carrier.traceparent ? carrier : undefined;
}

/** A stored carrier's identity for grouping messages of one trace: the traceparent, or ''. */
export function traceKey(carrier: Record<string, unknown> | null | undefined): string {
  const value = carrier?.[TraceHeaders.traceparent];
  return typeof value === 'string' ? value : '';
}

const TRACER = createContextKey('vigil.tracer');
const fallbackTracer = () => trace.getTracer('vigil');
const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export interface SpanStart extends SpanOptions {
  /** The service's tracer; default: the tracer of the span that is active (its service). */
  tracer?: Tracer;
  /** Parent context; default: the active context. */
  parent?: Context;
  /** Only trace when a span is already active: internal calls never start traces of their own. */
  childOnly?: boolean;
}

/**
 * Starts a span, or returns undefined when tracing is off (or `childOnly` and no span is active):
 * the off path allocates nothing. Run the work under the returned context and end the span.
 */
export function beginSpan(name: string, options: SpanStart = {}): { span: Span; context: Context } | undefined {
  if (!tracingEnabled()) return undefined;
  const parent = options.parent ?? context.active();
  if (options.childOnly && !trace.getSpan(parent)) return undefined;
  const tracer = options.tracer ?? (parent.getValue(TRACER) as Tracer | undefined) ?? fallbackTracer();
  const span = tracer.startSpan(name, options, parent);
  return { span, context: trace.setSpan(parent, span).setValue(TRACER, tracer) };
}

/** Runs `work` in a new span and ends it when `work` settles; with tracing off, just runs `work`. */
export async function inSpan<T>(name: string, options: SpanStart, work: (span: Span) => Promise<T>): Promise<T> {
  const started = beginSpan(name, options);
  if (!started) return work(NOOP_SPAN);
  try {
    return await context.with(started.context, () => work(started.span));
  } catch (error) {
    markSpanFailed(started.span, error);
    throw error;
  } finally {
    started.span.end();
  }
}

/**
 * Marks a span failed with the error's kind only (`error.type`): messages and stacks stay out of
 * spans, since they can quote statements, values or addresses.
 */
export function markSpanFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown })?.code;
  const type = typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : ((error as Error)?.constructor?.name ?? 'Error');
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}
