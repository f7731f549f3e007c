import { createHash } from 'node:crypto';
import type { ReportContentResponse, ReportFormat } from '@vigil/contracts';
import type { Cell, ReportDocument } from './report-document';
import { renderPdf } from './report-pdf';
import { checkpointLines, formatNumber, metricText, scopeText } from './report-text';

/** JSON, CSV, HTML and PDF renderings of a stored report document (docs/reports.md#formats). */
export async function renderReport(document: ReportDocument, format: ReportFormat): Promise<ReportContentResponse> {
  const base = `${document.report_id}-${document.type}`;
  switch (format) {
    case 'json':
      return { content_type: 'application/json; charset=utf-8', filename: `${base}.json`, body: renderJson(document), encoding: 'utf8' };
    case 'csv':
      return { content_type: 'text/csv; charset=utf-8', filename: `${base}.csv`, body: renderCsv(document), encoding: 'utf8' };
    case 'html':
      return { content_type: 'text/html; charset=utf-8', filename: `${base}.html`, body: renderHtml(document), encoding: 'utf8' };
    case 'pdf':
      return { ...pdfResponse(document.report_id, document.type), body: (await renderPdf(document, documentDigest(document))).toString('base64') };
  }
}

/** How a PDF download is described (its bytes travel in base64). */
export function pdfResponse(reportId: string, type: string): Omit<ReportContentResponse, 'body'> {
  return { content_type: 'application/pdf', filename: `${reportId}-${type}.pdf`, encoding: 'base64' };
}

/**
 * The JSON download, exactly: the stored document in canonical form (`canonicalJson`), so its
 * bytes depend on the report's content only, not on the order in which storage hands back keys.
 */
export function renderJson(document: ReportDocument): string {
  return canonicalJson(document);
}

/**
 * JSON with every object's keys in ascending order of UTF-16 code units (the order of RFC 8785)
 * and two-space indentation, no trailing newline: `JSON.stringify(value, null, 2)` of the same
 * value with sorted keys (written out here because JavaScript objects put integer-like keys first
 * whatever their insertion order). Undefined members are left out, as JSON.stringify does. Pure.
 */
export function canonicalJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return `[\n${value.map((v) => `${inner}${canonicalJson(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined && typeof record[k] !== 'function')
    .sort();
  if (!keys.length) return '{}';
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${canonicalJson(record[k], inner)}`).join(',\n')}\n${indent}}`;
}

/**
 * The report's digest, printed in the HTML and PDF renderings: the SHA-256 (lowercase hex) of the
 * JSON download's bytes (`renderJson`, UTF-8), so anyone holding the JSON file can recompute it
 * (`sha256sum`) and tie a printed or filed copy to the stored report. Pure.
 */
export function documentDigest(document: ReportDocument): string {
  return createHash('sha256').update(renderJson(document), 'utf8').digest('hex');
}

/**
 * CSV (RFC 4180): one table, every section's rows prefixed by the section id, after header rows
 * for the report itself. A cell that a spreadsheet would run as a formula (= + - @ at the start)
 * is prefixed with a quote (CSV injection).
 */
export function renderCsv(document: ReportDocument): string {
  const lines: string[] = [];
  const row = (cells: Cell[]) => lines.push(cells.map(csvCell).join(','));
  row(['report_id', document.report_id]);
  row(['title', document.title]);
  row(['framework', document.framework]);
  row(['period_start', document.period.start]);
  row(['period_end', document.period.end]);
  row(['databases', document.scope.all_databases ? 'all' : document.scope.databases.map((d) => d.id).join(' ')]);
  row(['generated_at', document.generated_at]);
  const cp = document.integrity_checkpoint;
  if (cp) {
    row(['integrity_tree_size', cp.tree_size]);
    row(['integrity_root_hash', cp.root_hash]);
    row(['integrity_checkpoint_timestamp', cp.timestamp]);
    row(['integrity_key_id', cp.key_id]);
    row(['integrity_signature', cp.signature]);
    row(['integrity_log_size', cp.log_size]);
  }
  lines.push('');
  row(['section', 'metric', 'value']);
  for (const [k, v] of Object.entries(document.summary)) row(['summary', k, v]);
  for (const s of document.sections) for (const [k, v] of Object.entries(s.metrics)) row([s.id, k, v]);
  for (const s of document.sections) {
    lines.push('');
    row(['section', 'controls', ...s.columns]);
    if (!s.available) row([s.id, s.controls.join('; '), s.note ?? 'not available']);
    for (const r of s.rows) row([s.id, s.controls.join('; '), ...r]);
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}



function metricHtml(key: string, value: number): string {
  const m = metricText(key, value);
  return `<span class="metric"><b>${escapeHtml(m.value)}</b> ${escapeHtml(m.label)}</span>`;
}

/** A self-contained HTML document (no scripts, no external resources) that prints well. */
export function renderHtml(document: ReportDocument): string {
  const e = escapeHtml;
  const scope = scopeText(document);
  const dbList = document.scope.databases.map((d) => `<li><code>${e(d.id)}</code>${d.name && d.name !== d.id ? ` — ${e(d.name)}` : ''}</li>`).join('');
  const summary = Object.entries(document.summary)
    .map(([k, v]) => `<tr><th scope="row">${e(k.replace(/_/g, ' '))}</th><td class="n">${formatNumber(v)}</td></tr>`)
    .join('');
  const mapping = document.sections
    .map((s) => `<tr><td><a href="#${e(s.id)}">${e(s.title)}</a></td><td>${s.controls.map(e).join('<br>')}</td><td>${s.available ? 'Included' : 'Not available'}</td></tr>`)
    .join('');
  const sections = document.sections
    .map((s, i) => {
      const metrics = Object.entries(s.metrics)
        .map(([k, v]) => metricHtml(k, v))
        .join(' ');
      const table = s.available
        ? s.rows.length
          ? `<table><thead><tr>${s.columns.map((c) => `<th>${e(c.replace(/_/g, ' '))}</th>`).join('')}</tr></thead><tbody>${s.rows
              .map((r) => `<tr>${r.map((c) => `<td${typeof c === 'number' ? ' class="n"' : ''}>${c === null ? '—' : e(typeof c === 'number' ? formatNumber(c) : c)}</td>`).join('')}</tr>`)
              .join('')}</tbody></table>${s.truncated ? `<p class="note">Only the first ${s.rows.length} rows are listed; the figures above cover all of them. The JSON and CSV downloads hold the same rows.</p>` : ''}`
          : `<p class="note">${s.id === 'alerts' ? 'No alerts in the period.' : 'No matching events in the period.'}</p>`
        : `<p class="note">${e(s.note ?? 'Not available.')}</p>`;
      return `<section id="${e(s.id)}"><h2>${i + 1}. ${e(s.title)}</h2><p class="controls">Controls: ${s.controls.map(e).join(', ')}</p><p>${e(s.description)}</p><p>${metrics}</p>${table}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(document.title)} — ${e(document.report_id)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111;max-width:1100px;margin:2em auto;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}.meta th{width:14em}.note{color:#555;font-style:italic}
.controls{color:#333;font-weight:600}.metric{display:inline-block;margin-right:1.5em}code{font-size:.95em}
footer{margin-top:3em;border-top:1px solid #ccc;padding-top:.5em;color:#555;font-size:.9em}
@media print{body{margin:0;max-width:none}section{page-break-inside:avoid}a{color:inherit;text-decoration:none}}
</style></head><body>
<header><h1>${e(document.title)}</h1><p>${e(document.framework)}</p></header>
<table class="meta"><tbody>
<tr><th scope="row">Report id</th><td><code>${e(document.report_id)}</code></td></tr>
<tr><th scope="row">Period</th><td>${e(document.period.start)} to ${e(document.period.end)} (UTC, end exclusive)</td></tr>
<tr><th scope="row">Scope</th><td>${e(scope)}<ul>${dbList}</ul></td></tr>
<tr><th scope="row">Generated</th><td>${e(document.generated_at)} by Vigil${document.schedule_id ? ` (schedule <code>${e(document.schedule_id)}</code>)` : ' (on request)'}</td></tr>
${checkpointLines(document).map(([label, value]) => `<tr><th scope="row">${e(label)}</th><td>${label === 'Integrity checkpoint' ? e(value) : `<code>${e(value)}</code>`}</td></tr>`).join('\n')}
</tbody></table>
<h2>Summary</h2><table><tbody>${summary}</tbody></table>
<h2>Control mapping</h2><table><thead><tr><th>Section</th><th>Controls</th><th>Status</th></tr></thead><tbody>${mapping}</tbody></table>
${sections}
<footer>Generated from Vigil's immutable audit event store and its alert records. Document digest (SHA-256 of the JSON download of this report, byte for byte): <code>${documentDigest(document)}</code>.</footer>
</body></html>
`;
}
