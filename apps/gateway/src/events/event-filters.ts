import { type AuditEvent, AuditEventTypes, type EventFilters, type FieldError } from '@vigil/contracts';
import { DomainException } from '@vigil/platform';

export enum EventsApiErrorCode {
  InvalidFilter = 'invalid_event_filter',
  TooManyStreams = 'too_many_streams',
  StreamUnavailable = 'stream_unavailable',
  UnknownLastEventId = 'unknown_last_event_id',
}

/**
 * Expands type patterns (`*` matches every type, `prefix.*` every type starting
 * with `prefix.`, anything else is an exact type) into the catalog types they match. Several
 * patterns may be given comma-separated. A pattern matching nothing is an error, not an empty list.
 */
export function expandTypePatterns(raw: string, field: string): { types: string[]; error?: FieldError } {
  const patterns = raw.split(',').map((p) => p.trim()).filter(Boolean);
  if (!patterns.length) return { types: [], error: { field, message: 'must name at least one event type or pattern' } };
  const types = new Set<string>();
  for (const pattern of patterns) {
    const matched = matchingTypes(pattern);
    if (!matched.length) return { types: [], error: { field, message: `"${pattern}" matches no event type of the catalog` } };
    matched.forEach((t) => types.add(t));
  }
  return { types: AuditEventTypes.filter((t) => types.has(t)) };
}

export function matchingTypes(pattern: string): string[] {
  if (pattern === '*') return [...AuditEventTypes];
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1);
    if (prefix.includes('*')) return [];
    return AuditEventTypes.filter((t) => t.startsWith(prefix));
  }
  return AuditEventTypes.filter((t) => t === pattern);
}

const DURATION = /^(\d{1,6})(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** Longest `time_range.last` accepted: the longest retention anyone would keep. */
export const MAX_RANGE_MS = 400 * 86_400_000;

/** `30m`, `24h`, `7d`, `2w` -> milliseconds; null when not a duration or out of range. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2]!]!;
  return ms > 0 && ms <= MAX_RANGE_MS ? ms : null;
}

export interface TimeRangeInput {
  last?: string;
  start?: string;
  end?: string;
}

/**
 * A time range from `{last}` or `{start, end}` (end defaults to now); without either, the last
 * `defaultMs`. Errors name the JSON path under `field`.
 */
export function resolveTimeRange(input: TimeRangeInput | undefined, field: string, defaultMs: number, now = new Date()): { start: string; end: string } {
  const errors: FieldError[] = [];
  let start: Date;
  let end = now;
  if (input?.last !== undefined) {
    if (input.start !== undefined || input.end !== undefined) {
      errors.push({ field: `${field}.last`, message: 'cannot be combined with start or end' });
    }
    const ms = parseDuration(input.last);
    if (ms === null) errors.push({ field: `${field}.last`, message: 'must be a duration such as 15m, 24h, 7d (at most 400d)' });
    start = new Date(now.getTime() - (ms ?? 0));
  } else if (input?.start !== undefined) {
    start = new Date(input.start);
    if (input.end !== undefined) end = new Date(input.end);
    if (!(start < end)) errors.push({ field: `${field}.start`, message: 'must be before end' });
  } else {
    if (input?.end !== undefined) errors.push({ field: `${field}.start`, message: 'is required with end' });
    start = new Date(now.getTime() - defaultMs);
  }
  if (errors.length) throw DomainException.validation(errors, 'The time range is invalid.');
  return { start: start.toISOString(), end: end.toISOString() };
}

export interface SimpleFilterInput {
  type?: string;
  severity?: string;
  database_id?: string;
  user?: string;
  source_ip?: string;
}

const list = (value: string | undefined) => (value === undefined ? undefined : value.split(',').map((v) => v.trim()).filter(Boolean));

/** The list filters shared by every read, normalised for event-ingest. */
export function toEventFilters(input: SimpleFilterInput, prefix = ''): EventFilters {
  const filters: EventFilters = {};
  if (input.type !== undefined) {
    const { types, error } = expandTypePatterns(input.type, `${prefix}type`);
    if (error) throw DomainException.validation([error], 'The event type filter matches nothing.');
    filters.types = types;
  }
  filters.severities = list(input.severity);
  filters.database_ids = list(input.database_id);
  if (input.user !== undefined) filters.users = [input.user];
  if (input.source_ip !== undefined) filters.source_ips = [input.source_ip];
  return filters;
}

/** In-memory twin of the SQL filters, for live stream events. */
export function matchesFilters(event: AuditEvent, filters: EventFilters): boolean {
  if (filters.types && !filters.types.includes(event.type)) return false;
  if (filters.severities && !filters.severities.includes(event.severity)) return false;
  if (filters.database_ids && !filters.database_ids.includes(event.database_id)) return false;
  if (filters.users && !filters.users.includes(event.details.user ?? '')) return false;
  if (filters.source_ips && !filters.source_ips.includes(event.details.source_ip ?? '')) return false;
  return true;
}
