import { ConfigError, databaseConfigSpec, encryptionConfigSpec, type Env, env, loadConfig, SecretBox } from '@vigil/platform';
import { Client } from 'pg';
import { createServiceDataSource, runMigrations } from './data-source';
import { bootstrapRoles, credentialOf, currentRole, grantRuntimeRoles, privilegesBeyondRuntime, type RolesPlan, SERVICE_SCHEMAS, type ServiceDatabase } from './roles';
import { reencryptSecrets, type ReencryptResult, secretsStatus, type SecretsStatus } from './sealed-secrets';

export interface MigrateResult {
  applied: string[];
  /** Runtime roles given their grants on the schema. */
  granted: string[];
}

/**
 * Migrates one service's schema as the owner role (`url`), runs its afterMigrate step, then gives
 * the schema's runtime roles their grants. What `node dist/main.js migrate` runs (an init container
 * or a compose one-shot service before the service starts).
 */
export async function migrateService(database: ServiceDatabase, url: string, source: Env): Promise<MigrateResult> {
  const settings = database.afterMigrateConfig ? loadConfig(database.service, database.afterMigrateConfig, source) : {};
  const dataSource = createServiceDataSource({
    url,
    schema: database.schema,
    migrations: database.migrations,
    poolSize: 2,
    applicationName: `vigil-${database.service}-migrate`,
  });
  await dataSource.initialize();
  try {
    if (!(await privilegesBeyondRuntime(dataSource, database.schema)).length) {
      throw new Error(
        `DATABASE_URL connects as "${await currentRole(dataSource)}", a runtime role, which cannot run migrations: ` +
          `give the migrate command the owner role's URL (DATABASE_OWNER_URL; docs/operations.md#database-roles)`,
      );
    }
    const applied = await runMigrations(dataSource, database.schema);
    await database.afterMigrate?.(dataSource, settings);
    const granted = await grantRuntimeRoles(dataSource, database);
    return { applied, granted };
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `reencrypt-secrets` for one service (docs/operations.md#rotating-the-encryption-key): every value
 * its schema holds sealed with VIGIL_ENCRYPTION_KEYS is rewritten in format v2 under the first key,
 * row by row; with `check`, nothing is written and only the status is read. `url` may be the
 * runtime role's (it reads and updates its own tables) or the owner's.
 */
export async function reencryptService(
  database: ServiceDatabase,
  url: string,
  keys: string[],
  options: { check?: boolean } = {},
): Promise<ReencryptResult | SecretsStatus> {
  const box = new SecretBox(keys);
  const columns = database.secrets?.columns ?? [];
  const dataSource = createServiceDataSource({
    url,
    schema: database.schema,
    migrations: [],
    poolSize: 1,
    applicationName: `vigil-${database.service}-reencrypt-secrets`,
  });
  await dataSource.initialize();
  try {
    return options.check ? await secretsStatus(dataSource, columns, box) : await reencryptSecrets(dataSource, columns, box, database.secrets?.record);
  } finally {
    await dataSource.destroy();
  }
}

/** The variables of `reencrypt-secrets`. */
export const reencryptConfigSpec = { DATABASE_URL: databaseConfigSpec.DATABASE_URL, VIGIL_ENCRYPTION_KEYS: encryptionConfigSpec.VIGIL_ENCRYPTION_KEYS };

/** `<SERVICE>_DATABASE_URL`: the runtime role's URL of one service (`event-ingest` -> EVENT_INGEST_DATABASE_URL). */
export function serviceUrlVariable(service: string): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;
}

const postgresUrl = (description: string, optional = false) => env.url(['postgres', 'postgresql'], { description, secret: true, optional });

/** The variables of the role bootstrap (docs/configuration.md#database-roles). */
export const bootstrapRolesConfigSpec = {
  DATABASE_ADMIN_URL: postgresUrl('a role that may create roles (superuser, or CREATEROLE), on the Vigil database'),
  DATABASE_OWNER_URL: postgresUrl("the owner role's URL: its user and password are what the bootstrap sets"),
  ...Object.fromEntries(SERVICE_SCHEMAS.map(({ service }) => [serviceUrlVariable(service), postgresUrl(`the ${service} service's runtime role URL`)])),
  PG_PROXY_CATALOG_URL: postgresUrl('optional: a login role for the proxy catalog reads, given CONNECT and nothing else', true),
};

/** The plan the bootstrap applies, from the URLs the services themselves are given. */
export function rolesPlanFromEnv(source: Env): { adminUrl: string; plan: RolesPlan } {
  const config = loadConfig('db-bootstrap-roles', bootstrapRolesConfigSpec, source) as Record<string, string | undefined>;
  const database = new URL(config.DATABASE_ADMIN_URL!).pathname;
  const problems: { variable: string; message: string }[] = [];
  for (const key of ['DATABASE_OWNER_URL', ...SERVICE_SCHEMAS.map(({ service }) => serviceUrlVariable(service))]) {
    const u = new URL(config[key]!);
    if (!u.username) problems.push({ variable: key, message: 'must name the role (postgres://<role>:<password>@host/db)' });
    if (u.pathname !== database) problems.push({ variable: key, message: `must name the same database as DATABASE_ADMIN_URL (${database.slice(1)})` });
  }
  if (problems.length) throw new ConfigError('db-bootstrap-roles', problems);
  return {
    adminUrl: config.DATABASE_ADMIN_URL!,
    plan: {
      owner: credentialOf(config.DATABASE_OWNER_URL!),
      services: SERVICE_SCHEMAS.map(({ service, schema }) => ({ schema, ...credentialOf(config[serviceUrlVariable(service)]!) })),
      connectOnly: config.PG_PROXY_CATALOG_URL ? [credentialOf(config.PG_PROXY_CATALOG_URL)] : [],
    },
  };
}

/** Runs the role bootstrap against DATABASE_ADMIN_URL (see bootstrapRoles). */
export async function bootstrapRolesFromEnv(source: Env): Promise<string[]> {
  const { adminUrl, plan } = rolesPlanFromEnv(source);
  const client = new Client({ connectionString: adminUrl, application_name: 'vigil-db-bootstrap-roles' });
  await client.connect();
  try {
    return await bootstrapRoles(client, plan);
  } finally {
    await client.end();
  }
}

/**
 * The database commands a service image runs besides the service (`node dist/main.js <command>`):
 * - `migrate`: the service's migrations as the owner role (DATABASE_URL), then the runtime grants;
 * - `bootstrap-roles`: creates or updates every Vigil role and schema (bootstrapRolesConfigSpec);
 * - `reencrypt-secrets [--check]`: re-seals the service's secrets under the first key of
 *   VIGIL_ENCRYPTION_KEYS (reencryptService); exits 1 unless every value is then current and opens.
 * Returns false when argv names no such command (start the service then). Exits the process.
 */
export function runDatabaseCommand(database: ServiceDatabase, argv: string[] = process.argv, source: Env = process.env): boolean {
  const command = argv[2];
  if (command !== 'migrate' && command !== 'bootstrap-roles' && command !== 'reencrypt-secrets') return false;
  const write = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ service: database.service, command, ...line })}\n`);
  let ok = true;
  const run = async () => {
    if (command === 'bootstrap-roles') return { done: await bootstrapRolesFromEnv(source) };
    if (command === 'reencrypt-secrets') {
      const config = loadConfig(database.service, reencryptConfigSpec, source);
      const result = await reencryptService(database, config.DATABASE_URL, config.VIGIL_ENCRYPTION_KEYS, { check: argv.includes('--check') });
      ok = result.done;
      return result;
    }
    const { DATABASE_URL } = loadConfig(database.service, { DATABASE_URL: databaseConfigSpec.DATABASE_URL }, source);
    return { ...(await migrateService(database, DATABASE_URL, source)) };
  };
  run().then(
    (result) => {
      write({ result });
      process.exit(ok ? 0 : 1);
    },
    (error: unknown) => {
      process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `${database.service} ${command} failed: ${(error as Error)?.message ?? String(error)}\n`);
      process.exit(1);
    },
  );
  return true;
}
