import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { authMigrations } from './database/migrations';
import { AUTH_SCHEMA } from './database/schema';
import { AuthController } from './tokens/auth.controller';
import { SigningKeysService } from './tokens/signing-keys.service';
import { TokensService } from './tokens/tokens.service';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

@Module({})
export class AuthModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService({ schema: AUTH_SCHEMA, migrations: authMigrations }),
        MessagingModule.forService(),
      ],
      controllers: [AuthController],
      providers: [UsersRepository, UsersService, SigningKeysService, TokensService],
    };
  }
}
