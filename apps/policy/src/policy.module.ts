import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { policyMigrations } from './database/migrations';
import { POLICY_SCHEMA } from './database/schema';

@Module({})
export class PolicyModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: PolicyModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService({ schema: POLICY_SCHEMA, migrations: policyMigrations }),
        MessagingModule.forService(),
      ],
    };
  }
}
