export type OutputMode = 'json' | 'text';

/**
 * What a command prints. Results go to stdout (readable text on a terminal, JSON when piped or
 * with `--output json`); progress and notices go to stderr, so a pipe only ever carries results.
 */
export class Output {
  readonly mode: OutputMode;
  private readonly stdout: NodeJS.WriteStream;
  private readonly stderr: NodeJS.WriteStream;

  constructor(mode: OutputMode, stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr) {
    this.mode = mode;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  get json(): boolean {
    return this.mode === 'json';
  }

  line(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  /** One JSON document (pretty on a terminal). */
  document(value: unknown): void {
    this.line(this.stdout.isTTY ? JSON.stringify(value, null, 2) : JSON.stringify(value));
  }

  /** One JSON value per line (NDJSON): for streams and long listings. */
  record(value: unknown): void {
    this.line(JSON.stringify(value));
  }

  notice(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** A status line rewritten in place on a terminal, printed once per change otherwise. */
  progress(text: string): void {
    if (this.stderr.isTTY) this.stderr.write(`\r\x1b[2K${text}`);
    else this.stderr.write(`${text}\n`);
  }

  endProgress(): void {
    if (this.stderr.isTTY) this.stderr.write('\n');
  }

  table(rows: Record<string, unknown>[], columns: string[]): void {
    if (!rows.length) {
      this.notice('(none)');
      return;
    }
    const cells = rows.map((row) => columns.map((c) => cell(row[c])));
    const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
    const format = (values: string[]) => values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
    this.line(format(columns.map((c) => c.toUpperCase())));
    for (const row of cells) this.line(format(row));
  }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.length ? value.join(',') : '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return oneLine(String(value));
}

/** Collapses whitespace (queries span lines) and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max = Infinity): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}
