import { Client, type ClientConfig, Pool } from 'pg';
import type { UpstreamTls } from '../proxy/upstream-tls';
import { pgSslOption } from '../proxy/upstream-tls';
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
  /** The same TLS as the sessions' leg (PROXY_UPSTREAM_TLS and its CA); unset: plaintext. */
  tls?: Pick<UpstreamTls, 'mode' | 'ca'>;
}

/** Catalogs the snapshot and lookups read; PUBLIC may read them unless a server revoked it. */
export const CATALOG_TABLES = ['pg_class', 'pg_namespace', 'pg_attribute', 'pg_rewrite', 'pg_depend', 'pg_proc', 'pg_inherits'] as const;

/**
 * Predefined roles that give more than catalog reads: membership (direct, inherited, or a role it
 * may SET ROLE to) makes the catalog role privileged.
 */
const PRIVILEGED_PREDEFINED: Record<string, string> = {
  pg_read_all_data: 'may read every table (member of pg_read_all_data)',
  pg_write_all_data: 'may write every table (member of pg_write_all_data)',
  pg_read_server_files: "may read the server's files (member of pg_read_server_files)",
  pg_write_server_files: "may write the server's files (member of pg_write_server_files)",
  pg_execute_server_program: 'may run programs on the server (member of pg_execute_server_program)',
  pg_read_all_stats: "may read every session's statement text (member of pg_read_all_stats, which pg_monitor includes)",
};

/** A role the catalog role is (`self`) or may become (MEMBER: inherited or SET ROLE), with its attributes. */
export interface CatalogRoleRow {
  name: string;
  self: boolean;
  superuser: boolean;
  bypassrls: boolean;
  createrole: boolean;
  replication: boolean;
}

/**
 * What the catalog role can do beyond reading the catalog, in words for the log and the refusal;
 * empty for a role with only the grants docs/proxy.md#catalog-role lists.
 */
export function catalogRolePrivileges(rows: CatalogRoleRow[]): string[] {
  const self = rows.find((r) => r.self);
  if (self?.superuser) return ['is a superuser'];
  const found: string[] = [];
  const attributes = (r: CatalogRoleRow) =>
    [r.superuser && 'is a superuser', r.bypassrls && 'bypasses row-level security (BYPASSRLS)', r.createrole && 'may create roles (CREATEROLE)', r.replication && 'may stream the whole cluster (REPLICATION)'].filter(
      (x): x is string => Boolean(x),
    );
  if (self) found.push(...attributes(self));
  for (const row of rows) {
    if (row.self) continue;
    const what = attributes(row);
    if (what.length) found.push(`may act as the role ${row.name}, which ${what.join(' and ')}`);
    const predefined = PRIVILEGED_PREDEFINED[row.name];
    if (predefined) found.push(predefined);
  }
  return found;
}

/** What the start-up check of the catalog role found (logged; refused when `privileged` or `unreadable` is not empty). */
export interface CatalogRoleReport {
  role: string;
  serverVersion: string;
  /** Whether the check's own connection is TLS (pg_stat_ssl). */
  tls: boolean;
  privileged: string[];
  /** Catalogs of CATALOG_TABLES the role may not read. */
  unreadable: string[];
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
      pool = new Pool({ ...this.connection(database), max: 2, idleTimeoutMillis: 30_000 });
      pool.on('error', () => undefined);
      this.pools.set(database, pool);
    }
    return pool;
  }

  private connection(database: string): ClientConfig {
    const { host, port, user, password, tls } = this.options;
    return { host, port, user, password, database, ssl: tls ? pgSslOption(tls) : false, application_name: 'vigil-pg-proxy-catalog' };
  }

  /**
   * Connects as the catalog role to `database` (with the sessions' TLS checks) and reports what the
   * role is and can do: the proxy refuses to start with a privileged one (ProxyService). Role
   * attributes and memberships are the cluster's, the same from any database.
   */
  async checkRole(database: string): Promise<CatalogRoleReport> {
    const client = new Client({ ...this.connection(database), connectionTimeoutMillis: 15_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const { rows: about } = await client.query<{ role: string; version: string; ssl: boolean | null }>(
        `SELECT current_user AS role, pg_catalog.current_setting('server_version') AS version,
                (SELECT s.ssl FROM pg_catalog.pg_stat_ssl s WHERE s.pid = pg_catalog.pg_backend_pid()) AS ssl`,
      );
      const { rows } = await client.query<CatalogRoleRow>(
        `SELECT r.rolname AS name, r.rolname = current_user AS self, r.rolsuper AS superuser, r.rolbypassrls AS bypassrls,
                r.rolcreaterole AS createrole, r.rolreplication AS replication
           FROM pg_catalog.pg_roles r
          WHERE pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER')`,
      );
      const { rows: unreadable } = await client.query<{ name: string }>(
        `SELECT c AS name FROM pg_catalog.unnest($1::text[]) c WHERE NOT pg_catalog.has_table_privilege('pg_catalog.' || c, 'SELECT')`,
        [[...CATALOG_TABLES]],
      );
      return { role: about[0]!.role, serverVersion: about[0]!.version, tls: about[0]!.ssl === true, privileged: catalogRolePrivileges(rows), unreadable: unreadable.map((r) => r.name) };
    } finally {
      await client.end().catch(() => undefined);
    }
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
