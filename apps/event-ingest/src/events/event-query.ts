import type { EventFilters } from '@vigil/contracts';

/** A WHERE clause being built: SQL fragments with their positional parameters. */
export class Where {
  readonly clauses: string[] = [];
  readonly params: unknown[];

  constructor(params: unknown[] = []) {
    this.params = params;
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(clause: string) {
    this.clauses.push(clause);
  }

  sql(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join(' AND ')}` : '';
  }
}

/** `%` and `_` are literal in a user's text match. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The filters every read shares, as SQL on event_ingest.events. One value uses `=` (so the
 * planner picks the matching `(column, "timestamp")` index); several use `= ANY`.
 */
export function applyFilters(where: Where, filters: EventFilters, options: { skipTypes?: boolean } = {}) {
  const anyOf = (column: string, values: string[] | undefined) => {
    if (!values?.length) return;
    if (values.length === 1) where.add(`${column} = ${where.param(values[0])}`);
    else where.add(`${column} = ANY(${where.param(values)}::text[])`);
  };
  if (!options.skipTypes) anyOf('type', filters.types);
  anyOf('severity', filters.severities);
  anyOf('database_id', filters.database_ids);
  anyOf('user_name', filters.users);
  anyOf('source_ip', filters.source_ips);
  anyOf('operation', filters.operations?.map((o) => o.toUpperCase()));
  if (filters.start) where.add(`"timestamp" >= ${where.param(filters.start)}::timestamptz`);
  if (filters.end) where.add(`"timestamp" < ${where.param(filters.end)}::timestamptz`);
  if (filters.query_contains) {
    where.add(`details->>'query' ILIKE ${where.param(`%${likeEscape(filters.query_contains)}%`)}`);
  }
}

/** Keyset position of a newest-first listing: the last row of the previous page. */
export interface ListCursor {
  t: string;
  id: string;
  /** The snapshot (highest sequence) the listing started with. */
  s: string;
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(raw: string): ListCursor | null {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value?.t !== 'string' || Number.isNaN(Date.parse(value.t))) return null;
    if (typeof value?.id !== 'string' || !/^evt_/.test(value.id)) return null;
    if (typeof value?.s !== 'string' || !/^\d{1,19}$/.test(value.s)) return null;
    return { t: value.t, id: value.id, s: value.s };
  } catch {
    return null;
  }
}

/** First keyword of a statement, upper-cased (`select`, `  Insert into` -> SELECT, INSERT). */
export function operationOf(query: string | undefined): string | null {
  if (!query) return null;
  const match = /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*([A-Za-z]+)/.exec(query.slice(0, 2048));
  return match ? match[1]!.toUpperCase() : null;
}
