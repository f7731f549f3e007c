import { Counter, Registry } from 'prom-client';
import { metricsPortFor, startMetricsServer } from './metrics-server';

describe('metrics port', () => {
  it('defaults to the HTTP port + 6000, follows a port picked when bound, and keeps an explicit one', () => {
    expect(metricsPortFor(undefined, 3000)).toBe(9000);
    expect(metricsPortFor(undefined, 3004)).toBe(9004);
    expect(metricsPortFor(undefined, 0)).toBe(0);
    expect(metricsPortFor(9464, 3000)).toBe(9464);
    expect(metricsPortFor(0, 3000)).toBe(0);
  });
});

describe('metrics listener', () => {
  const registry = new Registry();
  new Counter({ name: 'vigil_test_total', help: 'a test counter', registers: [registry] }).inc(3);
  let server: Awaited<ReturnType<typeof startMetricsServer>>;
  beforeAll(async () => {
    server = await startMetricsServer(registry, '127.0.0.1', 0);
  });
  afterAll(() => server.close());

  it('answers GET /metrics in the Prometheus text format', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(registry.contentType);
    expect(await res.text()).toContain('vigil_test_total 3');
  });

  it('answers nothing else: other paths 404, other methods 405', async () => {
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/v1/events`)).status).toBe(404);
    const post = await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
