import { Pool } from 'pg';
import type { TableNames } from './masking';

/** One relation of the snapshot: `kind` is pg_class.relkind (r table, p partitioned, v view, m materialized view, f foreign, S sequence). */
export interface RelationNames extends TableNames {
  kind: string;
}

/** What the proxy knows of a database to prove where result values come from (masking/protection.ts). */
export interface CatalogSnapshot {
  relations: Map<number, RelationNames>;
  /** View or materialized view OID -> the relations (and attribute numbers; 0 = whole row) its query reads. */
  viewDeps: Map<number, { rel: number; att: number }[]>;
  /** Lowercase names of functions outside pg_catalog and information_schema (user-defined, extensions). */
  userFunctions: Set<string>;
  /** Lowercase names of pg_catalog functions. */
  builtinFunctions: Set<string>;
  /** Inheritance and partitioning: child OID -> parent OIDs (pg_inherits). */
  parents: Map<number, number[]>;
  /** When it was read (snapshots older than SNAPSHOT_TTL_MS are read again). */
  at: number;
}

/** Objects created outside the proxy (no DDL seen) are known at the latest this long after. */
export const SNAPSHOT_TTL_MS = 30_000;

export interface CatalogOptions {
  host: string;
  port: number;
  user: string;
  password?: string;
  ssl?: boolean;
}

/**
 * Table OID -> table and column names, per database, read through a small connection of the
 * proxy's own (PROXY_CATALOG_USER): OIDs are per database, and a client's session cannot be
 * borrowed for it without changing its transaction state. Cached until DDL passes through the
 * proxy for that database.
 */
export class Catalog {
  private readonly pools = new Map<string, Pool>();
  private readonly cache = new Map<string, Map<number, Promise<TableNames | null>>>();

  constructor(private readonly options: CatalogOptions) {}

  private pool(database: string): Pool {
    let pool = this.pools.get(database);
    if (!pool) {
      pool = new Pool({ ...this.options, database, max: 2, idleTimeoutMillis: 30_000, ssl: this.options.ssl ? { rejectUnauthorized: false } : undefined, application_name: 'vigil-pg-proxy-catalog' });
      pool.on('error', () => undefined);
      this.pools.set(database, pool);
    }
    return pool;
  }

  private readonly resolved = new Map<string, Map<number, TableNames | null>>();

  /** The names when every OID is already known (the common case: no await on the hot path). */
  known(database: string, oids: number[]): Map<number, TableNames | null> | undefined {
    const done = this.resolved.get(database);
    if (!done || !oids.every((oid) => done.has(oid))) return undefined;
    return new Map(oids.map((oid) => [oid, done.get(oid)!]));
  }

  async tables(database: string, oids: number[]): Promise<Map<number, TableNames | null>> {
    let cached = this.cache.get(database);
    if (!cached) this.cache.set(database, (cached = new Map()));
    const missing = [...new Set(oids)].filter((oid) => !cached.has(oid));
    if (missing.length) {
      const loading = this.load(database, missing);
      for (const oid of missing) {
        cached.set(
          oid,
          loading.then((m) => m.get(oid) ?? null),
        );
      }
      // A failed lookup is not cached: the next result asks again.
      loading.catch(() => {
        for (const oid of missing) cached.delete(oid);
      });
    }
    const out = new Map<number, TableNames | null>();
    for (const oid of oids) out.set(oid, await cached.get(oid)!);
    let done = this.resolved.get(database);
    if (!done) this.resolved.set(database, (done = new Map()));
    for (const [oid, names] of out) done.set(oid, names);
    return out;
  }

  private async load(database: string, oids: number[]): Promise<Map<number, TableNames>> {
    const { rows } = await this.pool(database).query<{ oid: number; nspname: string; relname: string; attnum: number; attname: string }>(
      `SELECT c.oid::int8::float8 AS oid, n.nspname, c.relname, a.attnum, a.attname
         FROM pg_catalog.pg_class c
         JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.oid = ANY($1::oid[])`,
      [oids],
    );
    const out = new Map<number, TableNames>();
    for (const row of rows) {
      const oid = Number(row.oid);
      let t = out.get(oid);
      if (!t) out.set(oid, (t = { schema: row.nspname, table: row.relname, columns: new Map() }));
      t.columns.set(Number(row.attnum), row.attname);
    }
    return out;
  }

  private readonly snapshots = new Map<string, { value?: CatalogSnapshot; loading?: Promise<CatalogSnapshot> }>();

  /** The database's relations, view dependencies and functions when loaded (no await on the hot path). */
  snapshotNow(database: string): CatalogSnapshot | undefined {
    const entry = this.snapshots.get(database);
    if (entry?.value && Date.now() - entry.value.at > SNAPSHOT_TTL_MS) entry.value = undefined;
    return entry?.value;
  }

  /** The function's schema and name when already resolved (undefined: not yet asked). */
  functionNameNow(database: string, oid: number): { schema: string; name: string } | null | undefined {
    return this.functions.get(`${database}\u0000${oid}`);
  }

  /** Loads (once, shared by concurrent callers) what masking needs to prove where values come from. */
  snapshot(database: string): Promise<CatalogSnapshot> {
    let entry = this.snapshots.get(database);
    if (entry?.value && Date.now() - entry.value.at <= SNAPSHOT_TTL_MS) return Promise.resolve(entry.value);
    if (entry?.loading) return entry.loading;
    if (!entry) this.snapshots.set(database, (entry = {}));
    const current = entry;
    current.loading = this.loadSnapshot(database).then(
      (value) => {
        if (this.snapshots.get(database) === current) current.value = value;
        current.loading = undefined;
        return value;
      },
      (error: unknown) => {
        current.loading = undefined;
        throw error;
      },
    );
    return current.loading;
  }

  private async loadSnapshot(database: string): Promise<CatalogSnapshot> {
    const pool = this.pool(database);
    const [relations, deps, functions, inherits] = await Promise.all([
      pool.query<{ oid: number; nspname: string; relname: string; relkind: string; cols: string[] | null; nums: number[] | null }>(
        `SELECT c.oid::int8::float8 AS oid, n.nspname, c.relname, c.relkind::text AS relkind,
                array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attnum > 0) AS cols,
                array_agg(a.attnum::int ORDER BY a.attnum) FILTER (WHERE a.attnum > 0) AS nums
           FROM pg_catalog.pg_class c
           JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
           LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
          WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
          GROUP BY c.oid, n.nspname, c.relname, c.relkind`,
      ),
      pool.query<{ view: number; rel: number; att: number }>(
        `SELECT DISTINCT r.ev_class::int8::float8 AS view, d.refobjid::int8::float8 AS rel, d.refobjsubid AS att
           FROM pg_catalog.pg_rewrite r
           JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = r.oid
                                      AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid <> r.ev_class`,
      ),
      pool.query<{ name: string; builtin: boolean }>(
        `SELECT DISTINCT lower(p.proname) AS name, n.nspname = 'pg_catalog' AS builtin
           FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname <> 'information_schema'`,
      ),
      pool.query<{ child: number; parent: number }>('SELECT inhrelid::int8::float8 AS child, inhparent::int8::float8 AS parent FROM pg_catalog.pg_inherits'),
    ]);
    const out: CatalogSnapshot = {
      relations: new Map(),
      viewDeps: new Map(),
      userFunctions: new Set(functions.rows.filter((r) => !r.builtin).map((r) => r.name)),
      builtinFunctions: new Set(functions.rows.filter((r) => r.builtin).map((r) => r.name)),
      parents: new Map(),
      at: Date.now(),
    };
    for (const row of inherits.rows) {
      const child = Number(row.child);
      const list = out.parents.get(child) ?? [];
      list.push(Number(row.parent));
      out.parents.set(child, list);
    }
    for (const row of relations.rows) {
      const columns = new Map<number, string>();
      (row.nums ?? []).forEach((num, i) => columns.set(Number(num), row.cols![i]!));
      out.relations.set(Number(row.oid), { schema: row.nspname, table: row.relname, kind: row.relkind, columns });
    }
    for (const row of deps.rows) {
      const view = Number(row.view);
      let list = out.viewDeps.get(view);
      if (!list) out.viewDeps.set(view, (list = []));
      list.push({ rel: Number(row.rel), att: Number(row.att) });
    }
    return out;
  }

  /** Schema and name of a function by OID (FunctionCall), cached until DDL. */
  async functionName(database: string, oid: number): Promise<{ schema: string; name: string } | null> {
    const key = `${database}\u0000${oid}`;
    const hit = this.functions.get(key);
    if (hit !== undefined) return hit;
    const { rows } = await this.pool(database).query<{ nspname: string; proname: string }>(
      'SELECT n.nspname, p.proname FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE p.oid = $1::oid',
      [oid],
    );
    const out = rows[0] ? { schema: rows[0].nspname, name: rows[0].proname } : null;
    this.functions.set(key, out);
    return out;
  }

  private readonly functions = new Map<string, { schema: string; name: string } | null>();

  invalidate(database: string): void {
    this.cache.delete(database);
    this.resolved.delete(database);
    this.snapshots.delete(database);
    for (const key of this.functions.keys()) if (key.startsWith(`${database}\u0000`)) this.functions.delete(key);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.end().catch(() => undefined)));
    this.pools.clear();
  }
}
