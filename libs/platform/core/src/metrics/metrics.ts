import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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

export { Counter, Gauge, Histogram, Registry };
