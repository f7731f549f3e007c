import type { ReportDocument } from './report-document';
import { createHash } from 'node:crypto';
import { canonicalJson, documentDigest, renderCsv, renderHtml, renderJson, renderReport } from './report-renderers';

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
    expect(html).toContain('<th scope="row">Integrity checkpoint</th><td>None:');
  });

  it('names the integrity checkpoint in every rendering, and says when it does not cover the newest events', () => {
    const checkpoint = { tree_size: 10_000, root_hash: 'ab'.repeat(32), timestamp: '2025-02-01T00:00:05.000Z', key_id: 'ik_1', signature: 'c2ln'.repeat(22), log_size: 10_042 };
    const signed = { ...document, integrity_checkpoint: checkpoint };
    const html = renderHtml(signed);
    expect(html).toContain('tree size 10,000, signed 2025-02-01T00:00:05.000Z with key ik_1');
    expect(html).toContain('the newest 42 (positions 10,000 to 10,041) are covered by later checkpoints');
    expect(html).toContain(`<th scope="row">Checkpoint root (SHA-256)</th><td><code>${checkpoint.root_hash}</code></td>`);
    expect(html).toContain(`<code>${checkpoint.signature}</code>`);
    const csv = renderCsv(signed);
    for (const line of ['integrity_tree_size,10000', `integrity_root_hash,${checkpoint.root_hash}`, 'integrity_key_id,ik_1', 'integrity_log_size,10042']) expect(csv).toContain(`${line}\r\n`);
    expect(renderCsv(document)).not.toContain('integrity_');
    expect(renderHtml({ ...signed, integrity_checkpoint: { ...checkpoint, log_size: 10_000 } })).toContain('every event this report counted (log positions below 10,000) is in this checkpoint');
    const { integrity_checkpoint: _, ...older } = document;
    expect(renderHtml(older)).toContain('generated before reports named integrity checkpoints');
  });

  it('JSON: the canonical form, keys sorted at every level, whatever order the stored document has them in', () => {
    const shuffled = JSON.parse(JSON.stringify(document), (_key, value) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    );
    expect(Object.keys(shuffled)[0]).not.toBe(Object.keys(document)[0]);
    expect(renderJson(shuffled)).toBe(renderJson(document));
    expect(JSON.parse(renderJson(document))).toEqual(document);
    const json = renderJson(document);
    expect(json.indexOf('"events_by_type"')).toBeLessThan(json.indexOf('"framework"'));
  });

  it('canonical JSON: JSON.stringify with two spaces and sorted keys, integer-like keys and undefined members included', () => {
    const value = { b: [1, 'x', null, { z: true, a: [] }], a: { '10': 1, '9': 2, b: {} }, u: undefined, n: -1.5e-7 };
    expect(canonicalJson(value)).toBe(
      '{\n  "a": {\n    "10": 1,\n    "9": 2,\n    "b": {}\n  },\n  "b": [\n    1,\n    "x",\n    null,\n    {\n      "a": [],\n      "z": true\n    }\n  ],\n  "n": -1.5e-7\n}',
    );
    const plain = { b: [1, 'x', null, { z: true, a: [] }], a: { y: 1, x: 'é\u2028"' }, n: -1.5e-7 };
    expect(canonicalJson(plain)).toBe(JSON.stringify({ a: { x: 'é\u2028"', y: 1 }, b: [1, 'x', null, { a: [], z: true }], n: -1.5e-7 }, null, 2));
  });

  it('digest: the SHA-256 of the JSON download, byte for byte, printed in HTML and PDF', async () => {
    const json = await renderReport(document, 'json');
    expect(documentDigest(document)).toBe(createHash('sha256').update(Buffer.from(json.body, 'utf8')).digest('hex'));
    expect(json).toMatchObject({ content_type: 'application/json; charset=utf-8', filename: 'rpt_1-pci_dss.json', encoding: 'utf8' });
    const pdf = await renderReport(document, 'pdf');
    expect(pdf).toMatchObject({ content_type: 'application/pdf', filename: 'rpt_1-pci_dss.pdf', encoding: 'base64' });
    expect(Buffer.from(pdf.body, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });
});
