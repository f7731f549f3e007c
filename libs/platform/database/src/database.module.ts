import { type DynamicModule, Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONTEXT, type ServiceContext } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { createServiceDataSource, type EntityList, type MigrationList, pingDatabase, runMigrations } from './data-source';

export interface DatabaseModuleOptions {
  schema: string;
  migrations: MigrationList;
  entities?: EntityList;
}

export const DATABASE_SCHEMA = Symbol('DATABASE_SCHEMA');

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  // Last phase of shutdown: consumers and relays have stopped and committed by now.
  async onApplicationShutdown() {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * The service's PostgreSQL connection, on its own schema, migrated before anything uses it.
 * Readiness reports it.
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
            if (context.config.MIGRATE_ON_START) {
              const applied = await runMigrations(dataSource, options.schema);
              if (applied.length) context.logger.info({ applied }, 'migrations applied');
            }
            context.readiness.register('database', () => pingDatabase(dataSource));
            return dataSource;
          },
        },
        DataSourceCloser,
      ],
      exports: [DataSource, DATABASE_SCHEMA],
    };
  }
}
