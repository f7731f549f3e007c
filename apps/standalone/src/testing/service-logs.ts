import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type FailedAttempt } from './fault-load';

const ROOT = resolve(__dirname, '../../../..');

/** Lines a failure report shows: a warning or worse (pino's JSON lines), or anything that is not a log line at all (a stack, a crash). */
const NOTABLE = /"level":"(warn|error|fatal)"|"level":(4|5|6)0\b/;
/** Of a service's notable lines, at most this many are shown (the first and the last ones). */
const MAX_NOTABLE = 60;
/** Last lines of every process, whatever their level. */
const TAIL = 12;
/** A line longer than this is cut (a stack inside a JSON line can be long). */
const MAX_LINE = 1500;

export interface ProcessLog {
  name: string;
  output: string;
}

/**
 * What a failed scenario shows of the services (docs/operations.md#faults): for every process, its
 * warnings and errors logged since `since` (epoch ms; pino's `time` field, lines without one kept
 * with the line before them) together with any line that is not a log line (a stack, a crash),
 * then its last lines; before them, every HTTP attempt the load saw fail with a status, with its
 * correlation id, and every process's lines that carry one of those ids, whatever their level.
 */
export function serviceLogReport(logs: ProcessLog[], options: { since?: number; failedHttp?: FailedAttempt[] } = {}): string {
  const since = options.since ?? 0;
  const failed = options.failedHttp ?? [];
  const ids = new Set(failed.map((f) => f.correlationId).filter((id): id is string => Boolean(id)));
  const out: string[] = [];
  const cut = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} [... ${line.length - MAX_LINE} more characters]` : line);
  if (failed.length) {
    out.push(`=== HTTP attempts answered with an error status (${failed.length}) ===`);
    for (const f of failed) out.push(`${new Date(f.at).toISOString()} ${f.status} correlation ${f.correlationId ?? '-'}: ${f.body}`);
  }
  for (const { name, output } of logs) {
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    const notable: string[] = [];
    const ofFailed: string[] = [];
    let time = 0;
    for (const line of lines) {
      const json = line.startsWith('{') ? parse(line) : undefined;
      if (json) {
        const at = typeof json.time === 'string' ? Date.parse(json.time) : typeof json.time === 'number' ? json.time : NaN;
        if (!Number.isNaN(at)) time = at;
        if (typeof json.correlation_id === 'string' && ids.has(json.correlation_id)) ofFailed.push(cut(line));
      }
      if (time < since) continue;
      if (!json || NOTABLE.test(line)) notable.push(cut(line));
    }
    out.push(`=== ${name}: ${notable.length} warnings, errors and other lines since the scenario began (${lines.length} lines in all) ===`);
    if (notable.length > MAX_NOTABLE) {
      const head = Math.floor(MAX_NOTABLE / 3);
      out.push(...notable.slice(0, head), `[... ${notable.length - MAX_NOTABLE} more ...]`, ...notable.slice(-(MAX_NOTABLE - head)));
    } else {
      out.push(...notable);
    }
    if (ofFailed.length) out.push(`--- ${name}: lines of the failed HTTP attempts ---`, ...ofFailed.slice(-MAX_NOTABLE));
    out.push(`--- ${name}: last ${Math.min(TAIL, lines.length)} lines ---`, ...lines.slice(-TAIL).map(cut));
  }
  return out.join('\n');
}

/** Writes every process's whole output under tmp/fault-logs/<label>/ (kept after the run; tmp/ is ignored by git) and answers the folder. */
export function keepServiceLogs(logs: ProcessLog[], label: string): string {
  const folder = join(ROOT, 'tmp', 'fault-logs', `${new Date().toISOString().replace(/[:.]/g, '-')}-${label.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60)}`);
  mkdirSync(folder, { recursive: true });
  for (const { name, output } of logs) writeFileSync(join(folder, `${name.replace(/[^A-Za-z0-9_-]+/g, '_')}.log`), output);
  return folder;
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
