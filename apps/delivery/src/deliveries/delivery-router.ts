import { Inject, Injectable } from '@nestjs/common';
import { matchesEventPattern } from '@vigil/contracts';
import { ulid } from '@vigil/domain';
import type { EntityManager } from 'typeorm';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { webhookBody, type WebhookEvent } from '../webhooks/webhook-payload';
import { DeliveriesRepository, type NewDeliveryRow, type NewEventRow } from './deliveries.repository';
import { RetrySchedule } from './retry-schedule';

export const RETRY_SCHEDULE = Symbol('RETRY_SCHEDULE');

export function newDeliveryId(): string {
  return `whd_${ulid()}`;
}

/**
 * Turns webhook events into deliveries for every active subscription whose patterns match, inside
 * the transaction that records the consumed messages: a crash before commit leaves neither the
 * inbox row nor the deliveries, so the redelivered message creates them once.
 */
@Injectable()
export class DeliveryRouter {
  constructor(
    @Inject(WebhooksRepository) private readonly webhooks: WebhooksRepository,
    @Inject(DeliveriesRepository) private readonly deliveries: DeliveriesRepository,
    @Inject(RETRY_SCHEDULE) private readonly schedule: RetrySchedule,
  ) {}

  async route(manager: EntityManager, events: WebhookEvent[]): Promise<number> {
    if (!events.length) return 0;
    const subscriptions = await this.webhooks.activeRouting(manager);
    if (!subscriptions.length) return 0;
    const eventRows = new Map<string, NewEventRow>();
    const deliveries: NewDeliveryRow[] = [];
    for (const event of events) {
      for (const subscription of subscriptions) {
        if (!subscription.events.some((pattern) => matchesEventPattern(pattern, event.type))) continue;
        if (!eventRows.has(event.id)) {
          eventRows.set(event.id, { id: event.id, type: event.type, test: false, body_a: webhookBody('A', event), body_b: webhookBody('B', event) });
        }
        deliveries.push({
          id: newDeliveryId(),
          webhook_id: subscription.id,
          event_id: event.id,
          event_type: event.type,
          test: false,
          held: subscription.failing,
          delay_ms: this.schedule.delayMs(0) ?? 0,
        });
      }
    }
    return this.deliveries.insert(manager, [...eventRows.values()], deliveries);
  }
}
