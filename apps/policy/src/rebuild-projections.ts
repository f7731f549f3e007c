import 'reflect-metadata';
import { createServiceDataSource, EventStore } from '@vigil/database';
import { commonConfigSpec, ConfigError, createLogger, databaseConfigSpec, loadConfig } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { policyMigrations } from './database/migrations';
import { POLICY_SCHEMA } from './database/schema';
import { rebuildProjections } from './policies/projection-rebuild';
import { PoliciesRepository } from './policies/policies.repository';

/**
 * `npm run policy:rebuild-projections`: rebuilds the policy read models from the event store.
 * Safe while the service runs (commands wait for the rebuild's lock). Needs DATABASE_URL.
 */
async function main() {
  let config;
  try {
    config = loadConfig(
      'policy-rebuild',
      { DATABASE_URL: databaseConfigSpec.DATABASE_URL, LOG_LEVEL: commonConfigSpec.LOG_LEVEL, LOG_FORMAT: commonConfigSpec.LOG_FORMAT },
      process.env,
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger('policy-rebuild', config.LOG_LEVEL, config.LOG_FORMAT);
  const dataSource: DataSource = createServiceDataSource({
    url: config.DATABASE_URL,
    schema: POLICY_SCHEMA,
    migrations: policyMigrations,
    poolSize: 2,
    applicationName: 'vigil-policy-rebuild',
  });
  await dataSource.initialize();
  try {
    const report = await rebuildProjections(dataSource, new EventStore(POLICY_SCHEMA), new PoliciesRepository(dataSource));
    logger.info(report, 'policy read models rebuilt');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error) => {
  process.stderr.write(`policy-rebuild failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
