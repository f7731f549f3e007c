import { createHash } from 'node:crypto';
import type { ReportFormat } from '@vigil/contracts';
import type { Cell, ReportDocument } from './report-document';

/** JSON, CSV and HTML renderings of a stored report document (docs/reports.md#formats). Pure. */
export function renderReport(document: ReportDocument, format: ReportFormat): { content_type: string; filename: string; body: string } {
  const base = `${document.report_id}-${document.type}`;
  switch (format) {
    case 'json':
      return { content_type: 'application/json; charset=utf-8', filename: `${base}.json`, body: JSON.stringify(document, null, 2) };
    case 'csv':
      return { content_type: 'text/csv; charset=utf-8', filename: `${base}.csv`, body: renderCsv(document) };
    case 'html':
      return { content_type: 'text/html; charset=utf-8', filename: `${base}.html`, body: renderHtml(document) };
  }
}

/** The SHA-256 of the JSON document: printed in the HTML so a copy can be checked against the stored report. */
export function documentDigest(document: ReportDocument): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex');
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

const fmt = (n: number) => n.toLocaleString('en-US');

/** A duration in seconds as an auditor reads it: "45 s", "12 min 5 s", "3 h 20 min", "2 d 4 h". Pure. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${Math.floor((s % 86_400) / 3600) ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

/** One figure of a section: durations (metrics named `…seconds…`) in words, the rest as numbers. */
function metricHtml(key: string, value: number): string {
  if (key.includes('seconds_to_')) {
    const [how, , , what] = key.split('_');
    return `<span class="metric"><b>${escapeHtml(formatDuration(value))}</b> ${escapeHtml(`${how} time to ${what}`)}</span>`;
  }
  return `<span class="metric"><b>${fmt(value)}</b> ${escapeHtml(key.replace(/_/g, ' '))}</span>`;
}

/** A self-contained HTML document (no scripts, no external resources) that prints well. */
export function renderHtml(document: ReportDocument): string {
  const e = escapeHtml;
  const scope = document.scope.all_databases
    ? `All monitored databases (${document.scope.databases.length} with events in the period)`
    : `${document.scope.databases.length} database(s)`;
  const dbList = document.scope.databases.map((d) => `<li><code>${e(d.id)}</code>${d.name && d.name !== d.id ? ` — ${e(d.name)}` : ''}</li>`).join('');
  const summary = Object.entries(document.summary)
    .map(([k, v]) => `<tr><th scope="row">${e(k.replace(/_/g, ' '))}</th><td class="n">${fmt(v)}</td></tr>`)
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
              .map((r) => `<tr>${r.map((c) => `<td${typeof c === 'number' ? ' class="n"' : ''}>${c === null ? '—' : e(typeof c === 'number' ? fmt(c) : c)}</td>`).join('')}</tr>`)
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
</tbody></table>
<h2>Summary</h2><table><tbody>${summary}</tbody></table>
<h2>Control mapping</h2><table><thead><tr><th>Section</th><th>Controls</th><th>Status</th></tr></thead><tbody>${mapping}</tbody></table>
${sections}
<footer>Generated from Vigil's immutable audit event store and its alert records. Document digest (SHA-256 of the JSON rendering): <code>${documentDigest(document)}</code>.</footer>
</body></html>
`;
}
