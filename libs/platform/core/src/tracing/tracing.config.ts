import type { ConfigOf, tracingConfigSpec } from '../config/config';

export type TracingConfig = ConfigOf<typeof tracingConfigSpec>;

/** Where spans are sent, or undefined when tracing is off. */
export function tracesUrl(config: TracingConfig): string | undefined {
  if (config.OTEL_SDK_DISABLED) return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}
