import { context, diag, DiagLogLevel, propagation, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Logger } from '../logging/logger';
import { AsyncLocalStorageContextManager } from './context-manager';
import { type TracingConfig, tracesUrl } from './tracing.config';

interface Active {
  provider: TracerProvider;
  users: number;
  serviceName: string;
  url: string;
}

let active: Active | undefined;

/** Longest wait for the last spans at shutdown. */
const SHUTDOWN_FLUSH_MS = 5_000;

/** True while a tracer provider is installed; span helpers do nothing at all otherwise. */
export function tracingEnabled(): boolean {
  return active !== undefined;
}

/** What tracing does in this process: for start-up logs and for tests. */
export function tracingStatus(): { enabled: false } | { enabled: true; serviceName: string; url: string } {
  return active ? { enabled: true, serviceName: active.serviceName, url: active.url } : { enabled: false };
}

export interface TracingHandle {
  readonly enabled: boolean;
  /** Gives the tracing back; the last user flushes pending spans and removes the provider. */
  release(): Promise<void>;
}

const DISABLED: TracingHandle = { enabled: false, release: async () => undefined };

function sampler(config: TracingConfig): Sampler {
  const ratio = config.OTEL_TRACES_SAMPLER_ARG ?? 1;
  switch (config.OTEL_TRACES_SAMPLER) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Starts tracing for this process if an OTLP endpoint is configured, else does nothing: no
 * provider, exporter, processor or context manager exists, and the OpenTelemetry API stays on its
 * no-op implementation. One provider serves the whole process: the standalone launcher starts it
 * first (service name `vigil`), and the services it runs then share it; a service in its own
 * process starts it itself. Each user releases it at shutdown; the last one flushes.
 */
export function startTracing(config: TracingConfig, defaultServiceName: string, logger: Logger): TracingHandle {
  const url = tracesUrl(config);
  if (!url) return DISABLED;
  if (!active) {
    const serviceName = config.OTEL_SERVICE_NAME ?? defaultServiceName;
    const headers = { ...config.OTEL_EXPORTER_OTLP_HEADERS, ...config.OTEL_EXPORTER_OTLP_TRACES_HEADERS };
    // Export failures reach the service's log (never the headers: the SDK does not print them).
    diag.setLogger(
      {
        error: (message, ...args) => logger.warn({ detail: args.map(String).join(' ').slice(0, 500) }, `tracing: ${message}`),
        warn: (message, ...args) => logger.warn({ detail: args.map(String).join(' ').slice(0, 500) }, `tracing: ${message}`),
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName, 'service.namespace': 'vigil' }),
      sampler: sampler(config),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url, headers }) })],
    });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    active = { provider, users: 0, serviceName, url };
    logger.info({ url, service_name: serviceName, sampler: config.OTEL_TRACES_SAMPLER }, 'tracing: exporting spans over OTLP/HTTP');
  }
  const mine = active;
  mine.users++;
  let released = false;
  return {
    enabled: true,
    release: async () => {
      if (released || active !== mine) return;
      released = true;
      if (--mine.users > 0) return;
      active = undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        // A collector that is down must not hold the exit past the orchestrator's grace period.
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SHUTDOWN_FLUSH_MS)));
        if ((await Promise.race([mine.provider.shutdown(), late])) === 'late') logger.warn({ wait_ms: SHUTDOWN_FLUSH_MS }, 'tracing: spans not flushed in time at shutdown; dropped');
      } catch (error) {
        logger.warn({ err: error }, 'tracing: flushing spans at shutdown failed');
      } finally {
        clearTimeout(timer);
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}

/** Sends the spans ended so far (tests; shutdown flushes by itself). */
export async function flushTracing(): Promise<void> {
  await active?.provider.forceFlush();
}

/** The tracer of one service: its name is the spans' instrumentation scope (`vigil.<service>`). */
export function serviceTracer(service: string): Tracer {
  return trace.getTracer(`vigil.${service}`);
}
