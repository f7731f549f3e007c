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
