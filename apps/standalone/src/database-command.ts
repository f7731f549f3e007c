import { bootstrapRolesFromEnv, migrateService } from '@vigil/database';
import { ConfigError, databaseConfigSpec, loadConfig } from '@vigil/platform';
import { authDatabase } from '@vigil/service/auth';
import { deliveryDatabase } from '@vigil/service/delivery';
import { eventIngestDatabase } from '@vigil/service/event-ingest';
import { policyDatabase } from '@vigil/service/policy';

/**
 * The database commands for every service at once, from a checkout (docs/operations.md#database-roles):
 *   npm run db:bootstrap-roles   creates or updates the roles (DATABASE_ADMIN_URL, DATABASE_OWNER_URL, <SERVICE>_DATABASE_URL)
 *   npm run db:migrate           runs every service's migrations as the owner role (DATABASE_URL), then the runtime grants
 * A service image runs the same for itself: `node dist/main.js bootstrap-roles` / `migrate`.
 */
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
  throw new Error('usage: database-command.ts bootstrap-roles | migrate');
}

main(process.argv[2]).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  },
  (error: unknown) => {
    process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
