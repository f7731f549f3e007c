import { EVENT_SEVERITIES, type EventSeverity } from './event-filters';

/** One group of `POST /v1/events/aggregate` grouped by severity and minute. */
export interface RateGroup {
  key: Record<string, unknown>;
  bucket?: string;
  count?: number;
}

export interface RateMinute {
  /** Start of the bucket (a minute, or an hour in the day view), epoch milliseconds (UTC). */
  start: number;
  /** Events in the bucket by severity. */
  counts: Record<EventSeverity, number>;
  total: number;
  /** Minutes of the bucket that have passed (1 for a minute; up to 60 for an hour, fewer for the current one). */
  minutes: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The Overview's two windows: the last hour by minute, the last day by hour. */
export type RateWindow = 'hour' | 'day';
export const RATE_WINDOWS: Record<RateWindow, { bucket: 'minute' | 'hour'; size: number; buckets: number; label: string }> = {
  hour: { bucket: 'minute', size: MINUTE, buckets: 60, label: 'last hour' },
  day: { bucket: 'hour', size: HOUR, buckets: 24, label: 'last 24 hours' },
};

/**
 * The `POST /v1/events/aggregate` body for a window: counts grouped by severity and the window's
 * bucket, from the start of its first bucket (so every bucket but the current one is whole, and
 * the day view reads only the hourly counts and the current hour's events).
 */
export function rateRequest(window: RateWindow, now: number) {
  const { bucket, size, buckets } = RATE_WINDOWS[window];
  const first = Math.floor(now / size) * size - (buckets - 1) * size;
  return {
    metrics: ['count' as const],
    filters: { time_range: { start: new Date(first).toISOString() } },
    group_by: ['severity', bucket],
    limit: 1000,
  };
}

/**
 * Events by severity for the window's buckets ending with the one containing `now`: every bucket
 * present (zero when the API returned no group for it), oldest first. Groups outside the window
 * or of an unknown severity are ignored.
 */
export function eventRateSeries(groups: readonly RateGroup[], now: number, window: RateWindow): RateMinute[] {
  const { size, buckets } = RATE_WINDOWS[window];
  const last = Math.floor(now / size) * size;
  const first = last - (buckets - 1) * size;
  const series: RateMinute[] = Array.from({ length: buckets }, (_, i) => {
    const start = first + i * size;
    return {
      start,
      counts: Object.fromEntries(EVENT_SEVERITIES.map((s) => [s, 0])) as Record<EventSeverity, number>,
      total: 0,
      minutes: size === MINUTE ? 1 : Math.max(1, Math.min(size, now - start) / MINUTE),
    };
  });
  for (const group of groups) {
    const severity = group.key['severity'];
    if (!group.bucket || typeof severity !== 'string' || !(EVENT_SEVERITIES as readonly string[]).includes(severity)) continue;
    const start = Date.parse(group.bucket);
    if (Number.isNaN(start) || start < first || start > last) continue;
    const bucket = series[Math.floor((start - first) / size)];
    if (!bucket) continue;
    const count = group.count ?? 0;
    bucket.counts[severity as EventSeverity] += count;
    bucket.total += count;
  }
  return series;
}

/** Events per minute by severity for the `minutes` whole minutes ending with the one containing `now`. */
export function eventsPerMinute(groups: readonly RateGroup[], now: number): RateMinute[] {
  return eventRateSeries(groups, now, 'hour');
}

/** Events per minute in a bucket (an hour's count over the minutes of it that have passed). */
export const perMinute = (bucket: RateMinute, count = bucket.total): number => count / bucket.minutes;

/** The largest per-minute total, rounded up to a readable axis maximum (1, 2, 5 x 10^n). */
export function axisMaximum(series: readonly RateMinute[]): number {
  const peak = Math.max(0, ...series.map((m) => perMinute(m)));
  if (peak <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(peak));
  for (const step of [1, 2, 5, 10]) if (step * power >= peak) return step * power;
  return 10 * power;
}
