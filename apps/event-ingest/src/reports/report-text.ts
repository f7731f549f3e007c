import type { ReportDocument } from './report-document';

/** Wording shared by the HTML and PDF renderings (docs/reports.md#formats). Pure. */

export const formatNumber = (n: number) => n.toLocaleString('en-US');

/** A duration in seconds as an auditor reads it: "45 s", "12 min 5 s", "3 h 20 min", "2 d 4 h". Pure. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${Math.floor((s % 86_400) / 3600) ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

/** One figure of a section as a reader sees it: durations (metrics named `…seconds_to…`) in words, the rest as numbers. Pure. */
export function metricText(key: string, value: number): { value: string; label: string } {
  if (key.includes('seconds_to_')) {
    const [how, , , what] = key.split('_');
    return { value: formatDuration(value), label: `${how} time to ${what}` };
  }
  return { value: formatNumber(value), label: key.replace(/_/g, ' ') };
}

/** The report's scope in words. Pure. */
export function scopeText(document: ReportDocument): string {
  return document.scope.all_databases
    ? `All monitored databases (${document.scope.databases.length} with events in the period)`
    : `${document.scope.databases.length} database(s)`;
}

/**
 * What the renderings say of the report's integrity checkpoint (report-document.ts `integrity_checkpoint`),
 * as label/value lines. Pure.
 */
export function checkpointLines(document: ReportDocument): [string, string][] {
  const cp = document.integrity_checkpoint;
  if (cp === undefined) return [['Integrity checkpoint', 'None: this report was generated before reports named integrity checkpoints.']];
  if (cp === null) return [['Integrity checkpoint', 'None: the audit log had no signed checkpoint yet when this report was computed.']];
  const covered =
    cp.log_size <= cp.tree_size
      ? `every event this report counted (log positions below ${formatNumber(cp.log_size)}) is in this checkpoint's tree`
      : `events at log positions below ${formatNumber(cp.tree_size)} are in this checkpoint's tree; the newest ${formatNumber(cp.log_size - cp.tree_size)} ` +
        `(positions ${formatNumber(cp.tree_size)} to ${formatNumber(cp.log_size - 1)}) are covered by later checkpoints`;
  return [
    ['Integrity checkpoint', `tree size ${formatNumber(cp.tree_size)}, signed ${cp.timestamp} with key ${cp.key_id}; ${covered}`],
    ['Checkpoint root (SHA-256)', cp.root_hash],
    ['Checkpoint signature (Ed25519)', cp.signature],
  ];
}
