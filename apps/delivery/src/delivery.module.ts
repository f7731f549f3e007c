import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { newId } from '@vigil/domain';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { deliveryMigrations } from './database/migrations';
import { DELIVERY_SCHEMA } from './database/schema';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AlertsModule } from './alerts/alerts.module';

/** Webhooks and alert destinations (each feature in its own module). */
@Module({})
export class DeliveryModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [
        PlatformModule.forService(context),
        DatabaseModule.forService({ schema: DELIVERY_SCHEMA, migrations: deliveryMigrations }),
        MessagingModule.forService({ newEventId: () => newId('event') }),
        WebhooksModule,
        AlertsModule,
      ],
    };
  }
}
