import type { Api } from '../api/client';
import { ALERT_SEVERITIES } from './alert-filters';
import { rateRequest, type RateGroup, type RateWindow } from './event-rate';
import { type Outcome, prefetch } from './prefetch';
import { hasScope, type Scopes } from './scopes';

/**
 * The Overview's API calls, apart from its components (no React here): the page runs them through
 * `useRequest` under these keys, and the start of the console runs them ahead (`prefetchOverview`)
 * the moment a session resumes on `/`.
 */

/** The event-rate chart's call for a window: counts by severity and minute (hour) or hour (day). */
export const eventRateKey = (period: RateWindow) => `overview:event-rate:${period}`;

export async function readEventRate(api: Api, period: RateWindow): Promise<Outcome<{ groups: RateGroup[] }>> {
  const answer = await api.POST('/v1/events/aggregate', { body: rateRequest(period, Date.now()) as never });
  return answer as Outcome<{ groups: RateGroup[] }>;
}

/** The five policies with the most violations (all time). Needs read:policies. */
export const MOST_VIOLATED_KEY = 'overview:most-violated';
export const readMostViolated = (api: Api) => api.GET('/v1/policies', { params: { query: { sort: 'violation_count', per_page: 5 } } });

/** Open alerts by severity (read:alerts) and the databases (read:databases), as the scopes allow. */
export const summaryKey = (alerts: boolean, databases: boolean) => `overview:${alerts}:${databases}`;

export async function readSummary(api: Api, alerts: boolean, databases: boolean) {
  // The open alerts by severity in one call, and the databases, at once.
  const [counts, list] = await Promise.all([
    alerts ? api.GET('/v1/alerts/counts', { params: { query: { status: 'open' } } }) : undefined,
    databases ? api.GET('/v1/databases', { params: { query: { page: 1, per_page: 100 } } }) : undefined,
  ]);
  const calls = [...(counts ? [counts] : []), ...(list ? [list] : [])];
  const failed = calls.find((result) => result.error !== undefined || result.data === undefined);
  if (failed) return { error: failed.error, response: failed.response };
  const bySeverity = counts?.data?.by_severity;
  const open = bySeverity ? ALERT_SEVERITIES.map((severity) => ({ severity, count: bySeverity[severity] })) : undefined;
  return { data: { open, databases: list?.data?.data }, response: calls[0]?.response ?? new Response(null) };
}

/** Starts every call the Overview makes first for these scopes; its sections take them up. */
export function prefetchOverview(api: Api, scopes: Scopes): void {
  const alerts = hasScope(scopes, 'read:alerts');
  const databases = hasScope(scopes, 'read:databases');
  if (hasScope(scopes, 'read:logs')) prefetch(eventRateKey('hour'), () => readEventRate(api, 'hour'));
  if (hasScope(scopes, 'read:policies')) prefetch(MOST_VIOLATED_KEY, () => readMostViolated(api));
  prefetch(summaryKey(alerts, databases), () => readSummary(api, alerts, databases));
}
