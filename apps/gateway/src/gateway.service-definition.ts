import type { INestApplication } from '@nestjs/common';
import { VIGIL_VERSION } from '@vigil/contracts';
import type { ConfigOf, ServiceConfigBase, ServiceDefinition } from '@vigil/platform';
import { type ConsoleMount, defaultConsoleDir, mountConsole } from './console/console-static';
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
  configure: (app, context) => {
    consoles.set(app, mountConsole(app, context.config.CONSOLE_DIR ?? defaultConsoleDir(), context.logger));
    setupOpenApi(app, VIGIL_VERSION);
  },
};

const consoles = new WeakMap<INestApplication, ConsoleMount>();

/** Whether a started gateway serves the web console at `/`, and from which folder. */
export function consoleMountOf(app: INestApplication): ConsoleMount | undefined {
  return consoles.get(app);
}

export { buildOpenApiDocument } from './openapi/openapi.document';
