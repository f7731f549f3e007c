import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { newId } from '@vigil/domain';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { authDatabase } from './database/auth.database';
import { ExpiredGrantsPurger } from './maintenance/expired-grants.purger';
import { ExpiredGrantsRepository } from './maintenance/expired-grants.repository';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthRepository } from './oauth/oauth.repository';
import { OAuthService } from './oauth/oauth.service';
import { RevocationsPublisher } from './revocations/revocations.publisher';
import { AuthController } from './tokens/auth.controller';
import { RefreshTokensRepository } from './tokens/refresh-tokens.repository';
import { SigningKeysService } from './tokens/signing-keys.service';
import { TokensService } from './tokens/tokens.service';
import { UsersController } from './users/users.controller';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

@Module({})
export class AuthModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService(authDatabase),
        MessagingModule.forService({ newEventId: () => newId('event') }),
      ],
      controllers: [AuthController, UsersController, ApiKeysController, OAuthController],
      providers: [
        UsersRepository,
        UsersService,
        SigningKeysService,
        RefreshTokensRepository,
        RevocationsPublisher,
        TokensService,
        ApiKeysRepository,
        ApiKeysService,
        OAuthRepository,
        OAuthService,
        ExpiredGrantsRepository,
        ExpiredGrantsPurger,
      ],
    };
  }
}
