import { Pool } from 'pg';
import type { TableNames } from './masking';

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

  invalidate(database: string): void {
    this.cache.delete(database);
    this.resolved.delete(database);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.end().catch(() => undefined)));
    this.pools.clear();
  }
}
