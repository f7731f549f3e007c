import { Histogram, Registry } from '@vigil/platform';
import { ChunkHistogram } from './proxy.metrics';

describe('ChunkHistogram', () => {
  it('is exposed exactly as a prom-client Histogram with the same observations', async () => {
    const buckets = [0.00001, 0.000025, 0.00005, 0.0001, 0.001, 0.05];
    const reference = new Registry();
    const fast = new Registry();
    for (const r of [reference, fast]) r.setDefaultLabels({ service: 'pg-proxy' });
    const expected = new Histogram({ name: 'vigil_test_seconds', help: 'test', buckets, registers: [reference] });
    const actual = new ChunkHistogram({ name: 'vigil_test_seconds', help: 'test', buckets, registers: [fast] });
    // On a bound, between bounds, below the first and above the last.
    for (const v of [0.000001, 0.00001, 0.00003, 0.0000999, 0.004, 0.05, 0.2]) {
      expected.observe(v);
      actual.observe(v);
    }
    expect(await fast.metrics()).toBe(await reference.metrics());
    actual.reset();
    expected.reset();
    expected.zero({});
    expect(await fast.metrics()).toBe(await reference.metrics());
  });
});
