import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { ProblemDetailsFilter } from '../errors/problem.filter';
import { Registry } from 'prom-client';
import { HealthController } from '../health/health.controller';
import { Readiness } from '../health/readiness';
import { StartNotices } from '../logging/banner';
import { RpcCorrelationInterceptor } from '../rpc/rpc';
import { CONFIG, LOGGER, RPC_CREDENTIALS, SERVICE_CONTEXT, type ServiceContext } from './service-context';

/**
 * Health, the metrics registry, logger and configuration for one service; imported once by its root
 * module. `/metrics` is served by its own listener (startService), not by the application.
 */
@Global()
@Module({})
export class PlatformModule {
  static forService(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: PlatformModule,
      controllers: [HealthController],
      providers: [
        { provide: SERVICE_CONTEXT, useValue: context },
        { provide: CONFIG, useValue: context.config },
        { provide: LOGGER, useValue: context.logger },
        { provide: RPC_CREDENTIALS, useValue: context.rpc },
        { provide: Readiness, useValue: context.readiness },
        { provide: Registry, useValue: context.metrics },
        { provide: StartNotices, useValue: context.notices },
        { provide: APP_INTERCEPTOR, useFactory: () => new RpcCorrelationInterceptor(context.tracer) },
        { provide: APP_FILTER, useFactory: () => new ProblemDetailsFilter(context.logger) },
      ],
      exports: [SERVICE_CONTEXT, CONFIG, LOGGER, RPC_CREDENTIALS, Readiness, Registry, StartNotices],
    };
  }
}
