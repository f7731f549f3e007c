import { ConfigError, loadConfig } from '../config/config';
import { tracingConfigSpec } from '../config/config';
import { tracesUrl } from './tracing.config';

const load = (env: Record<string, string>) => loadConfig('test', tracingConfigSpec, env);

describe('tracing configuration', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED', () => {
    expect(tracesUrl(load({}))).toBeUndefined();
    expect(tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }))).toBeUndefined();
  });

  it('appends /v1/traces to the base endpoint and takes the traces endpoint as is', () => {
    expect(tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/base' }))).toBe('https://otel.example/base/v1/traces');
    expect(
      tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom' })),
    ).toBe('http://traces:9999/custom');
  });

  it('parses OTLP headers with percent-encoded values', () => {
    const config = load({ OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-tenant=t1' });
    expect(config.OTEL_EXPORTER_OTLP_HEADERS).toEqual({ authorization: 'Bearer abc', 'x-tenant': 't1' });
  });

  it('defaults to the parent-based always-on sampler and takes a ratio for the ratio samplers', () => {
    expect(load({}).OTEL_TRACES_SAMPLER).toBe('parentbased_always_on');
    const config = load({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    expect(config).toMatchObject({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: 0.25 });
  });

  it('names every bad variable and never echoes a header value', () => {
    let error: ConfigError | undefined;
    try {
      load({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector',
        OTEL_EXPORTER_OTLP_HEADERS: 'bad header=secret-value-1',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=%E0%A4%A',
        OTEL_TRACES_SAMPLER: 'sometimes',
        OTEL_TRACES_SAMPLER_ARG: '1.5',
        OTEL_SDK_DISABLED: 'maybe',
      });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.variable).sort()).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_HEADERS',
      'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
      'OTEL_SDK_DISABLED',
      'OTEL_TRACES_SAMPLER',
      'OTEL_TRACES_SAMPLER_ARG',
    ]);
    expect(error!.message).not.toContain('secret-value-1');
  });
});
