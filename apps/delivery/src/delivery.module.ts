import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { deliveryMigrations } from './database/migrations';
import { DELIVERY_SCHEMA } from './database/schema';

/** Webhooks and alert destinations (their features land in their own modules here). */
@Module({})
export class DeliveryModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService({ schema: DELIVERY_SCHEMA, migrations: deliveryMigrations }),
        MessagingModule.forService(),
      ],
    };
  }
}
