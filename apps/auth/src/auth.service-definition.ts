import type { ConfigOf, ServiceConfigBase, ServiceDefinition } from '@vigil/platform';
import { AuthModule } from './auth.module';
import { authConfigSpec } from './config/auth.config';

export type AuthConfig = ConfigOf<typeof authConfigSpec> & ServiceConfigBase;

export const authService: ServiceDefinition<typeof authConfigSpec> = {
  name: 'auth',
  configSpec: authConfigSpec,
  defaultPort: 3001,
  rpcPort: 4001,
  usesDatabase: true,
  rootModule: (context) => AuthModule.forRoot(context),
};

/** The service's schema and grants, for the migrate command and the role bootstrap of a composed system. */
export { authDatabase } from './database/auth.database';
