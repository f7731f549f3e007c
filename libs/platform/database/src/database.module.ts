import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONTEXT, type ServiceContext, StartRefused } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { createServiceDataSource, type EntityList, pingDatabase, runMigrations } from './data-source';
import { closeDataSource, poolFigures } from './pool-connections';
import { currentRole, grantRuntimeRoles, pendingMigrations, privilegesBeyondRuntime, type ServiceDatabase } from './roles';
import { WriterFence } from './writer-fence';

export interface DatabaseModuleOptions extends Omit<ServiceDatabase, 'service'> {
  entities?: EntityList;
}

export const DATABASE_SCHEMA = Symbol('DATABASE_SCHEMA');

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}
  // Last phase of shutdown: consumers and relays have stopped and committed by now. Closing the
  // pool waits for every connection taken from it to be given back, except those whose socket is
  // already closed (closeDataSource): a stop that times out here names how many are still out.
  async onApplicationShutdown() {
    if (!this.dataSource.isInitialized) return;
    await this.context.shutdown.step(
      'database pool close',
      async () => {
        const { abandoned } = await closeDataSource(this.dataSource);
        if (abandoned) {
          this.context.logger.warn({ abandoned }, 'database pool closed with connections never given back, their sockets already closed');
        }
      },
      () => poolFigures(this.dataSource),
    );
  }
}

const ROLES_DOC = 'docs/operations.md#database-roles';

/**
 * Checks the role DATABASE_URL connects as before the service uses it, and fails closed:
 * - a role that can do more than a runtime role (superuser, owner of the schema, CREATE rights,
 *   CREATEROLE) is refused unless DATABASE_ALLOW_PRIVILEGED_ROLE=true (the standalone process, a
 *   single-role install);
 * - MIGRATE_ON_START runs the migrations as that role, which only a privileged role can;
 * - without it, every migration of this version must have been applied (by the `migrate` command,
 *   run as the owner role) or the service refuses to start rather than meet a table it does not know.
 */
async function prepare(dataSource: DataSource, options: DatabaseModuleOptions, context: ServiceContext): Promise<void> {
  const { config } = context;
  const role = await currentRole(dataSource);
  const beyond = await privilegesBeyondRuntime(dataSource, options.schema);
  if (beyond.length && !config.DATABASE_ALLOW_PRIVILEGED_ROLE) {
    throw new StartRefused(
      `DATABASE_URL connects as the PostgreSQL role "${role}", which ${beyond.join(', ')}. Each service connects with its own ` +
        `runtime role (${ROLES_DOC}); set DATABASE_ALLOW_PRIVILEGED_ROLE=true to run as this role anyway (single-role installs).`,
    );
  }
  if (config.MIGRATE_ON_START) {
    if (!beyond.length) {
      throw new StartRefused(
        `MIGRATE_ON_START=true, but the PostgreSQL role "${role}" is a runtime role and cannot run migrations: set MIGRATE_ON_START=false ` +
          `and run the service's migrate command as the owner role before starting it (${ROLES_DOC}).`,
      );
    }
    const applied = await runMigrations(dataSource, options.schema);
    if (applied.length) context.logger.info({ applied }, 'migrations applied');
    await options.afterMigrate?.(dataSource, config as unknown as Record<string, unknown>);
    await grantRuntimeRoles(dataSource, { service: context.name, ...options });
    return;
  }
  const pending = await pendingMigrations(dataSource, options.schema, options.migrations);
  if (pending === null || pending.length) {
    throw new StartRefused(
      `${pending === null ? `the schema ${options.schema} has not been migrated` : `migrations not applied yet: ${pending.join(', ')}`}; ` +
        `run the service's migrate command as the owner role first, or set MIGRATE_ON_START=true with a privileged role (${ROLES_DOC}).`,
    );
  }
}

/**
 * The service's PostgreSQL connection, on its own schema, checked (and migrated, when it may)
 * before anything uses it. Readiness reports it.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forService(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_SCHEMA, useValue: options.schema },
        {
          provide: DataSource,
          inject: [SERVICE_CONTEXT],
          useFactory: async (context: ServiceContext) => {
            const dataSource = createServiceDataSource({
              url: context.config.DATABASE_URL,
              schema: options.schema,
              entities: options.entities,
              migrations: options.migrations,
              poolSize: context.config.DATABASE_POOL_SIZE,
              applicationName: `vigil-${context.name}`,
            });
            await dataSource.initialize();
            const fence = WriterFence.forDataSource(dataSource, options.schema);
            try {
              await prepare(dataSource, options, context);
              // A newer release fenced this one out (docs/operations.md#upgrading-and-migrations).
              const fenced = await fence.refusal(dataSource);
              if (fenced) throw new StartRefused(fenced.message);
            } catch (error) {
              await dataSource.destroy().catch(() => undefined);
              throw error;
            }
            context.readiness.register('database', () => pingDatabase(dataSource));
            // Not ready once fenced out while running: traffic goes to the new release's replicas.
            context.readiness.register('writer-fence', async () => !(await fence.refusal(dataSource)));
            return dataSource;
          },
        },
        DataSourceCloser,
      ],
      exports: [DataSource, DATABASE_SCHEMA],
    };
  }
}
