import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pdfPages } from '@vigil/testing';
import type { ReportDocument } from './report-document';
import { documentDigest } from './report-renderers';

/**
 * The apps run as webpack bundles (tools/webpack.app.config.js). pdfkit must keep working there:
 * bundled, a package that reads files beside its own code would look for them under dist/. This
 * bundles a small entry that renders a PDF with the apps' configuration, under dist/ like the real
 * bundles (so it resolves npm packages the same way), runs it with node and reads the PDF back.
 */
describe('PDF rendering from a webpack bundle', () => {
  const root = resolve(__dirname, '../../../..');
  const out = join(root, 'dist', 'test-bundles', `pdf-${randomUUID()}`);
  const node = join(root, 'node_modules', '.bin', 'node');

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('keeps pdfkit a run-time require and renders the report as from the sources', () => {
    execFileSync(
      join(root, 'node_modules', '.bin', 'webpack'),
      ['--config', 'tools/webpack.app.config.js', '--env', 'app=pdf-bundle-check', '--env', 'entry=apps/event-ingest/src/testing/pdf-bundle-entry.ts', '--output-path', out],
      { cwd: root, stdio: 'pipe' },
    );
    const bundle = readFileSync(join(out, 'main.js'), 'utf8');
    expect(bundle).toContain('require("pdfkit")');
    expect(bundle).not.toContain('class LineWrapper');

    const document: ReportDocument = {
      report_id: 'rpt_bundle',
      type: 'gdpr',
      title: 'GDPR — Access to and export of personal data',
      framework: 'GDPR',
      generated_at: '2025-05-01T00:00:00.000Z',
      period: { start: '2025-04-01T00:00:00.000Z', end: '2025-05-01T00:00:00.000Z' },
      scope: { all_databases: false, databases: [{ id: 'db_crm', name: 'Kunden Zoë' }] },
      schedule_id: null,
      summary: { total_events: 1 },
      events_by_type: [],
      sections: [
        { id: 'personal_data_access', title: 'Access to personal data', controls: ['GDPR Art. 32(1)(b)'], description: 'd', available: true, metrics: { events: 1 }, columns: ['user', 'events'], rows: [['Łukasz 😀', 1]], truncated: false },
      ],
      integrity_checkpoint: null,
    };
    const pdf = execFileSync(node, [join(out, 'main.js')], { input: JSON.stringify(document), cwd: out });
    const text = pdfPages(pdf).join('\n');
    for (const t of ['GDPR — Access to and export of personal data', 'rpt_bundle', 'Kunden Zoë', '1. Access to personal data', 'Lukasz ?', 'Page 2 of 2', documentDigest(document)]) {
      expect(text).toContain(t);
    }
  }, 120_000);
});
