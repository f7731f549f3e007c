import { execFileSync } from 'node:child_process';
import { pdfPages } from '@vigil/testing';
import type { ReportDocument } from './report-document';
import { CELL_CHARS, renderPdf } from './report-pdf';
import { documentDigest } from './report-renderers';

/** The PDF rendering read back with poppler's pdftotext (docs/reports.md#pdf). */
const LONG_ROWS = 300;
const document: ReportDocument = {
  report_id: 'rpt_pdf1',
  type: 'hipaa',
  title: 'HIPAA Security Rule — Audit controls',
  framework: 'HIPAA 45 CFR 164.312(b)',
  generated_at: '2025-03-01T06:00:00.000Z',
  period: { start: '2025-02-01T00:00:00.000Z', end: '2025-03-01T00:00:00.000Z' },
  scope: { all_databases: false, databases: [{ id: 'db_ehr', name: 'Patients (prod)' }, { id: 'db_lab', name: null }] },
  schedule_id: 'rsch_monthly',
  summary: { total_events: 1234567, phi_access: LONG_ROWS },
  events_by_type: [{ type: 'data.sensitive_access', severity: 'warning', count: 1234567 }],
  sections: [
    {
      id: 'phi_access',
      title: 'Access to ePHI',
      controls: ['HIPAA 164.312(b)', 'HIPAA 164.308(a)(1)(ii)(D)'],
      description: 'Who read electronic protected health information.',
      available: true,
      metrics: { events: 1234567, users: LONG_ROWS, mean_seconds_to_resolve: 7260 },
      columns: ['database_user', 'event_count', 'last_at'],
      rows: Array.from({ length: LONG_ROWS }, (_, i) => [`user-${i}`, 1000 + i, '2025-02-27T10:00:00.000Z']),
      truncated: true,
    },
    {
      id: 'privileged',
      title: 'Changes to access rights',
      controls: ['HIPAA 164.312(a)(1)'],
      description: 'The newest statements.',
      available: true,
      metrics: { events: 3 },
      columns: ['user', 'query'],
      rows: [
        ['Zoë Łukasz 日本 😀', "GRANT SELECT ON patients TO \"Ærøskøbing\" -- ≤ 5\u202E\u0000"],
        ['wide', 'x'.repeat(100_000)],
        ['lines', Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n')],
      ],
      truncated: false,
    },
    { id: 'empty', title: 'Security incidents', controls: ['HIPAA 164.308(a)(6)(ii)'], description: 'd', available: true, metrics: { events: 0 }, columns: ['type'], rows: [], truncated: false },
    { id: 'missing', title: 'Not here', controls: ['X 1'], description: 'd', available: false, note: 'This installation lacks it.', metrics: {}, columns: [], rows: [], truncated: false },
  ],
  integrity_checkpoint: null,
};

describe('PDF rendering', () => {
  let pdf: Buffer;
  let pages: string[];
  const digest = documentDigest(document);

  beforeAll(async () => {
    pdf = await renderPdf(document, digest);
    pages = pdfPages(pdf);
  });

  it('a cover page with title, type, period, scope, generation, integrity checkpoint and digest', () => {
    const cover = pages[0]!;
    for (const text of [
      'HIPAA Security Rule — Audit controls',
      'HIPAA 45 CFR 164.312(b)',
      'Report type',
      'hipaa',
      'rpt_pdf1',
      '2025-02-01T00:00:00.000Z to 2025-03-01T00:00:00.000Z (UTC, end exclusive)',
      'db_ehr (Patients (prod)), db_lab',
      '2025-03-01T06:00:00.000Z by Vigil (schedule rsch_monthly)',
      'Integrity checkpoint',
      'Document digest (SHA-256)',
      digest,
    ]) {
      expect(cover).toContain(text);
    }
    expect(cover).not.toContain('user-0');
  });

  it('"Page n of m" and the digest at the foot of every page', () => {
    expect(pages.length).toBeGreaterThan(3);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toContain(`SHA-256 ${digest}`);
    });
  });

  it('summary, control mapping, events by type and every section with its controls, figures and notes', () => {
    const text = pages.join('\n');
    for (const t of [
      'Summary',
      'total events',
      '1,234,567',
      'Control mapping',
      '1. Access to ePHI',
      'Not available',
      'Events by type and severity',
      'data.sensitive_access',
      '2. Changes to access rights',
      'Controls: HIPAA 164.312(b), HIPAA 164.308(a)(1)(ii)(D)',
      '2 h 1 min mean time to resolve',
      '3. Security incidents',
      'No matching events in the period.',
      '4. Not here',
      'This installation lacks it.',
      `Only the first ${LONG_ROWS} rows are listed`,
      'Document digest',
    ]) {
      expect(text).toContain(t);
    }
  });

  it('a long table breaks across pages, every row once, the header repeated on each of its pages', () => {
    const rowsOf = (page: string) => [...page.matchAll(/\buser-(\d+)\b/g)].map((m) => Number(m[1]));
    const tablePages = pages.filter((p) => rowsOf(p).length > 0);
    expect(tablePages.length).toBeGreaterThan(1);
    for (const page of tablePages) expect(page).toMatch(/database user\s+event count\s+last at/);
    expect(tablePages.flatMap(rowsOf)).toEqual(Array.from({ length: LONG_ROWS }, (_, i) => i));
    expect(pages.join('\n')).toMatch(/user-299\s+1,299\s+2025-02-27T10:00:00.000Z/);
  });

  it('text outside Windows-1252 is transliterated or "?", long cells are clipped, tall cells stay within a page', () => {
    const text = pages.join('\n');
    expect(text).toContain('Zoë Lukasz ?? ?');
    expect(text).toContain('"Ærøskøbing" -- <= 5??');
    expect(text).toContain(`${(100_000 - CELL_CHARS).toLocaleString('en-US')} more characters in the JSON download`);
    expect(text).toContain('line 0');
    expect(text).not.toContain('line 399');
  });

  it('is the same bytes on every rendering (its dates are the generation time)', async () => {
    expect((await renderPdf(document, digest)).equals(pdf)).toBe(true);
  });

  it('prints a named checkpoint on the cover: tree size, key, root and signature', async () => {
    const checkpoint = { tree_size: 512, root_hash: '0f'.repeat(32), timestamp: '2025-03-01T05:59:58.000Z', key_id: 'ik_cover', signature: 'QUJD'.repeat(22), log_size: 512 };
    const cover = pdfPages(await renderPdf({ ...document, sections: [], integrity_checkpoint: checkpoint }, 'a'.repeat(64)))[0]!.replace(/\s+/g, '');
    for (const text of ['treesize512', 'ik_cover', checkpoint.root_hash, checkpoint.signature]) expect(cover).toContain(text);
  });

  it('renders a report stored before the integrity checkpoint field existed', async () => {
    const { integrity_checkpoint: _, ...older } = document;
    expect(pdfPages(await renderPdf({ ...older, sections: [] }, 'a'.repeat(64)))[0]).toContain('Integrity checkpoint');
  });

  it('a paragraph running onto a new page goes on in its own font, not the footer\'s', async () => {
    const long = { ...document, sections: [{ ...document.sections[2]!, description: 'A long description sentence that goes on. '.repeat(400) }] };
    const bbox = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: await renderPdf(long, digest) }).toString();
    // Word heights per page: pdftotext's boxes scale with the font size (9 pt text, 7 pt footer).
    const heights = bbox.split('<page ').slice(1).map((page) =>
      [...page.matchAll(/yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">description</g)].map((m) => Number(m[2]) - Number(m[1])),
    );
    const spanned = heights.filter((h) => h.length > 0);
    expect(spanned.length).toBeGreaterThan(1);
    const first = spanned[0]![0]!;
    for (const page of spanned) for (const h of page) expect(h).toBeCloseTo(first, 1);
  });
});
