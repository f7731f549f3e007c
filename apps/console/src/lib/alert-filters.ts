/** The alert list's filters, as chosen in the page and as kept in its address (`/alerts?status=open`). */

export const ALERT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

export type AlertStatus = (typeof ALERT_STATUSES)[number];
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export interface AlertFilters {
  statuses: AlertStatus[];
  severities: AlertSeverity[];
  page: number;
}

export const DEFAULT_ALERT_FILTERS: AlertFilters = { statuses: [], severities: [], page: 1 };

function pick<T extends string>(raw: string | null, allowed: readonly T[]): T[] {
  const wanted = new Set((raw ?? '').split(',').map((item) => item.trim()));
  // Known values only, in their canonical order: a hand-edited address cannot send junk to the API.
  return allowed.filter((value) => wanted.has(value));
}

/** Filters from the page's query string; unknown values and a bad page number are dropped. */
export function parseAlertFilters(search: string): AlertFilters {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    statuses: pick(params.get('status'), ALERT_STATUSES),
    severities: pick(params.get('severity'), ALERT_SEVERITIES),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The page's query string for these filters (empty when nothing is filtered), `?` included. */
export function alertFiltersToSearch(filters: AlertFilters): string {
  const params = new URLSearchParams();
  if (filters.statuses.length) params.set('status', filters.statuses.join(','));
  if (filters.severities.length) params.set('severity', filters.severities.join(','));
  if (filters.page > 1) params.set('page', String(filters.page));
  const query = params.toString().replace(/%2C/g, ',');
  return query ? `?${query}` : '';
}

/** The query of `GET /v1/alerts` for these filters. */
export function alertFiltersToQuery(filters: AlertFilters, perPage: number): { status?: string; severity?: string; page: number; per_page: number } {
  return {
    ...(filters.statuses.length ? { status: filters.statuses.join(',') } : {}),
    ...(filters.severities.length ? { severity: filters.severities.join(',') } : {}),
    page: filters.page,
    per_page: perPage,
  };
}

/** Adds or removes one value of a multi-choice filter; changing a filter goes back to page 1. */
export function toggleFilter<K extends 'statuses' | 'severities'>(filters: AlertFilters, key: K, value: AlertFilters[K][number]): AlertFilters {
  const current = filters[key] as string[];
  const next = current.includes(value) ? current.filter((item) => item !== value) : [...current, value];
  const order: readonly string[] = key === 'statuses' ? ALERT_STATUSES : ALERT_SEVERITIES;
  return { ...filters, [key]: order.filter((item) => next.includes(item)), page: 1 };
}
