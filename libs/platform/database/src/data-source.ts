import { DataSource, type DataSourceOptions, type EntityManager, type MigrationInterface, type QueryRunner } from 'typeorm';
import { CommitHooks } from './commit-hooks';

export type MigrationList = NonNullable<DataSourceOptions['migrations']>;
export type EntityList = NonNullable<DataSourceOptions['entities']>;

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own schema: every table it owns lives there, and nothing else. */
  schema: string;
  entities?: EntityList;
  migrations: MigrationList;
  poolSize: number;
  applicationName: string;
}

export function createServiceDataSource(options: ServiceDatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: options.migrations,
    subscribers: [CommitHooks],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    applicationName: options.applicationName,
    extra: {
      max: options.poolSize,
      // A statement stuck behind a lock must not hold a request forever.
      statement_timeout: 30_000,
      idle_in_transaction_session_timeout: 60_000,
    },
  });
}

/**
 * A migration made of SQL statements, named `<prefix><timestamp>` (TypeORM orders migrations by
 * the timestamp at the end of the name): for the tables libraries give every service that uses
 * them (event store, outbox and inbox), created in the service's own schema.
 */
export function sqlMigration(prefix: string, timestamp: number, up: string[], down: string[]): new () => MigrationInterface {
  const name = `${prefix}${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;
    async up(runner: QueryRunner) {
      for (const statement of up) await runner.query(statement);
    }
    async down(runner: QueryRunner) {
      for (const statement of down) await runner.query(statement);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

/**
 * Runs the service's migrations once, even when several replicas start together: a session-level
 * advisory lock per schema serialises them, and each migration runs in its own transaction.
 */
export async function runMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const lockKey = `vigil:migrations:${schema}`;
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey]);
    // Only when missing: CREATE SCHEMA needs CREATE on the database even with IF NOT EXISTS, and an
    // owner role given its schema by the role bootstrap holds no such right.
    const [found] = await runner.query('SELECT to_regnamespace($1) IS NOT NULL AS present', [schema]);
    if (!found.present) await runner.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]).catch(() => undefined);
    await runner.release();
  }
}

export async function pingDatabase(dataSource: DataSource): Promise<boolean> {
  if (!dataSource.isInitialized) return false;
  await dataSource.query('SELECT 1');
  return true;
}

export { isConnectionFailure } from '@vigil/platform';

/** Transaction helper that reads better at call sites than `dataSource.transaction`. */
export function inTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(work);
}

/**
 * Runs reads on one snapshot (read-only, REPEATABLE READ). A page and its total read in two plain
 * statements can straddle a concurrent commit and disagree (one row listed, total 0).
 */
export function inSnapshot<T>(dataSource: DataSource, read: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction('REPEATABLE READ', async (manager) => {
    await manager.query('SET TRANSACTION READ ONLY');
    return read(manager);
  });
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.driverError?.code;
  const name = e?.constraint ?? e?.driverError?.constraint;
  return code === '23505' && (constraint === undefined || name === constraint);
}
