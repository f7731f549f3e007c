import { Readiness } from '../health/readiness';
import { readinessMetric, Registry } from './metrics';

async function readyValue(registry: Registry): Promise<number | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'vigil_ready');
  return metric?.values[0]?.value;
}

describe('vigil_ready', () => {
  it('follows readiness at each scrape: its checks, then shutdown', async () => {
    const registry = new Registry();
    const readiness = new Readiness();
    let databaseUp = true;
    readiness.register('database', async () => databaseUp);
    readinessMetric(registry, readiness);

    expect(await readyValue(registry)).toBe(1);
    databaseUp = false;
    expect(await readyValue(registry)).toBe(0);
    databaseUp = true;
    expect(await readyValue(registry)).toBe(1);
    readiness.markShuttingDown();
    expect(await readyValue(registry)).toBe(0);
  });

  it('reports 0 when a check throws', async () => {
    const registry = new Registry();
    const readiness = new Readiness();
    readiness.register('broker', () => Promise.reject(new Error('unreachable')));
    readinessMetric(registry, readiness);
    expect(await readyValue(registry)).toBe(0);
  });
});
