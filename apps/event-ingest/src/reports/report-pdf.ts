import PDFDocument from 'pdfkit';
import type { Cell, ReportDocument } from './report-document';
import { clip, columnWidths, paginateTable, toWinAnsi } from './pdf-layout';
import { checkpointLines, formatNumber, metricText, scopeText } from './report-text';

/**
 * The PDF rendering of a stored report document (docs/reports.md#pdf): a cover page (title, type,
 * period, scope, generation, integrity checkpoint, digest), the summary, scope, control mapping and
 * events-by-type tables, then one numbered section per requirement with its figures and table;
 * "Page n of m" and the digest in every page's footer. It reads the same document as the JSON, CSV
 * and HTML renderings and computes nothing of its own.
 *
 * Only the standard PDF fonts are used (Helvetica, Courier: built into every PDF reader and into
 * pdfkit, no font file is read at run time); they show Windows-1252 text, so every string passes
 * through `toWinAnsi`. Memory: one page at a time plus the finished bytes (`renderPdf`); the
 * document it renders is itself bounded (at most ROW_LIMIT rows per section, cells clipped to
 * CELL_CHARS), so is the PDF (under 3 MB for a report at every limit).
 * The same document always gives the same bytes: the PDF's dates are the report's generation time.
 */

const PAGE = { size: 'A4', layout: 'landscape' as const, margin: 40 };
const FOOTER_GAP = 16;
const CELL_PADDING = 3;
const TABLE_FONT_SIZE = 7;
const TEXT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MONO = 'Courier';
/** The longest cell text shown; the JSON, CSV and HTML downloads keep the whole of it. */
export const CELL_CHARS = 300;
/** Characters of a cell measured for its column's width: longer text wraps whatever its width. */
const WIDTH_SAMPLE = 200;
/** Rows drawn between two yields to the event loop, so a long report does not stall the service's other work. */
const ROWS_PER_YIELD = 100;
/** Databases named on the cover; all of them are in the Scope table. */
const COVER_DATABASES = 12;

/** A table cell as laid out: its text, its width on one line, whether it is a number (right-aligned) and fits on one line. */
interface TableCell {
  text: string;
  width: number;
  right: boolean;
  single?: boolean;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function renderPdf(document: ReportDocument, digest: string): Promise<Buffer> {
  // Two passes keep memory to about one page: the first lays the report out and only counts its
  // pages (its output is thrown away as it is written), the second writes each page's footer,
  // "Page n of m", as the page begins. Keeping every page open until the end to number them
  // (pdfkit's bufferPages) held ~400 MB for a report at every limit.
  const { pages } = await draw(document, digest, null);
  const { bytes } = await draw(document, digest, pages);
  return bytes;
}

async function draw(document: ReportDocument, digest: string, pageCount: number | null): Promise<{ pages: number; bytes: Buffer }> {
  const generated = new Date(document.generated_at);
  const pdf = new PDFDocument({
    size: PAGE.size,
    layout: PAGE.layout,
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.margin + FOOTER_GAP },
    autoFirstPage: false,
    // The counting pass is never read: no time spent compressing it.
    compress: pageCount !== null,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: toWinAnsi(`${document.title} (${document.report_id})`),
      Author: 'Vigil',
      Subject: toWinAnsi(`${document.framework}, ${document.period.start} to ${document.period.end}`),
      Keywords: `${document.type} ${document.report_id} sha256:${digest}`,
      Creator: 'Vigil',
      CreationDate: generated,
      ModDate: generated,
    },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => {
    if (pageCount !== null) chunks.push(chunk);
  });
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });

  const writer = new PdfWriter(pdf);
  let page = 0;
  pdf.on('pageAdded', () => writer.footer(document, digest, ++page, pageCount));
  pdf.addPage();
  writer.cover(document, digest);
  pdf.addPage();
  await writer.overview(document);
  for (const [i, section] of document.sections.entries()) await writer.section(section, i + 1);
  writer.closing(digest);
  pdf.end();
  await ended;
  return { pages: page, bytes: Buffer.concat(chunks) };
}

class PdfWriter {
  constructor(private readonly pdf: PDFKit.PDFDocument) {}

  private get left() {
    return this.pdf.page.margins.left;
  }

  private get width() {
    return this.pdf.page.width - this.pdf.page.margins.left - this.pdf.page.margins.right;
  }

  private text(value: string, options: { font?: string; size?: number; gap?: number; color?: string } = {}) {
    this.pdf
      .font(options.font ?? TEXT)
      .fontSize(options.size ?? 9)
      .fillColor(options.color ?? '#111111')
      .text(toWinAnsi(value), this.left, this.pdf.y, { width: this.width });
    if (options.gap) this.pdf.moveDown(options.gap);
  }

  private heading(value: string) {
    // A heading never stands alone at the foot of a page.
    if (this.pdf.y + 60 > this.pdf.page.maxY()) this.pdf.addPage();
    this.pdf.moveDown(0.6);
    this.text(value, { font: BOLD, size: 13, gap: 0.3 });
  }

  cover(document: ReportDocument, digest: string) {
    const pdf = this.pdf;
    pdf.y = 90;
    this.text('VIGIL COMPLIANCE REPORT', { font: BOLD, size: 10, color: '#555555', gap: 0.6 });
    this.text(document.title, { font: BOLD, size: 22, gap: 0.2 });
    this.text(document.framework, { size: 13, color: '#333333', gap: 1.5 });
    const databases = document.scope.databases.slice(0, COVER_DATABASES).map((d) => (d.name && d.name !== d.id ? `${d.id} (${d.name})` : d.id));
    const more = document.scope.databases.length - databases.length;
    const rows: [string, string][] = [
      ['Report type', `${document.type} (${document.framework})`],
      ['Report id', document.report_id],
      ['Period', `${document.period.start} to ${document.period.end} (UTC, end exclusive)`],
      ['Scope', `${scopeText(document)}${databases.length ? `: ${databases.join(', ')}${more > 0 ? `, and ${more} more (see Scope)` : ''}` : ''}`],
      ['Generated', `${document.generated_at} by Vigil${document.schedule_id ? ` (schedule ${document.schedule_id})` : ' (on request)'}`],
    ];
    for (const [label, value] of rows) this.field(label, value);
    for (const [label, value] of checkpointLines(document)) this.field(label, value, label === 'Integrity checkpoint' ? TEXT : MONO);
    this.field('Document digest (SHA-256)', digest, MONO);
    this.pdf.moveDown(0.4);
    this.text(
      'The digest is the SHA-256 of the JSON download of this report (GET /v1/reports/<id>/download?format=json), byte for byte: ' +
        'recompute it from that file (for example: sha256sum <file>.json) to check that this PDF and the JSON are the same report. ' +
        'Text outside the Windows-1252 character set is transliterated or shown as "?" in this PDF; the JSON holds it exactly.',
      { size: 8, color: '#555555' },
    );
  }

  private field(label: string, value: string, font = TEXT) {
    const pdf = this.pdf;
    const labelWidth = 150;
    const y = pdf.y;
    pdf.font(BOLD).fontSize(10).fillColor('#333333').text(toWinAnsi(label), this.left, y, { width: labelWidth - 10 });
    const afterLabel = pdf.y;
    pdf.font(font).fontSize(10).fillColor('#111111').text(toWinAnsi(value), this.left + labelWidth, y, { width: this.width - labelWidth });
    pdf.y = Math.max(pdf.y, afterLabel) + 6;
  }

  async overview(document: ReportDocument) {
    this.text('Summary', { font: BOLD, size: 13, gap: 0.3 });
    await this.table(
      ['figure', 'value'],
      Object.entries(document.summary).map(([k, v]) => [k.replace(/_/g, ' '), v]),
    );
    this.heading('Scope');
    this.text(scopeText(document), { gap: 0.3 });
    if (document.scope.databases.length) await this.table(['database_id', 'database_name'], document.scope.databases.map((d) => [d.id, d.name]));
    this.heading('Control mapping');
    await this.table(
      ['section', 'controls', 'status'],
      document.sections.map((s, i) => [`${i + 1}. ${s.title}`, s.controls.join(', '), s.available ? 'Included' : 'Not available']),
    );
    this.heading('Events by type and severity');
    if (document.events_by_type.length) await this.table(['type', 'severity', 'events'], document.events_by_type.map((e) => [e.type, e.severity, e.count]));
    else this.text('No events in the period.', { color: '#555555' });
  }

  async section(section: ReportDocument['sections'][number], number: number) {
    this.heading(`${number}. ${section.title}`);
    this.text(`Controls: ${section.controls.join(', ')}`, { font: BOLD, gap: 0.2 });
    this.text(section.description, { gap: 0.3 });
    const figures = Object.entries(section.metrics).map(([k, v]) => {
      const m = metricText(k, v);
      return `${m.value} ${m.label}`;
    });
    if (figures.length) this.text(figures.join('   ·   '), { font: BOLD, gap: 0.4 });
    if (!section.available) return this.text(section.note ?? 'Not available.', { color: '#555555' });
    if (!section.rows.length) return this.text(section.id === 'alerts' ? 'No alerts in the period.' : 'No matching events in the period.', { color: '#555555' });
    await this.table(section.columns, section.rows);
    if (section.truncated) {
      this.text(`Only the first ${section.rows.length} rows are listed; the figures above cover all of them. The JSON and CSV downloads hold the same rows.`, {
        color: '#555555',
      });
    }
  }

  /** A table across as many pages as it needs, the header repeated on each (pdf-layout.ts paginateTable). */
  private async table(columns: string[], rows: Cell[][]) {
    const pdf = this.pdf;
    const numeric = columns.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || r[i] === null));
    // Each cell is measured once: its width on one line (long text only in part: it wraps anyway).
    // A cell that fits its column on one line is laid out and drawn without the line wrapper,
    // which is most of the rendering time otherwise.
    const measured = (text: string, right: boolean): TableCell => ({ text, right, width: pdf.widthOfString(text.length > WIDTH_SAMPLE ? text.slice(0, WIDTH_SAMPLE) : text) });
    pdf.font(BOLD).fontSize(TABLE_FONT_SIZE);
    const header = columns.map((c) => measured(toWinAnsi(c.replace(/_/g, ' ')), false));
    pdf.font(TEXT);
    const body = rows.map((r) =>
      r.map((c, i) => measured(c === null ? '—' : typeof c === 'number' ? formatNumber(c) : toWinAnsi(clip(c, CELL_CHARS)), numeric[i] ?? false)),
    );
    const natural = header.map((h, i) => body.reduce((widest, r) => Math.max(widest, r[i]?.width ?? 0), h.width) + 2 * CELL_PADDING + 1);
    const widths = columnWidths(natural, this.width);
    const lineHeight = pdf.currentLineHeight(true);
    const fits = (cell: TableCell, width: number) => cell.text.length <= WIDTH_SAMPLE && cell.width <= width - 2 * CELL_PADDING && !cell.text.includes('\n');
    const measure = (cells: TableCell[], font: string) => {
      pdf.font(font);
      let height = lineHeight;
      cells.forEach((cell, i) => {
        const width = widths[i] ?? 0;
        cell.single = fits(cell, width);
        if (!cell.single) height = Math.max(height, pdf.heightOfString(cell.text, { width: Math.max(1, width - 2 * CELL_PADDING) }));
      });
      return height + 2 * CELL_PADDING;
    };
    const pageSpace = pdf.page.maxY() - pdf.page.margins.top;
    const headerHeight = Math.min(measure(header, BOLD), pageSpace / 4);
    const maxRow = pageSpace - headerHeight;
    const heights: number[] = [];
    for (const [n, r] of body.entries()) {
      heights.push(Math.min(measure(r, TEXT), maxRow));
      if (n % ROWS_PER_YIELD === ROWS_PER_YIELD - 1) await yieldToEventLoop();
    }

    let drawn = 0;
    for (const page of paginateTable(heights, headerHeight, pdf.page.maxY() - pdf.y, pageSpace)) {
      if (page.newPage) pdf.addPage();
      this.row(header, widths, headerHeight, BOLD, '#eeeeee');
      for (const i of page.rows) {
        this.row(body[i] ?? [], widths, heights[i] ?? lineHeight, TEXT, null);
        if (++drawn % ROWS_PER_YIELD === 0) await yieldToEventLoop();
      }
    }
    pdf.x = this.left;
    pdf.moveDown(0.6);
  }

  private row(cells: TableCell[], widths: number[], height: number, font: string, fill: string | null) {
    const pdf = this.pdf;
    const y = pdf.y;
    let x = this.left;
    pdf.font(font).fontSize(TABLE_FONT_SIZE).fillColor('#111111');
    cells.forEach((cell, i) => {
      const w = widths[i] ?? 0;
      if (fill) pdf.rect(x, y, w, height).fill(fill).fillColor('#111111');
      pdf.rect(x, y, w, height).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
      if (cell.single) {
        // Without a width pdfkit writes the text as it is, skipping its line wrapper.
        pdf.text(cell.text, cell.right ? x + w - CELL_PADDING - cell.width : x + CELL_PADDING, y + CELL_PADDING, { lineBreak: false });
      } else {
        pdf.text(cell.text, x + CELL_PADDING, y + CELL_PADDING, { width: w - 2 * CELL_PADDING, height: height - 2 * CELL_PADDING, ellipsis: true, align: cell.right ? 'right' : 'left' });
      }
      x += w;
    });
    pdf.y = y + height;
  }

  closing(digest: string) {
    this.heading('Document digest');
    this.text('SHA-256 of the JSON download of this report (GET /v1/reports/<id>/download?format=json), byte for byte:', { gap: 0.2 });
    this.text(digest, { font: MONO, size: 10, gap: 0.4 });
    this.text('Generated from Vigil\'s immutable audit event store and its alert records.', { color: '#555555' });
  }

  /**
   * The report id, the digest and "Page n of m" at the foot of a page, written as the page begins
   * (also when pdfkit starts one in the middle of a paragraph): what the footer changes (position,
   * font, colours) is put back, and the bottom margin is lifted while it writes, or writing below
   * it would start another page.
   */
  footer(document: ReportDocument, digest: string, page: number, pageCount: number | null) {
    const pdf = this.pdf;
    // pdfkit keeps the current font and fill colour on the document, and a paragraph that moves to
    // a new page goes on with them.
    const state = pdf as unknown as { _font?: { name?: string }; _fontSize?: number; _fillColor?: [PDFKit.Mixins.ColorValue, number?] };
    const { x, y } = pdf;
    const font = state._font?.name;
    const size = state._fontSize;
    const fill = state._fillColor;
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    pdf.save();
    const at = pdf.page.height - PAGE.margin - 4;
    pdf.moveTo(this.left, at - 4).lineTo(this.left + this.width, at - 4).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
    pdf.font(TEXT).fontSize(7).fillColor('#555555');
    pdf.text(toWinAnsi(`Vigil report ${document.report_id} · SHA-256 ${digest}`), this.left, at, { lineBreak: false });
    const numbering = `Page ${page} of ${pageCount ?? page}`;
    pdf.text(numbering, this.left + this.width - pdf.widthOfString(numbering), at, { lineBreak: false });
    pdf.restore();
    pdf.page.margins.bottom = bottom;
    if (font) pdf.font(font);
    if (size) pdf.fontSize(size);
    if (fill) pdf.fillColor(...fill);
    pdf.x = x;
    pdf.y = y;
  }
}
