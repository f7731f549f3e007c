import { SpanKind, type Tracer } from '@opentelemetry/api';
import { extractTraceContext, inSpan, injectTraceContext, TraceHeaders, traceKey, tracingEnabled } from '@vigil/platform';
import type { MessageBus, OutgoingMessage, TopicMessages } from './bus';

/**
 * Publishes like `bus.publish`. With tracing on, the messages that carry one trace context (those
 * an outbox row or a stored event kept from the request that wrote them) are published in a span
 * that is the child of that context, and carry the publish span's context on to their consumers:
 * the publish continues the trace of the write, in whatever process and transaction it happens.
 * Messages without a trace context are published without a span. One bus publish covers the
 * whole batch (its order and atomicity are unchanged); the spans last as long as it does.
 */
export async function publishTraced(bus: MessageBus, batches: TopicMessages[], tracer?: Tracer): Promise<void> {
  if (!tracingEnabled()) return bus.publish(batches);
  const traces = new Map<string, { topics: Set<string>; messages: OutgoingMessage[] }>();
  for (const batch of batches) {
    for (const message of batch.messages) {
      const key = traceKey(message.headers);
      if (!key) continue;
      const group = traces.get(key) ?? { topics: new Set<string>(), messages: [] };
      group.topics.add(batch.topic);
      group.messages.push(message);
      traces.set(key, group);
    }
  }
  let done!: () => void;
  let failed!: (error: unknown) => void;
  const published = new Promise<void>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  published.catch(() => undefined);
  // Each span's work runs synchronously up to its first await: the headers are rewritten before the publish below.
  const spans = [...traces.values()].map((group) => {
    const first = group.messages[0]!;
    const topics = [...group.topics].join(' ');
    return inSpan(
      `publish ${topics}`,
      {
        tracer: tracer,
        kind: SpanKind.PRODUCER,
        parent: extractTraceContext(first.headers),
        attributes: { 'messaging.system': bus.kind === 'kafka' ? 'kafka' : 'vigil_memory', 'messaging.destination.name': topics, 'messaging.batch.message_count': group.messages.length },
      },
      async () => {
        const carried = injectTraceContext<Record<string, string>>({});
        for (const message of group.messages) {
          delete message.headers[TraceHeaders.tracestate];
          Object.assign(message.headers, carried);
        }
        await published;
      },
    );
  });
  // The publish spans last as long as the one publish of the whole batch (order is kept).
  const settled = Promise.allSettled(spans);
  try {
    await bus.publish(batches);
    done();
  } catch (error) {
    failed(error);
    throw error;
  } finally {
    await settled;
  }
}

