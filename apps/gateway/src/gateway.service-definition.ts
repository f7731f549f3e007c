import { VIGIL_VERSION } from '@vigil/contracts';
import type { ConfigOf, ServiceConfigBase, ServiceDefinition } from '@vigil/platform';
import { gatewayConfigSpec } from './config/gateway.config';
import { GatewayModule } from './gateway.module';
import { setupOpenApi } from './openapi/openapi.document';

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec> & ServiceConfigBase;

export const gatewayService: ServiceDefinition<typeof gatewayConfigSpec> = {
  name: 'gateway',
  configSpec: gatewayConfigSpec,
  defaultPort: 3000,
  usesDatabase: false,
  rootModule: (context) => GatewayModule.forRoot(context),
  configure: (app) => {
    setupOpenApi(app, VIGIL_VERSION);
  },
};
