import type { ReportDocument } from './report-document';
import { documentDigest, renderCsv, renderHtml } from './report-renderers';

const document: ReportDocument = {
  report_id: 'rpt_1',
  type: 'pci_dss',
  title: 'PCI DSS Requirement 10 — Audit log review',
  framework: 'PCI DSS v4.0',
  generated_at: '2025-02-01T00:00:00.000Z',
  period: { start: '2025-01-01T00:00:00.000Z', end: '2025-02-01T00:00:00.000Z' },
  scope: { all_databases: false, databases: [{ id: 'db_a', name: 'Payments <prod>' }] },
  schedule_id: null,
  summary: { total_events: 1234567, cardholder_data_access: 2 },
  events_by_type: [],
  sections: [
    {
      id: 'cardholder_data_access',
      title: 'Individual user access to cardholder data',
      controls: ['PCI DSS 10.2.1.1'],
      description: 'd',
      available: true,
      metrics: { events: 2, users: 2 },
      columns: ['user', 'events'],
      rows: [
        ['=HYPERLINK("http://x")', 1],
        ['<script>alert(1)</script>', 1],
      ],
      truncated: false,
    },
    // A section whose data is not available renders as such (alerts always are: a report without them fails, docs/reports.md#alerts).
    { id: 'unavailable', title: 'Unavailable', controls: ['PCI DSS 10.9.9'], description: 'd', available: false, note: 'not yet', metrics: {}, columns: [], rows: [], truncated: false },
  ],
};

describe('report renderings', () => {
  it('CSV: header rows, metrics, one row per section row, formulas defused and quotes escaped', () => {
    const csv = renderCsv(document);
    expect(csv).toContain('report_id,rpt_1\r\n');
    expect(csv).toContain('summary,total_events,1234567\r\n');
    expect(csv).toContain('cardholder_data_access,users,2\r\n');
    expect(csv).toContain(`cardholder_data_access,PCI DSS 10.2.1.1,"'=HYPERLINK(""http://x"")",1\r\n`);
    expect(csv).toContain('unavailable,PCI DSS 10.9.9,not yet\r\n');
  });

  it('HTML: escapes every value, shows period, scope, control mapping, totals and the digest', () => {
    const html = renderHtml(document);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Payments &lt;prod&gt;');
    expect(html).toContain('2025-01-01T00:00:00.000Z to 2025-02-01T00:00:00.000Z');
    expect(html).toContain('1,234,567');
    expect(html).toContain('<td>PCI DSS 10.9.9</td><td>Not available</td>');
    expect(html).toContain(documentDigest(document));
  });
});
