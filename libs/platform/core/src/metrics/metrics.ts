import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Readiness } from '../health/readiness';

let defaultsCollectedOn: Registry | undefined;

/**
 * One registry per service. In the standalone process several services share the process, so
 * process-level metrics are collected once and each service's own metrics keep their label.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (!defaultsCollectedOn) {
    collectDefaultMetrics({ register: registry });
    defaultsCollectedOn = registry;
  }
  return registry;
}

export function httpMetrics(registry: Registry) {
  return {
    duration: new Histogram({
      name: 'vigil_http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

/**
 * `vigil_ready`: 1 while the service would answer 200 on /health/ready, evaluated at each scrape.
 * `up` only says the process answers; this says it can do its work (database and broker reachable,
 * not shutting down), so an alert can tell a stuck dependency from a dead process without
 * kube-state-metrics.
 */
export function readinessMetric(registry: Registry, readiness: Readiness): Gauge {
  return new Gauge({
    name: 'vigil_ready',
    help: 'Whether the service is ready (1) or not (0): the answer /health/ready would give at scrape time',
    registers: [registry],
    async collect() {
      this.set((await readiness.evaluate()).ready ? 1 : 0);
    },
  });
}

export { Counter, Gauge, Histogram, Registry };
