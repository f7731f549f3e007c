import type { AlertReport } from '@vigil/contracts';
import type { Cell, ReportSection } from './report-document';

export const ALERT_COLUMNS = [
  'alert_id',
  'severity',
  'status',
  'type',
  'title',
  'database_id',
  'database_name',
  'policy_id',
  'occurrences',
  'first_seen_at',
  'created_at',
  'acknowledged_at',
  'resolved_at',
  'escalated_at',
];

/**
 * Fills a report's alerts section from the delivery service's figures (docs/reports.md#alerts).
 * Pure. Metrics: `alerts`, then one per severity, status and type (0 when none), `databases`,
 * `occurrences`, `escalated`, `with_acknowledgement` / `with_resolution` and, when there are any,
 * the mean and longest time from an alert's creation to its acknowledgement or resolution (seconds).
 * Rows: the most severe alerts, then newest first.
 */
export function fillAlertsSection(section: ReportSection, alerts: AlertReport, names: Map<string, string>): ReportSection {
  const metrics: Record<string, number> = { alerts: alerts.total };
  for (const [k, v] of Object.entries(alerts.by_severity)) metrics[`severity_${k}`] = v;
  for (const [k, v] of Object.entries(alerts.by_status)) metrics[`status_${k}`] = v;
  for (const [k, v] of Object.entries(alerts.by_type)) metrics[`type_${k}`] = v;
  metrics.databases = alerts.databases;
  metrics.occurrences = alerts.occurrences;
  metrics.escalated = alerts.escalated;
  metrics.with_acknowledgement = alerts.acknowledged;
  if (alerts.seconds_to_acknowledge_mean !== null) metrics.mean_seconds_to_acknowledge = alerts.seconds_to_acknowledge_mean;
  if (alerts.seconds_to_acknowledge_max !== null) metrics.max_seconds_to_acknowledge = alerts.seconds_to_acknowledge_max;
  metrics.with_resolution = alerts.resolved;
  if (alerts.seconds_to_resolve_mean !== null) metrics.mean_seconds_to_resolve = alerts.seconds_to_resolve_mean;
  if (alerts.seconds_to_resolve_max !== null) metrics.max_seconds_to_resolve = alerts.seconds_to_resolve_max;
  const rows = alerts.alerts.map((a): Cell[] => [
    a.id,
    a.severity,
    a.status,
    a.type,
    a.title,
    a.database_id,
    names.get(a.database_id) ?? null,
    a.policy_id,
    a.occurrences,
    a.first_seen_at,
    a.created_at,
    a.acknowledged_at,
    a.resolved_at,
    a.escalated_at,
  ]);
  return { ...section, available: true, metrics, columns: ALERT_COLUMNS, rows, truncated: alerts.truncated };
}
