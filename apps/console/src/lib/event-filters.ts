import { localInputToIso } from './time';

/**
 * The Events page's filters: every filter of `GET /v1/events`, as kept in the page's address
 * (`/events?type=security.*&severity=critical`) and as sent to the API. Times are typed in the
 * viewer's zone (`datetime-local`) and sent as UTC instants.
 */
export const EVENT_SEVERITIES = ['critical', 'warning', 'info'] as const;
export type EventSeverity = (typeof EVENT_SEVERITIES)[number];

export interface EventFilters {
  type: string;
  severities: EventSeverity[];
  database: string;
  user: string;
  sourceIp: string;
  /** `datetime-local` values (viewer's zone), or ''. */
  from: string;
  to: string;
  /** Text the query contains (search only). */
  text: string;
  /** SQL operations (first keyword), separated by commas (search only). */
  operations: string;
}

export const EMPTY_EVENT_FILTERS: EventFilters = { type: '', severities: [], database: '', user: '', sourceIp: '', from: '', to: '', text: '', operations: '' };

const KEYS: [keyof Omit<EventFilters, 'severities'>, string][] = [
  ['type', 'type'],
  ['database', 'database_id'],
  ['user', 'user'],
  ['sourceIp', 'source_ip'],
  ['from', 'from'],
  ['to', 'to'],
  ['text', 'q'],
  ['operations', 'operation'],
];

export function parseEventFilters(search: string): EventFilters {
  const params = new URLSearchParams(search);
  const wanted = new Set((params.get('severity') ?? '').split(','));
  const filters: EventFilters = { ...EMPTY_EVENT_FILTERS, severities: EVENT_SEVERITIES.filter((s) => wanted.has(s)) };
  for (const [key, name] of KEYS) filters[key] = (params.get(name) ?? '').trim();
  return filters;
}

export function eventFiltersToSearch(filters: EventFilters): string {
  const params = new URLSearchParams();
  for (const [key, name] of KEYS) if (filters[key].trim()) params.set(name, filters[key].trim());
  if (filters.severities.length) params.set('severity', filters.severities.join(','));
  const query = params.toString().replace(/%2C/g, ',').replace(/%2A/g, '*').replace(/%3A/g, ':');
  return query ? `?${query}` : '';
}

export interface EventQuery {
  type?: string;
  severity?: string;
  database_id?: string;
  user?: string;
  source_ip?: string;
  start_date?: string;
  end_date?: string;
  limit: number;
  cursor?: string;
  snapshot?: string;
}

/**
 * The query of `GET /v1/events`. A time that cannot be read is a field error (so the form can mark
 * it) rather than a request the API would refuse.
 */
export function eventFiltersToQuery(filters: EventFilters, limit: number, page?: { cursor: string; snapshot: string }): { query: EventQuery; errors: { field: string; message: string }[] } {
  const errors: { field: string; message: string }[] = [];
  const query: EventQuery = { limit };
  if (filters.type.trim()) query.type = filters.type.trim().replace(/\s*,\s*/g, ',');
  if (filters.severities.length) query.severity = filters.severities.join(',');
  if (filters.database.trim()) query.database_id = filters.database.trim().replace(/\s*,\s*/g, ',');
  if (filters.user.trim()) query.user = filters.user.trim();
  if (filters.sourceIp.trim()) query.source_ip = filters.sourceIp.trim();
  for (const [key, field] of [
    ['from', 'start_date'],
    ['to', 'end_date'],
  ] as const) {
    if (!filters[key]) continue;
    const iso = localInputToIso(filters[key]);
    if (iso) query[field] = iso;
    else errors.push({ field, message: 'is not a date and time' });
  }
  if (query.start_date && query.end_date && query.start_date >= query.end_date) errors.push({ field: 'end_date', message: 'must be after the start' });
  if (page) {
    query.cursor = page.cursor;
    query.snapshot = page.snapshot;
  }
  return { query, errors };
}

/** Live stream filters → the query of `GET /v1/events/stream`. */
export function streamQuery(filters: { type: string; severities: readonly string[]; database: string }): { type?: string; severity?: string; database_id?: string } {
  return {
    ...(filters.type.trim() ? { type: filters.type.trim().replace(/\s*,\s*/g, ',') } : {}),
    ...(filters.severities.length ? { severity: filters.severities.join(',') } : {}),
    ...(filters.database.trim() ? { database_id: filters.database.trim().replace(/\s*,\s*/g, ',') } : {}),
  };
}

/** Whether the filters need `POST /v1/events/search` (text in the query, SQL operations) rather than the list. */
export function needsSearch(filters: EventFilters): boolean {
  return Boolean(filters.text.trim() || filters.operations.trim());
}

/**
 * The body of `POST /v1/events/search`. The search covers the last 24 hours unless told otherwise:
 * without a start the console asks for the longest range it allows (400 days), so a search finds
 * what the list would.
 */
export function eventSearchBody(filters: EventFilters, limit: number, cursor?: string): { body: { limit: number; cursor?: string; filters: Record<string, unknown> }; errors: { field: string; message: string }[] } {
  const { query, errors } = eventFiltersToQuery(filters, limit);
  const operations = filters.operations
    .split(',')
    .map((op) => op.trim().toUpperCase())
    .filter(Boolean);
  const out: Record<string, unknown> = {};
  for (const key of ['type', 'severity', 'database_id', 'user', 'source_ip'] as const) if (query[key]) out[key] = query[key];
  if (filters.text.trim()) out.query = { contains: filters.text.trim() };
  if (operations.length) out.operation = { in: operations };
  out.time_range = query.start_date ? { start: query.start_date, ...(query.end_date ? { end: query.end_date } : {}) } : { last: '400d' };
  if (!query.start_date && query.end_date) errors.push({ field: 'start_date', message: 'is needed with an end when searching query text' });
  return { body: { limit, ...(cursor ? { cursor } : {}), filters: out }, errors };
}
