import { Counter, Gauge, Histogram, type Registry } from '@vigil/platform';

/** Prometheus metrics of the proxy (docs/proxy.md#operations). */
export function createProxyMetrics(registry: Registry, depth: () => number) {
  return {
    sessions: new Gauge({ name: 'vigil_proxy_sessions', help: 'Client sessions open through the proxy', registers: [registry] }),
    statements: new Counter({ name: 'vigil_proxy_statements_total', help: 'Statements relayed, by outcome (ok, error, blocked)', labelNames: ['outcome'], registers: [registry] }),
    blocked: new Counter({ name: 'vigil_proxy_blocked_total', help: 'Connections and statements refused by policy', labelNames: ['kind'], registers: [registry] }),
    masked: new Counter({ name: 'vigil_proxy_masked_values_total', help: 'Result values rewritten by data_protection policies', registers: [registry] }),
    dropped: new Counter({ name: 'vigil_proxy_capture_dropped_total', help: 'Captured records lost because memory and spill space were full (fail-open databases only)', registers: [registry] }),
    bufferDepth: new Gauge({ name: 'vigil_proxy_capture_buffer_depth', help: 'Captured records waiting for audit.ingest (memory and disk)', registers: [registry], collect() { this.set(depth()); } }),
    addedLatency: new Histogram({
      name: 'vigil_proxy_added_latency_seconds',
      help: 'Time the proxy spends on each chunk of protocol traffic it relays (parse, judge, mask, capture)',
      buckets: [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
      registers: [registry],
    }),
  };
}

export type ProxyMetrics = ReturnType<typeof createProxyMetrics>;
