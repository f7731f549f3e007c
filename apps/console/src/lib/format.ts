/** How the console shows times and API errors. */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", "in 2 hours", "now": the distance from `now` to an ISO 8601 time. */
export function relativeTime(iso: string, now: Date, locale = 'en'): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((then - now.getTime()) / 1000);
  if (Math.abs(seconds) < 5) return 'now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return 'now';
}

/** A full timestamp in UTC, to the second: `2026-11-25 16:18:50 UTC`. */
export function absoluteTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** An RFC 9457 problem document as the API sends it (only the members the console shows). */
export interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  correlation_id?: string;
  errors?: { field: string; message: string }[];
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && ('title' in value || 'detail' in value);
}

/** A readable message for a failed call: the problem's detail and field errors, or what went wrong. */
export function describeProblem(error: unknown, status?: number): { message: string; fields: string[]; reference?: string } {
  if (isProblem(error)) {
    const message = error.detail || error.title || `Request failed (${error.status ?? status ?? 'error'})`;
    const fields = (error.errors ?? []).map((item) => `${item.field}: ${item.message}`);
    return { message, fields, ...(error.correlation_id ? { reference: error.correlation_id } : {}) };
  }
  if (error instanceof Error) return { message: `The server could not be reached (${error.message}).`, fields: [] };
  return { message: status ? `Request failed with status ${status}.` : 'Request failed.', fields: [] };
}
