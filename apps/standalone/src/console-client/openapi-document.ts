import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { VIGIL_VERSION } from '@vigil/contracts';
import { createLogger, createMetricsRegistry, loadServiceConfig, Readiness, ShutdownProgress, StartNotices } from '@vigil/platform';
import { buildOpenApiDocument, gatewayService } from '@vigil/service/gateway';

/**
 * The gateway's OpenAPI document, built the way the gateway builds it at start (same modules, same
 * post-processing) but without listening, connecting to any service or starting a database: the
 * Nest application is created, read and closed before its lifecycle hooks run.
 */
export async function gatewayOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = loadServiceConfig(gatewayService, { LOG_LEVEL: 'error', KAFKA_BROKERS: '' });
  const logger = createLogger('gateway', 'error', 'json');
  const context = { name: gatewayService.name, config, logger, readiness: new Readiness(), metrics: createMetricsRegistry('gateway'), notices: new StartNotices(), shutdown: new ShutdownProgress() };
  const app = await NestFactory.create(gatewayService.rootModule(context as never) as never, { logger: false, abortOnError: false, bodyParser: false });
  try {
    return buildOpenApiDocument(app, VIGIL_VERSION) as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
