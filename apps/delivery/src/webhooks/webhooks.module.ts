import { Module } from '@nestjs/common';
import { CONFIG, LOGGER, type Logger, SecretBox } from '@vigil/platform';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { DeliveryRouter, RETRY_SCHEDULE } from '../deliveries/delivery-router';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { RetrySchedule } from '../deliveries/retry-schedule';
import type { DeliveryConfig } from '../delivery.service-definition';
import { EgressClient } from '../egress/egress-client';
import { WebhooksConsumer } from './webhooks.consumer';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Webhook subscriptions, the consumer that turns bus events into deliveries, and the delivery workers. */
@Module({
  controllers: [WebhooksController],
  providers: [
    {
      provide: SecretBox,
      inject: [CONFIG, LOGGER],
      useFactory: (config: DeliveryConfig, logger: Logger) => new SecretBox(config.VIGIL_ENCRYPTION_KEYS, logger),
    },
    {
      provide: EgressClient,
      inject: [CONFIG, LOGGER],
      useFactory: (config: DeliveryConfig, logger: Logger) => {
        if (config.DELIVERY_ALLOW_INSECURE_TARGETS) {
          logger.warn('DELIVERY_ALLOW_INSECURE_TARGETS=true: http:// and private targets are allowed (local and test use only)');
        }
        return new EgressClient({ allowInsecureTargets: config.DELIVERY_ALLOW_INSECURE_TARGETS, maxSocketsPerOrigin: config.WEBHOOK_MAX_IN_FLIGHT });
      },
    },
    {
      provide: RETRY_SCHEDULE,
      inject: [CONFIG],
      useFactory: (config: DeliveryConfig) => {
        if (config.WEBHOOK_LEASE_MS <= config.WEBHOOK_TIMEOUT_MS) {
          throw new Error('WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS (a lease must outlive the request it covers)');
        }
        return new RetrySchedule(config.WEBHOOK_RETRY_SCHEDULE, config.WEBHOOK_RETRY_JITTER);
      },
    },
    WebhooksRepository,
    DeliveriesRepository,
    DeliveryRouter,
    WebhooksService,
    WebhooksConsumer,
    DeliveryWorker,
  ],
  exports: [EgressClient, SecretBox],
})
export class WebhooksModule {}
