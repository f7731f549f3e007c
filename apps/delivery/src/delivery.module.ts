import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@vigil/database';
import { newId } from '@vigil/domain';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { deliveryDatabase } from './database/delivery.database';
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
        DatabaseModule.forService(deliveryDatabase),
        MessagingModule.forService({ newEventId: () => newId('event') }),
        WebhooksModule,
        AlertsModule,
      ],
    };
  }
}
