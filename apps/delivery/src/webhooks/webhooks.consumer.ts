import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type Decoded, type IncomingMessage, MessagingRuntime } from '@vigil/messaging';
import { DeliveryRouter } from '../deliveries/delivery-router';
import type { WebhookEvent } from './webhook-payload';
import { webhookSources } from './webhook-sources';

const sourcesByTopic = new Map(webhookSources.map((s) => [s.topic, s]));

export function decodeWebhookEvents(message: IncomingMessage): Decoded<WebhookEvent[]> {
  const source = sourcesByTopic.get(message.topic);
  if (!source) return { ok: false, reason: `no webhook source for topic ${message.topic}` };
  return source.decode(message);
}

/** Consumes every webhook source topic; deliveries are created with the inbox record (exactly once). */
@Injectable()
export class WebhooksConsumer implements OnModuleInit {
  constructor(
    @Inject(MessagingRuntime) private readonly messaging: MessagingRuntime,
    @Inject(DeliveryRouter) private readonly router: DeliveryRouter,
  ) {}

  onModuleInit() {
    this.messaging.addConsumer<WebhookEvent[]>({
      name: 'delivery.webhooks',
      topics: webhookSources.map((s) => s.topic),
      decode: decodeWebhookEvents,
      handle: async (manager, messages) => {
        await this.router.route(manager, messages.flatMap((m) => m.value));
      },
    });
  }
}
