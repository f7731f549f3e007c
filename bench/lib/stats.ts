import { loadavg } from 'node:os';

/**
 * The p-th percentile (0 to 100) of `sorted` (ascending), by nearest rank: the value at rank
 * ceil(p/100 · n), counting from 1, clamped to the first and last values; NaN when there are none.
 * p50 of [1, 2, 3, 4] is 2, p99 of 100 values is the 99th.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, index))]!;
}

/** The 1-, 5- and 15-minute load averages with two decimals, as "1.23 0.98 0.75". */
export function formatLoadAverage(load: readonly number[] = loadavg()): string {
  return load.map((l) => l.toFixed(2)).join(' ');
}

/** The median of `xs` (the upper one of an even count); NaN when there are none. */
export function median(xs: readonly number[]): number {
  return xs.length ? [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]! : Number.NaN;
}

/**
 * A 95 % bootstrap interval of the median of `xs` (percentile method, 4,000 resamples from a fixed
 * seed, so a run prints the same interval for the same rounds): where the median of rounds like
 * these lands 19 times in 20. With rounds that move by 20 % either way it is what says whether a
 * 5 % effect is shown, which the median alone cannot.
 */
export function medianInterval(xs: readonly number[], resamples = 4000): [number, number] {
  if (xs.length === 0) return [Number.NaN, Number.NaN];
  let seed = 0x9e3779b9;
  const random = () => {
    // xorshift32: deterministic, good enough to pick resample indices.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  const medians = new Array<number>(resamples);
  const sample = new Array<number>(xs.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < xs.length; i++) sample[i] = xs[Math.floor(random() * xs.length)]!;
    medians[r] = median(sample);
  }
  medians.sort((x, y) => x - y);
  return [percentile(medians, 2.5), percentile(medians, 97.5)];
}
