import type { ConfigSpec, SealedColumn } from '@vigil/platform';
import type { DataSource, MigrationInterface } from 'typeorm';
import { APPEND_ONLY_ROW_TRIGGER } from './append-only';
import type { MigrationList } from './data-source';
import { quoteIdent } from './data-source';
import type { RecordResealed } from './sealed-secrets';

/**
 * PostgreSQL roles of the distributed deployment (docs/operations.md#database-roles):
 * - the owner role owns every Vigil schema and what is in it; migrations run as it, never a service;
 * - one runtime role per service, with USAGE on its own schema only and, on the tables there, the
 *   least the service needs: SELECT and INSERT on append-only tables, SELECT on the migrations
 *   table and on tables the service declares read-only, SELECT/INSERT/UPDATE/DELETE on the rest,
 *   EXECUTE on the functions it declares. No DDL, no TRUNCATE, nothing in another schema.
 */

/** A service's schema and what its runtime role gets beyond the defaults above. */
export interface ServiceDatabase {
  /** The service, as in `<SERVICE>_DATABASE_URL` (e.g. `event-ingest`). */
  service: string;
  schema: string;
  migrations: MigrationList;
  runtime?: {
    /** Tables the runtime role may only read (written by the owner, e.g. a retention floor). */
    readOnlyTables?: string[];
    /** Functions (with argument types, e.g. `create_event_partition(date)`) the runtime role may call. */
    functions?: string[];
  };
  /**
   * Runs as the owner right after the migrations, each time they run (at start with
   * MIGRATE_ON_START, or by the `migrate` command): settings only the owner may write.
   */
  afterMigrate?: (dataSource: DataSource, config: Record<string, unknown>) => Promise<void>;
  /** The variables `afterMigrate` reads (the `migrate` command validates them; a service has them in its configuration). */
  afterMigrateConfig?: ConfigSpec;
  /**
   * The columns holding values sealed with VIGIL_ENCRYPTION_KEYS, which the `reencrypt-secrets`
   * command rewrites under the current key, and how it records each rewrite.
   */
  secrets?: { columns: readonly SealedColumn[]; record?: RecordResealed };
}

/** The schemas of the services that keep data, in start order. */
export const SERVICE_SCHEMAS = [
  { service: 'auth', schema: 'auth' },
  { service: 'policy', schema: 'policy' },
  { service: 'event-ingest', schema: 'event_ingest' },
  { service: 'delivery', schema: 'delivery' },
] as const;

/** What a role may do beyond a runtime role's share, as found at start. Empty: a runtime role. */
export async function privilegesBeyondRuntime(dataSource: DataSource, schema: string): Promise<string[]> {
  const [row]: {
    role: string;
    superuser: boolean;
    createrole: boolean;
    bypassrls: boolean;
    owns_schema: boolean | null;
    creates_in_schema: boolean | null;
    owns_objects: boolean;
    creates_schemas: boolean;
  }[] = await dataSource.query(
    `SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolcreaterole AS createrole, r.rolbypassrls AS bypassrls,
            pg_has_role(current_user, n.nspowner, 'USAGE') AS owns_schema,
            has_schema_privilege(current_user, n.oid, 'CREATE') AS creates_in_schema,
            EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND pg_has_role(current_user, c.relowner, 'USAGE')) AS owns_objects,
            has_database_privilege(current_database(), 'CREATE') AS creates_schemas
     FROM pg_roles r LEFT JOIN pg_namespace n ON n.nspname = $1
     WHERE r.rolname = current_user`,
    [schema],
  );
  if (!row) return ['an unknown role'];
  const found: string[] = [];
  if (row.superuser) found.push('is a superuser');
  if (row.createrole) found.push('may create roles (CREATEROLE)');
  if (row.bypassrls) found.push('bypasses row-level security (BYPASSRLS)');
  if (row.owns_schema) found.push(`owns the schema ${schema}`);
  else if (row.owns_objects) found.push(`owns tables in the schema ${schema}`);
  if (row.creates_in_schema && !row.owns_schema && !row.superuser) found.push(`may create objects in the schema ${schema}`);
  if (row.creates_schemas && !row.superuser) found.push('may create schemas in the database');
  return found;
}

export async function currentRole(dataSource: DataSource): Promise<string> {
  const [row]: { role: string }[] = await dataSource.query('SELECT current_user AS role');
  return row!.role;
}

/** Names of the service's migrations not applied yet (read from its migrations table), or null when the schema has none. */
export async function pendingMigrations(dataSource: DataSource, schema: string, migrations: MigrationList): Promise<string[] | null> {
  const [table]: { present: boolean }[] = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${quoteIdent(schema)}.migrations`]);
  if (!table!.present) return null;
  const applied = new Set((await dataSource.query(`SELECT name FROM ${quoteIdent(schema)}.migrations`)).map((r: { name: string }) => r.name));
  return migrationNames(migrations).filter((name) => !applied.has(name));
}

function migrationNames(migrations: MigrationList): string[] {
  const list = Array.isArray(migrations) ? migrations : Object.values(migrations);
  return list
    .filter((m): m is new () => MigrationInterface => typeof m === 'function')
    .map((Migration) => {
      const instance = new Migration();
      return instance.name ?? Migration.name;
    });
}

/**
 * Gives the schema's runtime roles (every role with USAGE on the schema but its owner: the roles
 * `bootstrapRoles` set up) exactly their grants, taking away anything else they held there.
 * Runs as the owner after the migrations, so tables a migration added get their grants before the
 * new version of the service starts. Partitions get nothing: the runtime role reaches them only
 * through their partitioned table. Returns the roles granted to.
 */
export async function grantRuntimeRoles(dataSource: DataSource, database: ServiceDatabase): Promise<string[]> {
  const s = quoteIdent(database.schema);
  return dataSource.transaction(async (manager) => {
    // Replicas' migrate steps run side by side: two GRANTs on one table at once can fail with
    // "tuple concurrently updated".
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil:grants:${database.schema}`]);
    const roles: { role: string }[] = await manager.query(
      `SELECT DISTINCT a.rolname AS role FROM pg_namespace n, aclexplode(n.nspacl) x JOIN pg_roles a ON a.oid = x.grantee
       WHERE n.nspname = $1 AND x.privilege_type = 'USAGE' AND x.grantee <> n.nspowner ORDER BY 1`,
      [database.schema],
    );
    const tables: { name: string; append_only: boolean }[] = await manager.query(
      `SELECT c.relname AS name,
              EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = $2) AS append_only
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition ORDER BY 1`,
      [database.schema, APPEND_ONLY_ROW_TRIGGER],
    );
    // The writer fence is raised by migrations only (writer-fence.ts).
    const readOnly = new Set(['migrations', 'writer_fence', ...(database.runtime?.readOnlyTables ?? [])]);
    await manager.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${s} FROM PUBLIC`);
    for (const { role } of roles) {
      const r = quoteIdent(role);
      await manager.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${r}`);
      await manager.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r}`);
      await manager.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${s} FROM ${r}`);
      for (const table of tables) {
        const privileges = readOnly.has(table.name) ? 'SELECT' : table.append_only ? 'SELECT, INSERT' : 'SELECT, INSERT, UPDATE, DELETE';
        await manager.query(`GRANT ${privileges} ON ${s}.${quoteIdent(table.name)} TO ${r}`);
      }
      await manager.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
      for (const fn of database.runtime?.functions ?? []) {
        if (!/^[a-z_][a-z0-9_]*\([a-z0-9_, ]*\)$/.test(fn)) throw new Error(`unsafe function signature: ${fn}`);
        await manager.query(`GRANT EXECUTE ON FUNCTION ${s}.${fn} TO ${r}`);
      }
    }
    return roles.map((r) => r.role);
  });
}

/** A role and its password, as read from a service's connection URL. */
export interface RoleCredential {
  role: string;
  password?: string;
}

export interface RolesPlan {
  /** The owner role: owns the schemas, runs the migrations. */
  owner: RoleCredential;
  /** One runtime role per schema. */
  services: (RoleCredential & { schema: string })[];
  /** Login roles that get CONNECT on the database and nothing else (e.g. the proxy's catalog reader). */
  connectOnly?: RoleCredential[];
}

/** Reads role and password from a postgres:// URL (percent-decoded). */
export function credentialOf(url: string): RoleCredential {
  const u = new URL(url);
  const role = decodeURIComponent(u.username);
  if (!role) throw new Error(`${u.protocol}//${u.host}${u.pathname} names no user`);
  return { role, password: u.password ? decodeURIComponent(u.password) : undefined };
}

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * Creates (or updates) the roles and schemas of the distributed deployment, in one transaction,
 * connected as a role that may create roles (a superuser, or CREATEROLE plus membership of the
 * roles that own existing Vigil objects). Idempotent: run it again to rotate passwords (a role
 * given no password keeps its own). Schemas owned by someone else (an install that ran as one
 * role) are handed to the owner role with everything in them. Returns what it did, for the log.
 */
export async function bootstrapRoles(client: Queryable, plan: RolesPlan): Promise<string[]> {
  const all = [plan.owner.role, ...plan.services.map((s) => s.role), ...(plan.connectOnly ?? []).map((r) => r.role)];
  const duplicates = all.filter((role, i) => all.indexOf(role) !== i);
  if (duplicates.length) throw new Error(`each role must be distinct; used twice: ${[...new Set(duplicates)].join(', ')}`);
  const { rows: me } = await client.query('SELECT current_user AS role, current_database() AS database');
  const admin = me[0]!.role as string;
  const database = quoteIdent(me[0]!.database as string);
  if (all.includes(admin)) throw new Error(`the bootstrap connection's role ${admin} cannot also be one of Vigil's roles`);
  const done: string[] = [];
  await client.query('BEGIN');
  try {
    const ensureRole = async ({ role, password }: RoleCredential) => {
      const r = quoteIdent(role);
      const { rows } = await client.query(
        `SELECT rolsuper, rolcanlogin, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolinherit FROM pg_roles WHERE rolname = $1`,
        [role],
      );
      if (!rows.length) {
        if (!password) throw new Error(`role ${role} does not exist and no password is given for it`);
        await client.query(`CREATE ROLE ${r} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT`);
        done.push(`created role ${role}`);
      } else {
        const found = rows[0]!;
        if (found.rolsuper) throw new Error(`role ${role} is a superuser: Vigil's roles must not be`);
        // Only what differs: a non-superuser admin (a managed service's) may not even name some attributes.
        const wrong = [
          !found.rolcanlogin && 'LOGIN',
          found.rolcreatedb && 'NOCREATEDB',
          found.rolcreaterole && 'NOCREATEROLE',
          found.rolreplication && 'NOREPLICATION',
          found.rolbypassrls && 'NOBYPASSRLS',
          found.rolinherit && 'NOINHERIT',
        ].filter(Boolean);
        if (wrong.length) {
          await client.query(`ALTER ROLE ${r} ${wrong.join(' ')}`);
          done.push(`set ${wrong.join(' ')} on ${role}`);
        }
      }
      if (password) {
        // A literal: ALTER ROLE takes no parameters. PostgreSQL stores it as a SCRAM verifier.
        await client.query(`ALTER ROLE ${r} PASSWORD ${quoteLiteral(password)}`);
        done.push(`set the password of ${role}`);
      }
      await client.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${database} TO ${r}`);
    };
    await ensureRole(plan.owner);
    for (const service of plan.services) await ensureRole(service);
    for (const role of plan.connectOnly ?? []) {
      await ensureRole(role);
      await client.query(`REVOKE TEMPORARY ON DATABASE ${database} FROM ${quoteIdent(role.role)}`);
    }
    const owner = quoteIdent(plan.owner.role);
    // PostgreSQL before 15 lets every role create tables in `public`; 15 and later do not.
    await client.query(`DO $$ BEGIN IF to_regnamespace('public') IS NOT NULL THEN REVOKE CREATE ON SCHEMA public FROM PUBLIC; END IF; END $$`);
    for (const service of plan.services) {
      const s = quoteIdent(service.schema);
      const { rows } = await client.query(`SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = $1`, [service.schema]);
      if (!rows.length) {
        await client.query(`CREATE SCHEMA ${s} AUTHORIZATION ${owner}`);
        done.push(`created schema ${service.schema}`);
      } else if (rows[0]!.owner !== plan.owner.role) {
        await takeOver(client, service.schema, plan.owner.role);
        done.push(`handed schema ${service.schema} and its objects from ${rows[0]!.owner as string} to ${plan.owner.role}`);
      }
      // No one but the owner and the service's own role may use the schema.
      const { rows: others } = await client.query(
        `SELECT DISTINCT CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(x.grantee)) END AS grantee
         FROM pg_namespace n, aclexplode(n.nspacl) x
         WHERE n.nspname = $1 AND x.grantee <> n.nspowner AND x.grantee <> (SELECT oid FROM pg_roles WHERE rolname = $2)`,
        [service.schema, service.role],
      );
      for (const other of others) await client.query(`REVOKE ALL ON SCHEMA ${s} FROM ${other.grantee as string}`);
      await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${quoteIdent(service.role)}`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return done;
}

/** Hands a schema and everything in it to `owner` (an install that ran as one role until now). */
async function takeOver(client: Queryable, schema: string, owner: string): Promise<void> {
  const s = quoteIdent(schema);
  const o = quoteIdent(owner);
  await client.query(`ALTER SCHEMA ${s} OWNER TO ${o}`);
  const { rows: relations } = await client.query(
    `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       -- A column's sequence follows its table.
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                       AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))`,
    [schema],
  );
  for (const { name, kind } of relations) {
    const what = kind === 'S' ? 'SEQUENCE' : kind === 'v' ? 'VIEW' : kind === 'm' ? 'MATERIALIZED VIEW' : kind === 'f' ? 'FOREIGN TABLE' : 'TABLE';
    await client.query(`ALTER ${what} ${s}.${quoteIdent(name as string)} OWNER TO ${o}`);
  }
  const { rows: routines } = await client.query(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`,
    [schema],
  );
  for (const { signature } of routines) await client.query(`ALTER ROUTINE ${signature as string} OWNER TO ${o}`);
}

function quoteLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('a password cannot hold U+0000');
  return `'${value.replace(/'/g, "''")}'`;
}
