import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bootstrapRolesFromEnv, migrateService, reencryptConfigSpec, reencryptService } from '@vigil/database';
import { ConfigError, databaseConfigSpec, type Env, loadConfig } from '@vigil/platform';
import { authDatabase } from '@vigil/service/auth';
import { deliveryDatabase } from '@vigil/service/delivery';
import { eventIngestDatabase } from '@vigil/service/event-ingest';
import { policyDatabase } from '@vigil/service/policy';

/**
 * The database commands for every service at once, from a checkout (docs/operations.md#database-roles):
 *   npm run db:bootstrap-roles   creates or updates the roles (DATABASE_ADMIN_URL, DATABASE_OWNER_URL, <SERVICE>_DATABASE_URL)
 *   npm run db:migrate           runs every service's migrations as the owner role (DATABASE_URL), then the runtime grants
 *   npm run secrets:reencrypt    re-seals every service's secrets under the first key of VIGIL_ENCRYPTION_KEYS
 *   npm run secrets:check        the same, reading only: which keys the stored secrets use (docs/operations.md#rotating-the-encryption-key)
 * A service image runs the same for itself: `node dist/main.js bootstrap-roles` / `migrate` / `reencrypt-secrets [--check]`.
 */
let failed = false;

/**
 * What reencrypt-secrets uses from a checkout: DATABASE_URL, or else the embedded PostgreSQL of a
 * running standalone process (EMBEDDED_POSTGRES_PORT, 5488); VIGIL_ENCRYPTION_KEYS, or else the
 * key file the standalone process reads (VIGIL_DATA_DIR/encryption.key).
 */
function standaloneSecretsEnv(source: Env): Env {
  const env: Env = { ...source };
  env.DATABASE_URL ??= `postgres://vigil:vigil@127.0.0.1:${source.EMBEDDED_POSTGRES_PORT ?? '5488'}/vigil`;
  const keyFile = join(resolve(source.VIGIL_DATA_DIR ?? '.data'), 'encryption.key');
  if (!env.VIGIL_ENCRYPTION_KEYS && existsSync(keyFile)) env.VIGIL_ENCRYPTION_KEYS = readFileSync(keyFile, 'utf8').trim();
  return env;
}

async function main(command: string | undefined): Promise<unknown> {
  if (command === 'bootstrap-roles') return { done: await bootstrapRolesFromEnv(process.env) };
  if (command === 'migrate') {
    const { DATABASE_URL } = loadConfig('db-migrate', { DATABASE_URL: databaseConfigSpec.DATABASE_URL }, process.env);
    const results: Record<string, unknown> = {};
    for (const database of [authDatabase, policyDatabase, eventIngestDatabase, deliveryDatabase]) {
      results[database.service] = await migrateService(database, DATABASE_URL, process.env);
    }
    return results;
  }
  if (command === 'reencrypt-secrets') {
    const config = loadConfig('reencrypt-secrets', reencryptConfigSpec, standaloneSecretsEnv(process.env));
    const check = process.argv.includes('--check');
    const results: Record<string, unknown> = {};
    for (const database of [authDatabase, policyDatabase, eventIngestDatabase, deliveryDatabase]) {
      const result = await reencryptService(database, config.DATABASE_URL, config.VIGIL_ENCRYPTION_KEYS, { check });
      if (!result.done) failed = true;
      results[database.service] = result;
    }
    return results;
  }
  throw new Error('usage: database-command.ts bootstrap-roles | migrate | reencrypt-secrets [--check]');
}

main(process.argv[2]).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (failed) process.exitCode = 1;
  },
  (error: unknown) => {
    process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
