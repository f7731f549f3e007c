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
