import { EVENT_SEVERITIES, type EventSeverity } from './event-filters';

/** One group of `POST /v1/events/aggregate` grouped by severity and minute. */
export interface RateGroup {
  key: Record<string, unknown>;
  bucket?: string;
  count?: number;
}

export interface RateMinute {
  /** Start of the minute, epoch milliseconds (UTC). */
  start: number;
  counts: Record<EventSeverity, number>;
  total: number;
}

const MINUTE = 60_000;

/**
 * Events per minute by severity for the `minutes` whole minutes ending with the one containing
 * `now`: every minute present (zero when the API returned no group for it), oldest first. Groups
 * outside the window or of an unknown severity are ignored.
 */
export function eventsPerMinute(groups: readonly RateGroup[], now: number, minutes = 60): RateMinute[] {
  const last = Math.floor(now / MINUTE) * MINUTE;
  const first = last - (minutes - 1) * MINUTE;
  const series: RateMinute[] = Array.from({ length: minutes }, (_, i) => ({
    start: first + i * MINUTE,
    counts: Object.fromEntries(EVENT_SEVERITIES.map((s) => [s, 0])) as Record<EventSeverity, number>,
    total: 0,
  }));
  for (const group of groups) {
    const severity = group.key['severity'];
    if (!group.bucket || typeof severity !== 'string' || !(EVENT_SEVERITIES as readonly string[]).includes(severity)) continue;
    const start = Date.parse(group.bucket);
    if (Number.isNaN(start) || start < first || start > last) continue;
    const minute = series[Math.floor((start - first) / MINUTE)];
    if (!minute) continue;
    const count = group.count ?? 0;
    minute.counts[severity as EventSeverity] += count;
    minute.total += count;
  }
  return series;
}

/** The largest per-minute total, rounded up to a readable axis maximum (1, 2, 5 x 10^n). */
export function axisMaximum(series: readonly RateMinute[]): number {
  const peak = Math.max(0, ...series.map((m) => m.total));
  if (peak <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(peak));
  for (const step of [1, 2, 5, 10]) if (step * power >= peak) return step * power;
  return 10 * power;
}
