import { alertReportRequestErrors, toAlertReport } from './alert-report';
import type { AlertReportGroup, AlertRow } from './alerts.repository';

const group = (grouping: number, fields: Partial<AlertReportGroup>): AlertReportGroup => ({
  grouping,
  severity: null,
  status: null,
  type: null,
  alerts: 0,
  occurrences: '0',
  databases: 0,
  escalated: 0,
  acknowledged: 0,
  ack_mean: null,
  ack_max: null,
  resolved: 0,
  resolve_mean: null,
  resolve_max: null,
  ...fields,
});

const alert = (id: string, severity: string): AlertRow =>
  ({
    id,
    type: 'policy_violation',
    severity,
    status: 'open',
    title: `t ${id}`,
    database_id: 'db_a',
    policy_id: 'pol_1',
    occurrences: 2,
    first_seen_at: new Date('2025-01-01T00:00:00Z'),
    created_at: new Date('2025-01-01T00:00:01Z'),
    acknowledged_at: null,
    resolved_at: new Date('2025-01-01T01:00:00Z'),
    escalated_at: null,
  }) as AlertRow;

describe('alert report request', () => {
  const ok = { period_start: '2025-01-01T00:00:00Z', period_end: '2025-02-01T00:00:00Z', databases: [], limit: 500 };

  it('accepts a period, a list of databases (empty: all) and a limit', () => {
    expect(alertReportRequestErrors(ok)).toEqual([]);
    expect(alertReportRequestErrors({ ...ok, databases: ['db_a', 'db_b'], limit: 1000 })).toEqual([]);
  });

  it('names every field in error', () => {
    expect(alertReportRequestErrors({ ...ok, period_end: ok.period_start }).map((e) => e.field)).toEqual(['period_end']);
    expect(alertReportRequestErrors({ period_start: 'x', databases: 'db_a' as unknown as string[], limit: 0 }).map((e) => e.field)).toEqual([
      'period_start',
      'period_end',
      'databases',
      'limit',
    ]);
    expect(alertReportRequestErrors({ ...ok, databases: [''] }).map((e) => e.field)).toEqual(['databases']);
    expect(alertReportRequestErrors({ ...ok, limit: 1001 }).map((e) => e.field)).toEqual(['limit']);
    expect(alertReportRequestErrors(undefined).length).toBe(4);
  });
});

describe('toAlertReport', () => {
  it('maps the grouping sets to totals and per-severity, status and type counts, zero-filled', () => {
    const report = toAlertReport(
      [
        group(7, { alerts: 3, occurrences: '7', databases: 2, escalated: 1, acknowledged: 2, ack_mean: 90.4, ack_max: 150.6, resolved: 1, resolve_mean: 3600, resolve_max: 3600 }),
        group(3, { severity: 'critical', alerts: 1 }),
        group(3, { severity: 'low', alerts: 2 }),
        group(5, { status: 'resolved', alerts: 1 }),
        group(5, { status: 'open', alerts: 2 }),
        group(6, { type: 'policy_violation', alerts: 3 }),
      ],
      [],
      10,
    );
    expect(report).toEqual({
      total: 3,
      by_severity: { critical: 1, high: 0, medium: 0, low: 2, info: 0 },
      by_status: { open: 2, acknowledged: 0, resolved: 1 },
      by_type: { policy_violation: 3, anomaly_detection: 0, threshold_breach: 0, classification_alert: 0 },
      databases: 2,
      occurrences: 7,
      escalated: 1,
      acknowledged: 2,
      seconds_to_acknowledge_mean: 90,
      seconds_to_acknowledge_max: 151,
      resolved: 1,
      seconds_to_resolve_mean: 3600,
      seconds_to_resolve_max: 3600,
      alerts: [],
      truncated: false,
    });
  });

  it('no alerts: zeros and no times', () => {
    const report = toAlertReport([group(7, {})], [], 10);
    expect(report).toMatchObject({ total: 0, occurrences: 0, seconds_to_acknowledge_mean: null, seconds_to_resolve_max: null, truncated: false });
    expect(toAlertReport([], [], 10).total).toBe(0);
  });

  it('lists up to the limit and says when there are more', () => {
    const report = toAlertReport([group(7, { alerts: 3 })], [alert('alt_1', 'critical'), alert('alt_2', 'high'), alert('alt_3', 'low')], 2);
    expect(report.alerts.map((a) => a.id)).toEqual(['alt_1', 'alt_2']);
    expect(report.truncated).toBe(true);
    expect(report.alerts[0]).toEqual({
      id: 'alt_1',
      type: 'policy_violation',
      severity: 'critical',
      status: 'open',
      title: 't alt_1',
      database_id: 'db_a',
      policy_id: 'pol_1',
      occurrences: 2,
      first_seen_at: '2025-01-01T00:00:00.000Z',
      created_at: '2025-01-01T00:00:01.000Z',
      acknowledged_at: null,
      resolved_at: '2025-01-01T01:00:00.000Z',
      escalated_at: null,
    });
  });
});
