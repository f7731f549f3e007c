import { Module } from '@nestjs/common';
import { AlertDeliveriesRepository } from '../alert-destinations/alert-deliveries.repository';
import { AlertDeliveryWorker } from '../alert-destinations/alert-delivery.worker';
import { AlertDestinationsController } from '../alert-destinations/alert-destinations.controller';
import { AlertDestinationsRepository } from '../alert-destinations/alert-destinations.repository';
import { AlertDestinationsService } from '../alert-destinations/alert-destinations.service';
import { AlertSender } from '../alert-destinations/alert-sender';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AlertsConsumer } from './alerts.consumer';
import { AlertsController } from './alerts.controller';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';

/**
 * Alerts and alert destinations: the alerts consumer, lifecycle, destinations and their delivery
 * workers. The egress client and the secret box come from the webhooks module (one of each per service).
 */
@Module({
  imports: [WebhooksModule],
  controllers: [AlertsController, AlertDestinationsController],
  providers: [
    AlertsRepository,
    AlertsService,
    AlertsConsumer,
    AlertDestinationsRepository,
    AlertDeliveriesRepository,
    AlertDestinationsService,
    AlertSender,
    AlertDeliveryWorker,
  ],
})
export class AlertsModule {}
