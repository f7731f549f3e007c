import { loadModule, parseSync } from 'libpg-query';

/**
 * Statements as PostgreSQL's own parser sees them (libpg-query: the server's parser compiled to
 * WebAssembly, so no native build). Results are cached by text: prepared statements and ORMs
 * repeat the same texts, and parsing costs tens of microseconds.
 */
export interface StatementInfo {
  /** The statement's own text within the string sent. */
  text: string;
  /** e.g. SELECT, INSERT, UPDATE, CREATE TABLE, DROP TABLE, BEGIN, COPY. */
  type: string;
  /** Relations named by the statement, `schema.name` when qualified. */
  objects: string[];
  /** COPY ... TO (results leave as CopyData, outside RowDescription/DataRow). */
  copyTo: boolean;
  /** Lowercase column names used inside computed output expressions (not plain column references). */
  computedColumnRefs: string[];
  /** DDL: changes what table OIDs and column numbers mean. */
  ddl: boolean;
  /** The statement's parse tree node. */
  node: Record<string, unknown>;
  /** What the statement reads, for masking that fails closed (masking/protection.ts). */
  reads: ReadSet;
  /**
   * Statements that copy values into a relation (INSERT, UPDATE, MERGE, CREATE TABLE AS,
   * SELECT INTO): the target and what the copied values are computed from.
   */
  moves: Move[];
  /** Runs code the proxy cannot see into (DO, CALL). */
  opaque: boolean;
  /** Session-level names: prepared statements and cursors the statement defines, uses or drops. */
  prepares?: { name: string; query: StatementInfo | null };
  declares?: { name: string; query: StatementInfo | null };
  executes?: string;
  fetches?: string;
  /** '' for DEALLOCATE ALL / CLOSE ALL. */
  deallocates?: string;
  closes?: string;
}

/** Values copied into a relation by one part of a statement. */
export interface Move {
  target?: string;
  reads: ReadSet;
  /** The target's own row can be read (UPDATE, MERGE, ON CONFLICT). */
  ownRow: boolean;
}

/** Relations, functions and columns named inside a part of a statement (lowercase, last name part). */
export interface ReadSet {
  relations: string[];
  /** Function names as written, lowercase, schema-qualified when qualified (`pg_catalog.upper`). */
  functions: string[];
  /** Last part of every column reference; `*` for a star. */
  columns: string[];
  /** Single-name column references (a column, or a whole row through a table name or alias). */
  bare: string[];
}

export interface AnalyzedText {
  /** null: the text does not parse (the server will answer the syntax error itself). */
  statements: StatementInfo[] | null;
}

let loaded: Promise<void> | undefined;

/** Loads the WebAssembly parser once per process; call before the first analysis. */
export function loadSqlParser(): Promise<void> {
  return (loaded ??= loadModule());
}

const TRANSACTION_KINDS: Record<string, string> = {
  TRANS_STMT_BEGIN: 'BEGIN',
  TRANS_STMT_START: 'BEGIN',
  TRANS_STMT_COMMIT: 'COMMIT',
  TRANS_STMT_ROLLBACK: 'ROLLBACK',
  TRANS_STMT_SAVEPOINT: 'SAVEPOINT',
  TRANS_STMT_RELEASE: 'RELEASE',
  TRANS_STMT_ROLLBACK_TO: 'ROLLBACK TO',
  TRANS_STMT_PREPARE: 'PREPARE TRANSACTION',
  TRANS_STMT_COMMIT_PREPARED: 'COMMIT PREPARED',
  TRANS_STMT_ROLLBACK_PREPARED: 'ROLLBACK PREPARED',
};

const DDL_PREFIXES = ['CREATE', 'ALTER', 'DROP', 'RENAME', 'TRUNCATE', 'COMMENT'];

function words(name: string): string {
  return name
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

function statementType(key: string, node: Record<string, any>): string {
  if (key === 'TransactionStmt') return TRANSACTION_KINDS[node.kind] ?? 'TRANSACTION';
  if (key === 'DropStmt' && typeof node.removeType === 'string') return `DROP ${node.removeType.replace(/^OBJECT_/, '').replace(/_/g, ' ')}`;
  if (key === 'CreateStmt') return 'CREATE TABLE';
  if (key === 'VariableSetStmt') return 'SET';
  if (key === 'VariableShowStmt') return 'SHOW';
  if (key === 'RenameStmt') return 'RENAME';
  if (key === 'CopyStmt') return 'COPY';
  if (key === 'ExplainStmt') return 'EXPLAIN';
  return words(key);
}

function walk(node: unknown, visit: (key: string, value: Record<string, any>) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) visit(key, value as Record<string, any>);
    walk(value, visit);
  }
}

function objectsOf(node: unknown): string[] {
  const seen = new Set<string>();
  // Relations appear as RangeVar nodes, or unwrapped under `relation` (INSERT, UPDATE, DELETE, COPY, ...).
  walk(node, (_key, value) => {
    if (typeof value.relname === 'string') seen.add(value.schemaname ? `${value.schemaname}.${value.relname}` : value.relname);
  });
  return [...seen];
}

function columnRefNames(node: unknown): string[] {
  const names: string[] = [];
  walk(node, (key, value) => {
    if (key !== 'ColumnRef' || !Array.isArray(value.fields)) return;
    const last = value.fields[value.fields.length - 1];
    if (last?.String?.sval) names.push(String(last.String.sval).toLowerCase());
  });
  return names;
}

/** Column names referenced inside output expressions of every SELECT in the tree (not bare column references). */
function computedRefs(node: unknown): string[] {
  const out = new Set<string>();
  walk(node, (key, value) => {
    if (key !== 'SelectStmt' || !Array.isArray(value.targetList)) return;
    for (const target of value.targetList) {
      const val = target?.ResTarget?.val;
      if (!val || val.ColumnRef) continue;
      for (const name of columnRefNames(val)) out.add(name);
    }
  });
  return [...out];
}

function stringsOf(list: unknown): string[] {
  return Array.isArray(list) ? list.map((f: any) => (f?.String?.sval !== undefined ? String(f.String.sval).toLowerCase() : f?.A_Star ? '*' : '')) : [];
}

/** Relations, functions and column references anywhere under `node`. */
export function readSetOf(...nodes: unknown[]): ReadSet {
  const relations = new Set<string>();
  const functions = new Set<string>();
  const columns = new Set<string>();
  const bare = new Set<string>();
  for (const node of nodes) {
    walk(node, (key, value) => {
      if (typeof value.relname === 'string') relations.add(value.relname.toLowerCase());
      if (key === 'FuncCall') functions.add(stringsOf(value.funcname).join('.'));
      if (key === 'ColumnRef') {
        const parts = stringsOf(value.fields);
        if (parts.length) {
          columns.add(parts[parts.length - 1]!);
          if (parts.length === 1) bare.add(parts[0]!);
        }
      }
    });
  }
  return { relations: [...relations], functions: [...functions], columns: [...columns], bare: [...bare] };
}

/** Whether a node only holds constants and parameters (VALUES (1, 'x', $1)). */
function constantOnly(node: unknown): boolean {
  let ok = true;
  walk(node, (key) => {
    if (key === 'ColumnRef' || key === 'FuncCall' || key === 'SubLink' || key === 'RangeVar' || key === 'RangeSubselect' || key === 'RangeFunction') ok = false;
  });
  return ok;
}

/** Every copy of values into a relation anywhere in the tree (data-modifying CTEs, PREPARE, EXPLAIN ANALYZE included). */
function allMoves(key: string, value: Record<string, any>): Move[] {
  const out: Move[] = [];
  const own = moveOf(key, value);
  if (own) out.push(own);
  walk(value, (k, v) => {
    const m = moveOf(k, v);
    if (m) out.push(m);
  });
  return out;
}

function moveOf(key: string, value: Record<string, any>): Move | undefined {
  switch (key) {
    case 'InsertStmt': {
      const select = value.selectStmt?.SelectStmt;
      const parts: unknown[] = [];
      if (select && !(select.valuesLists && constantOnly(select.valuesLists) && !select.withClause)) parts.push(value.selectStmt);
      if (value.onConflictClause) parts.push(value.onConflictClause);
      if (value.withClause) parts.push(value.withClause);
      return parts.length ? { target: value.relation?.relname?.toLowerCase(), reads: readSetOf(...parts), ownRow: !!value.onConflictClause } : undefined;
    }
    case 'UpdateStmt':
      return { target: value.relation?.relname?.toLowerCase(), reads: readSetOf(value.targetList, value.fromClause, value.withClause), ownRow: true };
    case 'MergeStmt':
      return { target: value.relation?.relname?.toLowerCase(), reads: readSetOf(value.sourceRelation, value.mergeWhenClauses, value.withClause), ownRow: true };
    case 'CreateTableAsStmt':
      return value.objtype === 'OBJECT_MATVIEW' ? undefined : { target: value.into?.rel?.relname?.toLowerCase(), reads: readSetOf(value.query), ownRow: false };
    case 'SelectStmt':
      return value.intoClause ? { target: value.intoClause.rel?.relname?.toLowerCase(), reads: readSetOf({ ...value, intoClause: undefined }), ownRow: false } : undefined;
    default:
      return undefined;
  }
}

function innerInfo(node: Record<string, any> | undefined): StatementInfo | null {
  if (!node) return null;
  const [key, value] = Object.entries(node)[0] as [string, Record<string, any>];
  return describeNode(key, value, node, '');
}

function describeNode(key: string, value: Record<string, any>, stmt: Record<string, unknown>, own: string): StatementInfo {
  const type = statementType(key, value);
  const info: StatementInfo = {
    text: own,
    type,
    objects: objectsOf(value),
    copyTo: key === 'CopyStmt' && !value.is_from,
    computedColumnRefs: computedRefs(stmt),
    ddl: DDL_PREFIXES.some((p) => type.startsWith(p)),
    node: stmt,
    reads: readSetOf(value),
    moves: allMoves(key, value),
    opaque: key === 'DoStmt' || key === 'CallStmt',
  };
  if (key === 'PrepareStmt') info.prepares = { name: String(value.name ?? ''), query: innerInfo(value.query) };
  if (key === 'DeclareCursorStmt') info.declares = { name: String(value.portalname ?? ''), query: innerInfo(value.query) };
  if (key === 'ExecuteStmt') info.executes = String(value.name ?? '');
  if (key === 'FetchStmt') info.fetches = String(value.portalname ?? '');
  if (key === 'DeallocateStmt') info.deallocates = String(value.name ?? '');
  if (key === 'ClosePortalStmt') info.closes = String(value.portalname ?? '');
  if (key === 'ExplainStmt') {
    // EXPLAIN ANALYZE runs the statement: what it would move or run counts.
    const inner = innerInfo(value.query);
    if (inner) info.opaque = inner.opaque;
  }
  return info;
}

function analyze(text: string): AnalyzedText {
  let result: { stmts?: { stmt: Record<string, unknown>; stmt_location?: number; stmt_len?: number }[] };
  try {
    result = parseSync(text) as typeof result;
  } catch {
    return { statements: null };
  }
  const bytes = Buffer.from(text, 'utf8');
  const statements = (result.stmts ?? []).map((raw) => {
    const [key, value] = Object.entries(raw.stmt)[0] as [string, Record<string, any>];
    // Locations are byte offsets into the UTF-8 text; a length of 0 means "to the end".
    const start = raw.stmt_location ?? 0;
    const end = raw.stmt_len ? start + raw.stmt_len : bytes.length;
    const own = bytes.toString('utf8', start, end).trim();
    return describeNode(key, value, raw.stmt, own);
  });
  return { statements };
}

/** A small LRU over analyses, by exact text. */
export class SqlAnalyzer {
  private readonly cache = new Map<string, AnalyzedText>();

  constructor(private readonly capacity = 2000) {}

  /**
   * Type and objects of one statement, shared by texts that differ only in literals (pgbench's
   * and most ORMs' simple-protocol traffic): parsed once per shape instead of once per execution.
   */
  describe(text: string): StatementInfo | undefined {
    const shape = literalShape(text);
    const key = `\u0000${shape}`;
    let hit = this.cache.get(key);
    if (!hit) {
      hit = text.length > 1_000_000 ? { statements: null } : analyze(text);
      if (shape.length <= 16_384) {
        this.cache.set(key, hit);
        if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
      }
    }
    const info = hit.statements?.[0];
    return info && hit.statements!.length === 1 ? { ...info, text } : info;
  }

  /**
   * The statements of a text for judging where values come from, shared by texts that differ only
   * in numeric constants (pgbench's and most ORMs' simple-protocol traffic). Only numbers are
   * blanked: that changes no relation, function or column name and no statement structure
   * (digits inside string literals and comments stay inside them). Texts holding double-quoted
   * identifiers (where a blanked digit would rename one) are analysed as they are.
   */
  analyzeNumbersBlanked(text: string): StatementInfo[] | null {
    if (text.includes('"')) return this.analyze(text).statements;
    const shape = text.replace(NUMBER, '0');
    return this.analyze(shape === text ? text : `\u0001${shape}`, shape).statements;
  }

  analyze(text: string, source = text): AnalyzedText {
    const hit = this.cache.get(text);
    if (hit) {
      this.cache.delete(text);
      this.cache.set(text, hit);
      return hit;
    }
    const out = source.length > 1_000_000 ? { statements: null } : analyze(source);
    if (text.length <= 16_384) {
      this.cache.set(text, out);
      if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    }
    return out;
  }
}

const NUMBER = /(?<![\w$.])\d+(?:\.\d+)?(?![\w$])/g;

/**
 * The text with its literals blanked (quoted strings -> '', numbers -> 0): statements that differ
 * only in literal values share one analysis of their shape. Only for metadata (type, objects) of
 * single statements; enforcement never reads a normalized text.
 */
export function literalShape(text: string): string {
  return text.replace(/'(?:[^']|'')*'/g, "''").replace(/(?<![\w$.])\d+(?:\.\d+)?(?![\w$])/g, '0');
}

/**
 * Whether a text may hold more than one statement: a `;` followed by anything but blanks. Cheap;
 * only such texts need the parser on the hot path (every other text is one statement).
 */
export function mayHoldSeveralStatements(text: string): boolean {
  const i = text.indexOf(';');
  if (i < 0) return false;
  return /\S/.test(text.slice(i + 1).replace(/;/g, ''));
}
