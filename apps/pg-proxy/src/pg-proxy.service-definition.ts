import type { ServiceDefinition } from '@vigil/platform';
import { pgProxyConfigSpec } from './config/pg-proxy.config';
import { PgProxyModule } from './pg-proxy.module';

/**
 * The PostgreSQL audit proxy: clients connect to PROXY_LISTEN_PORT (6432) as to PostgreSQL; health
 * and metrics answer on PORT (3005). No schema of its own: captures go to audit.ingest.
 */
export const pgProxyService: ServiceDefinition<typeof pgProxyConfigSpec> = {
  name: 'pg-proxy',
  configSpec: pgProxyConfigSpec,
  defaultPort: 3005,
  usesDatabase: false,
  rootModule: (context) => PgProxyModule.forRoot(context),
};
