/**
 * The webhook retry schedule: entry i is the delay in seconds before attempt i+1 (the first
 * counted from when the event was recorded, each later one from the previous attempt). Its length
 * is the number of attempts (7 by default).
 */
export class RetrySchedule {
  readonly delays: readonly number[];

  constructor(
    delays: readonly (number | string)[],
    /** Percent of each delay added or removed at random, so retries of many deliveries spread out. */
    private readonly jitterPercent = 10,
  ) {
    const parsed = delays.map(Number);
    if (!parsed.length || parsed.some((d) => !Number.isInteger(d) || d < 0)) {
      throw new Error('a retry schedule is a non-empty list of whole seconds');
    }
    this.delays = parsed;
  }

  get attempts(): number {
    return this.delays.length;
  }

  /** Milliseconds before attempt `index` (0-based), jittered; null when there is no such attempt. */
  delayMs(index: number, random: () => number = Math.random): number | null {
    const base = this.delays[index];
    if (base === undefined) return null;
    const spread = (base * 1000 * this.jitterPercent) / 100;
    return Math.max(0, Math.round(base * 1000 + (random() * 2 - 1) * spread));
  }
}
