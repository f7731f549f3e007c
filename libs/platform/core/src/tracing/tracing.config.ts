import { type ConfigOf, env, type Field } from '../config/config';

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * OTLP headers in the OpenTelemetry form `key1=value1,key2=value2` (values percent-encoded).
 * Marked secret: they usually carry the collector's credentials, so they are never printed.
 */
function otlpHeaders(): Field<Record<string, string> | undefined> {
  return {
    description: 'comma-separated key=value pairs',
    secret: true,
    parse(raw) {
      if (raw === undefined || raw.trim() === '') return { ok: true, value: undefined };
      const headers: Record<string, string> = {};
      for (const pair of raw.split(',')) {
        if (!pair.trim()) continue;
        const i = pair.indexOf('=');
        const key = i > 0 ? pair.slice(0, i).trim() : '';
        // Never echo the value: it is usually a credential.
        if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) return { ok: false, message: 'must be comma-separated key=value pairs with header names as keys' };
        let value: string;
        try {
          value = decodeURIComponent(pair.slice(i + 1).trim());
        } catch {
          return { ok: false, message: `has a badly percent-encoded value for "${key}"` };
        }
        if (/[\r\n]/.test(value)) return { ok: false, message: `has a line break in the value of "${key}"` };
        headers[key] = value;
      }
      return { ok: true, value: headers };
    },
  };
}

function ratio(): Field<number | undefined> {
  return {
    description: 'a number from 0 to 1',
    secret: false,
    parse(raw) {
      if (raw === undefined || raw.trim() === '') return { ok: true, value: undefined };
      const n = Number(raw.trim());
      if (!/^\d*\.?\d+(e-?\d+)?$/i.test(raw.trim()) || !(n >= 0 && n <= 1)) return { ok: false, message: `must be a number from 0 to 1 (got "${raw.trim().slice(0, 20)}")` };
      return { ok: true, value: n };
    },
  };
}

/**
 * The standard OpenTelemetry variables Vigil honours for traces. Tracing is on only when an OTLP
 * endpoint is set (and OTEL_SDK_DISABLED is not true); otherwise nothing of the SDK is created.
 */
export const tracingConfigSpec = {
  OTEL_SDK_DISABLED: env.bool({ default: false }),
  OTEL_SERVICE_NAME: env.optionalString({ description: 'service.name of exported spans; default vigil-<service> (vigil in the standalone process)' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url(['http', 'https'], { optional: true, description: 'OTLP/HTTP base URL; traces go to <url>/v1/traces' }) as Field<string | undefined>,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.url(['http', 'https'], { optional: true, description: 'OTLP/HTTP URL for traces, used as is' }) as Field<
    string | undefined
  >,
  OTEL_EXPORTER_OTLP_HEADERS: otlpHeaders(),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: otlpHeaders(),
  OTEL_TRACES_SAMPLER: env.oneOf(SAMPLERS, { default: 'parentbased_always_on' }),
  OTEL_TRACES_SAMPLER_ARG: ratio(),
};
export type TracingConfig = ConfigOf<typeof tracingConfigSpec>;

/** Where spans are sent, or undefined when tracing is off. */
export function tracesUrl(config: TracingConfig): string | undefined {
  if (config.OTEL_SDK_DISABLED) return undefined;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}
