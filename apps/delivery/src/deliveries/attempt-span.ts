import { type Attributes, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { extractTraceContext, inSpan, tracingEnabled } from '@vigil/platform';

/** What a webhook or alert attempt reports, as far as its span is concerned. */
export interface AttemptSpanOutcome {
  statusCode: number | null;
  status: string;
  success: boolean;
}

/**
 * Runs one delivery attempt; with tracing on, as a client span in the trace stored with the
 * delivery (the one that created it), carrying the response status and the delivery's outcome.
 * Callers choose the attributes (read only while tracing is on): never a URL path, query, header or
 * body (they may hold secrets).
 */
export function inAttemptSpan<T extends AttemptSpanOutcome>(
  tracer: Tracer,
  name: string,
  traceContext: Record<string, string> | null | undefined,
  attributes: () => Attributes,
  attempt: () => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return attempt();
  return inSpan(name, { tracer, kind: SpanKind.CLIENT, parent: extractTraceContext(traceContext), attributes: attributes() }, async (span) => {
    const outcome = await attempt();
    if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
    span.setAttribute('vigil.delivery.status', outcome.status);
    if (!outcome.success) span.setStatus({ code: SpanStatusCode.ERROR });
    return outcome;
  });
}
