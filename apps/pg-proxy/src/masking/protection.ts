import type { ActiveMaskRule } from '../enforcement/enforcer';
import type { Move, ReadSet, StatementInfo } from '../sql/sql-analyzer';
import type { CatalogSnapshot, RelationNames } from './catalog';

/**
 * Masking that fails closed (docs/proxy.md#masking). A result column whose RowDescription names a
 * table column is judged by that column. Any other value (computed expressions, whole rows,
 * composite fields, function results, EXECUTE of a prepared statement, FETCH from a cursor, ...)
 * passes unmasked only when the statement is *clean*: it names no protected relation (a table with
 * a protected column, or a view that reads one), calls no function that reads data by itself
 * (`query_to_xml` and kin, large objects, dblink, files) nor any function defined outside
 * pg_catalog, and runs no code the proxy cannot see (DO, CALL). Everything else is *tainted*.
 */

/** Built-in functions that read data the statement does not name, or read it from outside. */
const DATA_READING = /^(?:pg_catalog\.)?(?:(?:query|table|cursor|schema|database)_to_xml\w*|(?:query|table|cursor|schema|database)_to_xmlschema|ts_stat|lo_\w+|loread|lowrite|dblink\w*|pg_read_\w+|pg_stat_file|pg_ls_\w+|pg_logdir_ls|pg_file_\w+|xpath_table)$/;
/** Built-in functions that carry values out of the statement's result. */
const MOVING = /^(?:pg_catalog\.)?(?:set_config|pg_notify|lo_\w+|lowrite|dblink\w*|pg_file_write)$/;
/** Text fragments that make a statement need the parser before it can be called clean. */
const ALWAYS_PARSE = ['_to_xml', 'ts_stat', 'lo_', 'loread', 'lowrite', 'dblink', 'pg_read_', 'pg_ls_', 'pg_stat_file', 'pg_file_', 'xpath_table', 'u&'];
/** Keywords that may precede a parenthesis without being a function call. */
const SQL_WORDS = new Set(['values', 'in', 'exists', 'any', 'all', 'some', 'array', 'row', 'over', 'filter', 'within', 'cast', 'and', 'or', 'not', 'as', 'on', 'using', 'from', 'where', 'select', 'lateral', 'join', 'by', 'partition', 'when', 'then', 'else', 'case', 'is', 'count', 'coalesce', 'nullif', 'greatest', 'least', 'extract', 'position', 'substring', 'overlay', 'trim', 'set', 'returning', 'with', 'limit', 'offset', 'into', 'numeric', 'varchar', 'char', 'decimal', 'timestamp', 'time', 'interval', 'bit']);
/** Statistics catalogs and their views hold sampled values of every column (system views record no dependencies). */
const VALUE_CATALOGS = new Set(['pg_statistic', 'pg_statistic_ext_data', 'pg_stats', 'pg_stats_ext', 'pg_stats_ext_exprs']);

export interface Taint {
  /** The rule whose protection the value falls under (for the method and the record). */
  rule: ActiveMaskRule;
  /** Why: a protected relation's name, a function, `DO`, `EXECUTE p`, ... */
  reason: string;
}

/** Protected relations and the quick test that lets clean statements skip the parser. */
export interface ProtectionView {
  /** Relation OID -> the rule protecting every column of it (views over protected columns, statistics). */
  wholeRelations: Map<number, ActiveMaskRule>;
  /** Table OID -> attribute number -> the rule protecting that column (inheritance included). */
  columns: Map<number, Map<number, ActiveMaskRule>>;
  /** Lowercase relation name -> the OIDs of relations with that name (any schema). */
  byName: Map<string, number[]>;
  /** Lowercase relation name -> rule (any schema: a name shared with a protected relation counts). */
  names: Map<string, ActiveMaskRule>;
  userFunctions: Set<string>;
  /** The rule used when the origin is unknown: the first enforced rule, else the first. */
  fallback: ActiveMaskRule;
  /** Whether a statement text may be tainted; false proves it clean without parsing. */
  mayTaint(text: string): boolean;
  rules: ActiveMaskRule[];
  snapshot: CatalogSnapshot;
  /** The catalog could not be read: every statement is tainted. */
  unknown?: boolean;
}

function ruleFor(rules: ActiveMaskRule[], relation: RelationNames, column: string): ActiveMaskRule | undefined {
  const table = relation.table.toLowerCase();
  const col = column.toLowerCase();
  let found: ActiveMaskRule | undefined;
  for (const r of rules) {
    if ((r.table === '*' || r.table === table) && (r.column === '*' || r.column === col)) {
      if (!r.shadow) return r;
      found ??= r;
    }
  }
  return found;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Which relations hold protected values under these rules, from the catalog snapshot. */
export function protectionView(snapshot: CatalogSnapshot, rules: ActiveMaskRule[]): ProtectionView {
  const fallback = rules.find((r) => !r.shadow) ?? rules[0]!;
  // Per relation: the rule of each protected attribute.
  const columns = new Map<number, Map<number, ActiveMaskRule>>();
  const whole = new Map<number, ActiveMaskRule>();
  // Inheritance and partitions: a parent's rows include its children's, and a child holds what
  // its parent protects. A rule naming either covers the columns of the same name in both.
  const kin = new Map<number, Set<number>>();
  const link = (a: number, b: number) => {
    let set = kin.get(a);
    if (!set) kin.set(a, (set = new Set()));
    set.add(b);
  };
  for (const [child, parents] of snapshot.parents) {
    const seen = new Set<number>();
    const up = [...parents];
    while (up.length) {
      const parent = up.pop()!;
      if (seen.has(parent)) continue;
      seen.add(parent);
      link(child, parent);
      link(parent, child);
      up.push(...(snapshot.parents.get(parent) ?? []));
    }
  }
  for (const [oid, relation] of snapshot.relations) {
    if (relation.schema === 'pg_catalog' && VALUE_CATALOGS.has(relation.table)) {
      whole.set(oid, fallback);
      continue;
    }
    if (relation.schema === 'pg_catalog' || relation.schema === 'information_schema') continue;
    const related = [...(kin.get(oid) ?? [])].map((k) => snapshot.relations.get(k)).filter((r): r is RelationNames => !!r);
    for (const [num, name] of relation.columns) {
      const rule = ruleFor(rules, relation, name) ?? related.map((r) => ruleFor(rules, r, name)).find(Boolean);
      if (!rule) continue;
      let map = columns.get(oid);
      if (!map) columns.set(oid, (map = new Map()));
      map.set(num, rule);
    }
  }
  // Views and materialized views reading a protected column, a protected whole row, or a
  // protected view are protected as a whole (which of their columns carries the value is not
  // known from the catalog), until nothing changes.
  let changed = true;
  while (changed) {
    changed = false;
    for (const [view, deps] of snapshot.viewDeps) {
      if (whole.has(view)) continue;
      for (const { rel, att } of deps) {
        const rule = whole.get(rel) ?? (att === 0 ? columns.get(rel)?.values().next().value : columns.get(rel)?.get(att));
        if (rule) {
          whole.set(view, rule);
          changed = true;
          break;
        }
      }
    }
  }
  const names = new Map<string, ActiveMaskRule>();
  const add = (oid: number, rule: ActiveMaskRule) => {
    const relation = snapshot.relations.get(oid);
    if (!relation) return;
    const name = relation.table.toLowerCase();
    const known = names.get(name);
    if (!known || (known.shadow && !rule.shadow)) names.set(name, rule);
  };
  for (const [oid, map] of columns) for (const rule of map.values()) add(oid, rule);
  for (const [oid, rule] of whole) add(oid, rule);
  const fragments = [...names.keys(), ...snapshot.userFunctions, ...ALWAYS_PARSE].map(escape);
  const quick = new RegExp(`\\b(?:do|call|execute|fetch|move)\\b|--|/\\*|"|${fragments.join('|')}`, 'i');
  const builtins = snapshot.builtinFunctions;
  const call = /([a-z_][\w$]*)\s*\(/gi;
  const mayTaint = (text: string): boolean => {
    if (quick.test(text)) return true;
    if (!text.includes('(')) return false;
    // A call of a function the catalog does not list among the built-ins (created since, or
    // not a function at all: INSERT INTO t (...)) needs the parser to tell.
    call.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = call.exec(text))) {
      const name = m[1]!.toLowerCase();
      if (!builtins.has(name) && !SQL_WORDS.has(name)) return true;
    }
    return false;
  };
  const byName = new Map<string, number[]>();
  for (const [oid, relation] of snapshot.relations) {
    const name = relation.table.toLowerCase();
    const list = byName.get(name);
    if (list) list.push(oid);
    else byName.set(name, [oid]);
  }
  return {
    wholeRelations: whole,
    columns,
    byName,
    names,
    userFunctions: snapshot.userFunctions,
    fallback,
    mayTaint,
    rules,
    snapshot,
  };
}

const shared = new WeakMap<CatalogSnapshot, Map<string, ProtectionView>>();

/** protectionView, shared by the sessions that have the same rules over the same snapshot. */
export function sharedProtectionView(snapshot: CatalogSnapshot, rules: ActiveMaskRule[]): ProtectionView {
  let views = shared.get(snapshot);
  if (!views) shared.set(snapshot, (views = new Map()));
  const key = JSON.stringify(rules);
  let view = views.get(key);
  if (!view) {
    view = protectionView(snapshot, rules);
    if (views.size >= 64) views.clear();
    views.set(key, view);
  }
  return view;
}

function unsafeFunction(view: ProtectionView, name: string): boolean {
  if (DATA_READING.test(name)) return true;
  const parts = name.split('.');
  if (parts.length > 1 && parts[0] !== 'pg_catalog') return true;
  const last = parts[parts.length - 1]!;
  // Unknown names (created after the snapshot) are not proven built-in.
  return view.userFunctions.has(last) || !view.snapshot.builtinFunctions.has(last);
}

/** The taint of what a part of a statement reads, or undefined when it is clean. */
export function readTaint(view: ProtectionView, reads: ReadSet): Taint | undefined {
  if (view.unknown) return { rule: view.fallback, reason: 'catalog unavailable' };
  for (const relation of reads.relations) {
    const rule = view.names.get(relation);
    if (rule) return { rule, reason: relation };
  }
  for (const fn of reads.functions) if (unsafeFunction(view, fn)) return { rule: view.fallback, reason: `${fn}()` };
  return undefined;
}

/** Session state the taint of EXECUTE and FETCH depends on. */
export interface SessionNames {
  prepared: Map<string, StatementInfo | null>;
  cursors: Map<string, StatementInfo | null>;
}

/** The taint of a statement's results (see the module comment); `info` null: not parsed. */
export function statementTaint(view: ProtectionView, info: StatementInfo | null | undefined, names: SessionNames, depth = 0): Taint | undefined {
  if (view.unknown) return { rule: view.fallback, reason: 'catalog unavailable' };
  if (!info) return { rule: view.fallback, reason: 'statement not analysed' };
  if (info.opaque) return { rule: view.fallback, reason: info.type };
  if (info.executes !== undefined) {
    const prepared = names.prepared.get(info.executes);
    if (prepared === undefined || depth > 4) return { rule: view.fallback, reason: `EXECUTE ${info.executes} (unknown prepared statement)` };
    return statementTaint(view, prepared, names, depth + 1);
  }
  if (info.fetches !== undefined) {
    const cursor = names.cursors.get(info.fetches);
    if (cursor === undefined || depth > 4) return { rule: view.fallback, reason: `FETCH ${info.fetches} (unknown cursor)` };
    return statementTaint(view, cursor, names, depth + 1);
  }
  return readTaint(view, info.reads);
}

/**
 * Statements that would copy protected values into another relation (where masking of results
 * no longer sees them): INSERT ... SELECT, UPDATE ... SET from protected columns, MERGE,
 * CREATE TABLE AS, SELECT INTO, data-modifying CTEs, PREPARE of any of them, and calls of
 * set_config, pg_notify, large-object, dblink and file functions. Undefined when what they copy is clean.
 */
export function moveTaint(view: ProtectionView, info: StatementInfo): Taint | undefined {
  for (const move of info.moves) {
    const taint = oneMoveTaint(view, move);
    if (taint) return { ...taint, reason: `${taint.reason} into ${move.target ?? 'another relation'}` };
  }
  // Functions that carry values out of the statement (into session settings, other sessions,
  // large objects, files or other servers) in a statement that reads protected data.
  if (info.reads.functions.some((f) => MOVING.test(f))) {
    const taint = readTaint(view, info.reads);
    if (taint) return { ...taint, reason: `${taint.reason} through ${info.reads.functions.find((f) => MOVING.test(f))}()` };
  }
  return undefined;
}

function oneMoveTaint(view: ProtectionView, move: Move): Taint | undefined {
  const fromReads = readTaint(view, move.reads);
  if (fromReads) return fromReads;
  const target = move.target;
  const targetRule = target ? view.names.get(target) : undefined;
  if (!move.ownRow || !target || !targetRule) return undefined;
  // Values computed from the target's own row: a protected column, a star, or a single name that
  // is no column of the relations read (a whole-row reference through the table name or an alias).
  const known = new Set<string>();
  const protectedCols = new Set<string>();
  const read = new Set([target, ...move.reads.relations]);
  for (const name of read) {
    for (const oid of view.byName.get(name) ?? []) {
      for (const [num, column] of view.snapshot.relations.get(oid)!.columns) {
        const col = column.toLowerCase();
        known.add(col);
        if (name === target && view.columns.get(oid)?.has(num)) protectedCols.add(col);
      }
    }
  }
  for (const col of move.reads.columns) if (col === '*' || protectedCols.has(col)) return { rule: targetRule, reason: `${target}.${col}` };
  for (const name of move.reads.bare) if (!known.has(name)) return { rule: targetRule, reason: `${name} (a whole row of ${target}?)` };
  return undefined;
}

/**
 * For PROXY_MASK_COMPUTED=refuse: whether a tainted statement's output can be told, before it
 * runs, to hold only plain table columns (which are masked by column). Anything else is refused.
 */
export function plainOutputs(info: StatementInfo): boolean {
  const [key, value] = Object.entries(info.node)[0] as [string, Record<string, any>];
  let targets: any[] | undefined;
  let from: any[] = [];
  if (key === 'SelectStmt') {
    if (value.op !== 'SETOP_NONE' || value.valuesLists) return false;
    targets = value.targetList;
    from = value.fromClause ?? [];
  } else if (key === 'InsertStmt' || key === 'UpdateStmt' || key === 'DeleteStmt' || key === 'MergeStmt') {
    targets = value.returningList ?? [];
    from = [{ RangeVar: value.relation }, ...(value.fromClause ?? value.usingClause ?? [])];
  } else return false;
  const aliases = new Set<string>();
  let tablesOnly = true;
  const visitFrom = (item: any) => {
    if (item?.RangeVar) {
      aliases.add(String(item.RangeVar.relname).toLowerCase());
      if (item.RangeVar.alias?.aliasname) aliases.add(String(item.RangeVar.alias.aliasname).toLowerCase());
    } else if (item?.JoinExpr) {
      visitFrom(item.JoinExpr.larg);
      visitFrom(item.JoinExpr.rarg);
    } else tablesOnly = false;
  };
  from.forEach(visitFrom);
  if (value.withClause) return false;
  for (const target of targets ?? []) {
    const ref = target?.ResTarget?.val?.ColumnRef;
    if (!ref) return false;
    const parts = (ref.fields as any[]).map((f) => (f?.A_Star ? '*' : String(f?.String?.sval ?? '').toLowerCase()));
    if (parts[parts.length - 1] === '*' && !tablesOnly) return false;
    if (parts.length === 1 && aliases.has(parts[0]!)) return false;
  }
  return true;
}
