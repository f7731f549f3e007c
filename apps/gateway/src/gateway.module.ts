import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { AuthController } from './auth/auth.controller';
import { GatewayAuthGuard } from './auth/auth.guard';
import { JwksCache } from './auth/jwks.cache';
import { JwtStrategy } from './auth/jwt.strategy';
import { EventsController } from './events/events.controller';
import { RpcClients } from './rpc/rpc-clients';
import { WebhooksController } from './webhooks/webhooks.controller';

@Module({})
export class GatewayModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PlatformModule.forService(context), PassportModule],
      controllers: [AuthController, EventsController, WebhooksController],
      providers: [RpcClients, JwksCache, JwtStrategy, { provide: APP_GUARD, useClass: GatewayAuthGuard }],
    };
  }
}
