import type { INestApplication } from '@nestjs/common';
import { VIGIL_VERSION } from '@vigil/contracts';
import { type ConfigOf, type ServiceConfigBase, type ServiceDefinition, UnstorableTextPipe } from '@vigil/platform';
import { trustsHop } from './client-address/client-address';
import { type ConsoleMount, defaultConsoleDir, mountConsole } from './console/console-static';
import { gatewayConfigSpec } from './config/gateway.config';
import { GatewayModule } from './gateway.module';
import { setupOpenApi } from './openapi/openapi.document';
import { PathIdPipe } from './path-ids/path-id.pipe';

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec> & ServiceConfigBase;

export const gatewayService: ServiceDefinition<typeof gatewayConfigSpec> = {
  name: 'gateway',
  configSpec: gatewayConfigSpec,
  defaultPort: 3000,
  usesDatabase: false,
  rootModule: (context) => GatewayModule.forRoot(context),
  // Before DTO validation (a lone surrogate makes some validators throw): every path, query and body
  // string the handlers read, except audit records (stored escaped by event-ingest), is refused
  // with a 400 naming the field when it holds U+0000 or a lone surrogate.
  // Then a path id of a form Vigil never makes is a 404, as any unknown id is.
  inputPipes: () => [new UnstorableTextPipe(), new PathIdPipe()],
  configure: (app, context) => {
    // Express's own view (req.protocol, req.hostname for the OAuth issuer) trusts the same proxies
    // as the client address (ClientAddresses).
    const express = app.getHttpAdapter().getInstance() as { set(k: string, v: unknown): void };
    express.set('trust proxy', trustsHop((context.config as GatewayConfig).TRUST_PROXY));
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
