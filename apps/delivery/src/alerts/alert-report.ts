import { type AlertReport, type AlertReportRequest, AlertRequestTypes, AlertSeverities, AlertStatuses, type FieldError } from '@vigil/contracts';
import type { AlertReportGroup, AlertRow } from './alerts.repository';

/** Most alerts a report may ask to be listed; the figures always cover every alert. */
export const ALERT_REPORT_MAX_LIMIT = 1000;
/** Most databases a report may name (a report's scope is far smaller in practice). */
export const ALERT_REPORT_MAX_DATABASES = 10_000;

/** Checks the meaning of a report request (it comes from event-ingest, not from a user, but is checked all the same). */
export function alertReportRequestErrors(request: Partial<AlertReportRequest> | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const start = typeof request?.period_start === 'string' ? Date.parse(request.period_start) : NaN;
  const end = typeof request?.period_end === 'string' ? Date.parse(request.period_end) : NaN;
  if (Number.isNaN(start)) errors.push({ field: 'period_start', message: 'must be a date-time' });
  if (Number.isNaN(end)) errors.push({ field: 'period_end', message: 'must be a date-time' });
  if (!Number.isNaN(start) && !Number.isNaN(end) && end <= start) errors.push({ field: 'period_end', message: 'must be after period_start' });
  const databases = request?.databases;
  if (!Array.isArray(databases) || databases.some((d) => typeof d !== 'string' || d.length === 0 || d.length > 200)) {
    errors.push({ field: 'databases', message: 'must be a list of database ids (empty: every database)' });
  } else if (databases.length > ALERT_REPORT_MAX_DATABASES) {
    errors.push({ field: 'databases', message: `must name at most ${ALERT_REPORT_MAX_DATABASES} databases` });
  }
  const limit = request?.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > ALERT_REPORT_MAX_LIMIT) {
    errors.push({ field: 'limit', message: `must be an integer from 1 to ${ALERT_REPORT_MAX_LIMIT}` });
  }
  return errors;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const seconds = (value: number | string | null) => (value === null ? null : Math.round(Number(value)));
const zeros = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>;

/**
 * Shapes the grouping-sets rows and the most severe alerts (`limit` + 1 read, to know whether
 * there are more) into the report answer. Every severity, status and type is present, 0 when none.
 */
export function toAlertReport(groups: AlertReportGroup[], top: AlertRow[], limit: number): AlertReport {
  const all = groups.find((g) => g.grouping === 7);
  const report: AlertReport = {
    total: all?.alerts ?? 0,
    by_severity: zeros(AlertSeverities),
    by_status: zeros(AlertStatuses),
    by_type: zeros(AlertRequestTypes),
    databases: all?.databases ?? 0,
    occurrences: Number(all?.occurrences ?? 0),
    escalated: all?.escalated ?? 0,
    acknowledged: all?.acknowledged ?? 0,
    seconds_to_acknowledge_mean: seconds(all?.ack_mean ?? null),
    seconds_to_acknowledge_max: seconds(all?.ack_max ?? null),
    resolved: all?.resolved ?? 0,
    seconds_to_resolve_mean: seconds(all?.resolve_mean ?? null),
    seconds_to_resolve_max: seconds(all?.resolve_max ?? null),
    alerts: top.slice(0, limit).map((a) => ({
      id: a.id,
      type: a.type,
      severity: a.severity,
      status: a.status,
      title: a.title,
      database_id: a.database_id,
      policy_id: a.policy_id,
      occurrences: a.occurrences,
      first_seen_at: iso(a.first_seen_at)!,
      created_at: iso(a.created_at)!,
      acknowledged_at: iso(a.acknowledged_at),
      resolved_at: iso(a.resolved_at),
      escalated_at: iso(a.escalated_at),
    })),
    truncated: top.length > limit,
  };
  for (const g of groups) {
    if (g.grouping === 3 && g.severity !== null) report.by_severity[g.severity] = g.alerts;
    if (g.grouping === 5 && g.status !== null) report.by_status[g.status] = g.alerts;
    if (g.grouping === 6 && g.type !== null) report.by_type[g.type] = g.alerts;
  }
  return report;
}
