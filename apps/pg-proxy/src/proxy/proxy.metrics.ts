import { Counter, Gauge, type Registry } from '@vigil/platform';

/**
 * A Prometheus histogram without labels whose `observe` is a few array operations. The proxy
 * observes one value per chunk it relays (two per simple statement), where prom-client's
 * Histogram (label validation and hashing on every call) cost a noticeable share of the proxy's
 * CPU. Exposed in the registry exactly as a prom-client Histogram is (`_bucket` with `le`,
 * `_sum`, `_count`).
 */
export class ChunkHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  readonly name: string;
  readonly help: string;
  private readonly buckets: readonly number[];

  /** Options as prom-client's Histogram takes them (and as the deploy checks read metric names). */
  constructor(options: { name: string; help: string; buckets: readonly number[]; registers: Registry[] }) {
    this.name = options.name;
    this.help = options.help;
    this.buckets = options.buckets;
    this.counts = new Float64Array(options.buckets.length);
    for (const registry of options.registers) registry.registerMetric(this as never);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) {
      if (seconds <= buckets[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }

  /** What prom-client's registry renders (the shape of its Histogram's `get`). */
  async get() {
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = this.buckets.map((le, i) => ({ labels: { le }, value: (cumulative += this.counts[i]!), metricName: bucket }));
    values.push({ labels: { le: '+Inf' }, value: this.count, metricName: bucket });
    values.push({ labels: {}, value: this.sum, metricName: `${this.name}_sum` });
    values.push({ labels: {}, value: this.count, metricName: `${this.name}_count` });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** Prometheus metrics of the proxy (docs/proxy.md#operations). */
export function createProxyMetrics(registry: Registry, depth: () => number) {
  return {
    sessions: new Gauge({ name: 'vigil_proxy_sessions', help: 'Client sessions open through the proxy', registers: [registry] }),
    statements: new Counter({ name: 'vigil_proxy_statements_total', help: 'Statements relayed, by outcome (ok, error, blocked)', labelNames: ['outcome'], registers: [registry] }),
    blocked: new Counter({ name: 'vigil_proxy_blocked_total', help: 'Connections and statements refused by policy', labelNames: ['kind'], registers: [registry] }),
    masked: new Counter({ name: 'vigil_proxy_masked_values_total', help: 'Result values rewritten by data_protection policies', registers: [registry] }),
    dropped: new Counter({ name: 'vigil_proxy_capture_dropped_total', help: 'Captured records lost because memory and spill space were full (fail-open databases only)', registers: [registry] }),
    bufferDepth: new Gauge({ name: 'vigil_proxy_capture_buffer_depth', help: 'Captured records waiting for audit.ingest (memory and disk)', registers: [registry], collect() { this.set(depth()); } }),
    addedLatency: new ChunkHistogram({
      name: 'vigil_proxy_added_latency_seconds',
      help: 'Time the proxy spends on each chunk of protocol traffic it relays (parse, judge, mask, capture)',
      buckets: [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
      registers: [registry],
    }),
  };
}

export type ProxyMetrics = ReturnType<typeof createProxyMetrics>;
