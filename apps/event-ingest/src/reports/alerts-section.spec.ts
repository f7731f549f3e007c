import type { AlertReport } from '@vigil/contracts';
import { ALERT_COLUMNS, fillAlertsSection } from './alerts-section';
import { retryDelayMs } from './report-alerts';
import type { ReportSection } from './report-document';
import { renderCsv, renderHtml } from './report-renderers';
import { formatDuration } from './report-text';

const empty: ReportSection = { id: 'alerts', title: 'Alerts raised and their handling', controls: ['PCI DSS 10.4.3'], description: 'd', available: true, metrics: {}, columns: [], rows: [], truncated: false };

const figures: AlertReport = {
  total: 2,
  by_severity: { critical: 1, high: 0, medium: 1, low: 0, info: 0 },
  by_status: { open: 1, acknowledged: 0, resolved: 1 },
  by_type: { policy_violation: 2, anomaly_detection: 0, threshold_breach: 0, classification_alert: 0 },
  databases: 1,
  occurrences: 5,
  escalated: 1,
  acknowledged: 1,
  seconds_to_acknowledge_mean: 300,
  seconds_to_acknowledge_max: 300,
  resolved: 1,
  seconds_to_resolve_mean: 7260,
  seconds_to_resolve_max: 7260,
  alerts: [
    {
      id: 'alt_1',
      type: 'policy_violation',
      severity: 'critical',
      status: 'open',
      title: '=cmd|"/c calc"!A1 <b>x</b>',
      database_id: 'db_a',
      policy_id: 'pol_1',
      occurrences: 4,
      first_seen_at: '2025-01-02T00:00:00.000Z',
      created_at: '2025-01-02T00:00:01.000Z',
      acknowledged_at: null,
      resolved_at: null,
      escalated_at: '2025-01-02T00:10:00.000Z',
    },
  ],
  truncated: true,
};

describe('alerts section', () => {
  it('flattens the figures into metrics and lists the alerts with database names', () => {
    const section = fillAlertsSection(empty, figures, new Map([['db_a', 'Payments']]));
    expect(section.metrics).toEqual({
      alerts: 2,
      severity_critical: 1,
      severity_high: 0,
      severity_medium: 1,
      severity_low: 0,
      severity_info: 0,
      status_open: 1,
      status_acknowledged: 0,
      status_resolved: 1,
      type_policy_violation: 2,
      type_anomaly_detection: 0,
      type_threshold_breach: 0,
      type_classification_alert: 0,
      databases: 1,
      occurrences: 5,
      escalated: 1,
      with_acknowledgement: 1,
      mean_seconds_to_acknowledge: 300,
      max_seconds_to_acknowledge: 300,
      with_resolution: 1,
      mean_seconds_to_resolve: 7260,
      max_seconds_to_resolve: 7260,
    });
    expect(section.columns).toEqual(ALERT_COLUMNS);
    expect(section.rows).toEqual([
      ['alt_1', 'critical', 'open', 'policy_violation', '=cmd|"/c calc"!A1 <b>x</b>', 'db_a', 'Payments', 'pol_1', 4, '2025-01-02T00:00:00.000Z', '2025-01-02T00:00:01.000Z', null, null, '2025-01-02T00:10:00.000Z'],
    ]);
    expect(section).toMatchObject({ available: true, truncated: true });
  });

  it('leaves out the times when no alert was acknowledged or resolved', () => {
    const none = { ...figures, acknowledged: 0, resolved: 0, seconds_to_acknowledge_mean: null, seconds_to_acknowledge_max: null, seconds_to_resolve_mean: null, seconds_to_resolve_max: null };
    const section = fillAlertsSection(empty, none, new Map());
    expect(Object.keys(section.metrics).filter((k) => k.includes('seconds'))).toEqual([]);
    expect(section.metrics).toMatchObject({ with_acknowledgement: 0, with_resolution: 0 });
    expect(section.rows[0]![6]).toBeNull();
  });

  it('renders in CSV (formulas defused) and HTML (escaped, durations in words, control mapping included)', () => {
    const section = fillAlertsSection(empty, figures, new Map([['db_a', 'Payments']]));
    const document = {
      report_id: 'rpt_1',
      type: 'pci_dss',
      title: 'PCI DSS',
      framework: 'PCI DSS v4.0',
      generated_at: '2025-02-01T00:00:00.000Z',
      period: { start: '2025-01-01T00:00:00.000Z', end: '2025-02-01T00:00:00.000Z' },
      scope: { all_databases: false, databases: [{ id: 'db_a', name: 'Payments' }] },
      schedule_id: null,
      summary: { total_events: 1, alerts: 2 },
      events_by_type: [],
      sections: [section],
    };
    const csv = renderCsv(document);
    expect(csv).toContain('alerts,severity_critical,1\r\n');
    expect(csv).toContain('alerts,mean_seconds_to_resolve,7260\r\n');
    expect(csv).toContain(`section,controls,${ALERT_COLUMNS.join(',')}\r\n`);
    expect(csv).toContain(`alerts,PCI DSS 10.4.3,alt_1,critical,open,policy_violation,"'=cmd|""/c calc""!A1 <b>x</b>",db_a,Payments,pol_1,4,`);
    const html = renderHtml(document);
    expect(html).toContain('<td>PCI DSS 10.4.3</td><td>Included</td>');
    expect(html).toContain('<b>2 h 1 min</b> mean time to resolve');
    expect(html).toContain('<b>5 min</b> max time to acknowledge');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('Only the first 1 rows are listed');
    const none = renderHtml({ ...document, sections: [fillAlertsSection(empty, { ...figures, total: 0, alerts: [], truncated: false }, new Map())] });
    expect(none).toContain('No alerts in the period.');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [59.6, '1 min'],
    [61, '1 min 1 s'],
    [3600, '1 h'],
    [3660, '1 h 1 min'],
    [86_400 * 2 + 3600 * 4 + 59, '2 d 4 h'],
    [-5, '0 s'],
  ])('%s s -> %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));
});

describe('retryDelayMs', () => {
  it('doubles from 250 ms up to 5 s, never past the time left', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((a) => retryDelayMs(a, 60_000))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(retryDelayMs(5, 700)).toBe(700);
    expect(retryDelayMs(1, -3)).toBe(0);
  });
});
