import type { ConfigOf, ServiceConfigBase, ServiceDefinition } from '@vigil/platform';
import { policyConfigSpec } from './config/policy.config';
import { PolicyModule } from './policy.module';

export type PolicyConfig = ConfigOf<typeof policyConfigSpec> & ServiceConfigBase;

export const policyService: ServiceDefinition<typeof policyConfigSpec> = {
  name: 'policy',
  configSpec: policyConfigSpec,
  defaultPort: 3002,
  rpcPort: 4002,
  usesDatabase: true,
  rootModule: (context) => PolicyModule.forRoot(context),
};

/** The service's schema and grants, for the migrate command and the role bootstrap of a composed system. */
export { policyDatabase } from './database/policy.database';
