/**
 * Times as the viewer reads them: in their own time zone (the browser's, or `timeZone` in tests),
 * with the UTC instant available on hover; and `datetime-local` inputs converted to UTC instants.
 */
// Formatters are costly to create and the Live page formats many times per frame: one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function localTime(iso: string, timeZone?: string, locale = 'en-GB'): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const key = `${locale}|${timeZone ?? ''}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      ...(timeZone ? { timeZone } : {}),
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(key, format);
  }
  return format.format(time);
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A `datetime-local` value, read in the viewer's zone, as an ISO 8601 UTC instant; undefined if unreadable. */
export function localInputToIso(value: string): string | undefined {
  const m = LOCAL_INPUT.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  // Reject dates the calendar does not have (Feb 30 rolls over).
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
  return date.toISOString();
}

/** An instant as a `datetime-local` value in the viewer's zone (to the minute). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** IANA zones the browser knows (for the time-zone picker), UTC first. */
export function timeZones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...supported.filter((zone) => zone !== 'UTC')];
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}
