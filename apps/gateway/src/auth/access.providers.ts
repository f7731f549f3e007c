import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { RequestOriginInterceptor } from '../audit/request-origin.interceptor';
import { ApiKeysController } from '../api-keys/api-keys.controller';
import { ClientAddresses } from '../client-address/client-addresses';
import { OAuthController } from '../oauth/oauth.controller';
import { OAuthClientsController } from '../oauth/oauth-clients.controller';
import { LoginThrottle } from '../rate-limit/login-throttle';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { UsersController } from '../users/users.controller';
import { AccessTokenStrategy } from './access-token.strategy';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyStrategy } from './api-key.strategy';
import { AuthController } from './auth.controller';
import { GatewayAuthGuard } from './auth.guard';
import { Authenticator } from './authenticator';
import { GatewayPassport } from './gateway-passport';
import { JwksCache } from './jwks.cache';
import { RevocationsSubscriber } from './revocations.subscriber';

/** Access control of the gateway (docs/access.md): registered by GatewayModule. */
export const accessControllers = [AuthController, ApiKeysController, UsersController, OAuthClientsController, OAuthController];

export const accessProviders = [
  JwksCache,
  AccessTokenStrategy,
  ApiKeyCache,
  ApiKeyStrategy,
  GatewayPassport,
  Authenticator,
  RateLimiter,
  ClientAddresses,
  LoginThrottle,
  RevocationsSubscriber,
  { provide: APP_GUARD, useClass: GatewayAuthGuard },
  // Who made each request and from where, carried to the services with every RPC call.
  { provide: APP_INTERCEPTOR, useClass: RequestOriginInterceptor },
];
