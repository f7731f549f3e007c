import { VIGIL_VERSION } from '@vigil/contracts';
import { type ConfigOf, type ServiceConfigBase, type ServiceDefinition, UnstorableTextPipe } from '@vigil/platform';
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
    // After the DTO validation pipe: every path, query and body string the handlers read, except
    // audit records (stored escaped by event-ingest), is refused with a 400 when it holds U+0000.
    app.useGlobalPipes(new UnstorableTextPipe());
    setupOpenApi(app, VIGIL_VERSION);
  },
};
