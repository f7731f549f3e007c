import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ChannelListener } from '@vigil/database';
import { ulid } from '@vigil/domain';
import { CONFIG, Counter, LOGGER, type Logger, Registry, serviceTracer } from '@vigil/platform';
import { inAttemptSpan } from '../deliveries/attempt-span';
import { DataSource } from 'typeorm';
import type { DeliveryConfig } from '../delivery.service-definition';
import { ALERT_DELIVERIES_CHANNEL, type AlertAttemptRecord, AlertDeliveriesRepository, type ClaimedAlertDelivery } from './alert-deliveries.repository';
import { AlertSender } from './alert-sender';

const CLAIM_BATCH = 200;
const STOP_WAIT_MS = 10_000;

/**
 * Sends queued alert deliveries. Like the webhook workers: claimed under a lease with SKIP LOCKED
 * (any number of instances, at least once), outcomes written in batches. The claim also spends
 * each destination's rate budget, so excess alerts wait in the queue instead of being dropped.
 */
@Injectable()
export class AlertDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  readonly owner = `alerts:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private inFlight = 0;
  private readonly sends = new Set<Promise<void>>();
  private outcomes: AlertAttemptRecord[] = [];
  private flushing: Promise<void> | undefined;
  private listener: ChannelListener | undefined;
  private readonly logger: Logger;
  private readonly tracer = serviceTracer('delivery');
  private readonly attemptsTotal: Counter;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AlertDeliveriesRepository) private readonly deliveries: AlertDeliveriesRepository,
    @Inject(AlertSender) private readonly sender: AlertSender,
    @Inject(CONFIG) private readonly config: DeliveryConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Registry) registry: Registry,
  ) {
    this.logger = logger.child({ component: 'alert-worker' });
    this.attemptsTotal = new Counter({ name: 'vigil_alert_attempts_total', help: 'Alert destination delivery attempts by outcome', labelNames: ['outcome'], registers: [registry] });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.running = true;
    await this.listen().catch((error) => this.logger.warn({ err: error }, 'LISTEN unavailable, relying on polling'));
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.sends]), new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    await this.flush();
    this.listener?.close();
    this.listener = undefined;
  }

  private async listen(): Promise<void> {
    this.listener = await ChannelListener.open(this.dataSource, ALERT_DELIVERIES_CHANNEL, {
      onNotification: () => this.wake?.(),
      onLost: (error) => this.logger.warn({ err: error }, 'LISTEN connection lost; polling'),
    });
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      if (!this.listener?.active && backoff === 0) await this.listen().catch(() => undefined);
      const free = this.config.ALERT_MAX_IN_FLIGHT - this.inFlight;
      let full = false;
      if (free > 0) {
        try {
          const want = Math.min(free, CLAIM_BATCH);
          const claimed = await this.deliveries.claim(this.owner, want, this.config.ALERT_DESTINATION_CONCURRENCY, this.config.ALERT_RATE_WINDOW_MS);
          backoff = 0;
          for (const delivery of claimed) this.dispatch(delivery);
          full = claimed.length === want;
        } catch (error) {
          backoff = Math.min(backoff ? backoff * 2 : 250, 10_000);
          this.logger.error({ err: error, retry_ms: backoff }, 'claiming alert deliveries failed');
        }
      }
      if (!this.running) break;
      if (full) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || this.config.ALERT_POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private dispatch(delivery: ClaimedAlertDelivery): void {
    this.inFlight++;
    const send = this.tracedAttempt(delivery)
      .then((outcome) => void this.outcomes.push(outcome))
      .catch((error) => this.logger.error({ err: error, delivery_id: delivery.id }, 'alert delivery attempt crashed; retried after its lease'))
      .finally(() => {
        this.inFlight--;
        this.sends.delete(send);
        void this.flush();
      });
    this.sends.add(send);
  }

  /**
   * With tracing on, each attempt is a client span in the trace that raised the alert. Only ids
   * and the provider are recorded: a destination's URL can itself be a credential (chat webhooks).
   */
  private tracedAttempt(delivery: ClaimedAlertDelivery): Promise<AlertAttemptRecord> {
    return inAttemptSpan(this.tracer, 'alert attempt', delivery.trace_context, () => ({
      'vigil.destination.id': delivery.destination_id,
      'vigil.destination.provider': delivery.settings.provider,
      'vigil.delivery.id': delivery.id,
      'vigil.delivery.attempt': delivery.attempt_count + 1,
      'vigil.alert.id': delivery.alert.id,
    }), () => this.attempt(delivery));
  }

  private async attempt(delivery: ClaimedAlertDelivery): Promise<AlertAttemptRecord> {
    const result = await this.sender.attempt(delivery.destination_id, delivery.settings, delivery.secrets_sealed, delivery.alert, delivery.id);
    const attempt = delivery.attempt_count + 1;
    // retry_attempts retries after the first attempt, retry_delay_seconds apart.
    const retry = !result.success && attempt <= delivery.settings.retry_attempts;
    this.attemptsTotal.inc({ outcome: result.success ? 'success' : retry ? 'retry' : 'failed' });
    return {
      id: `ala_${ulid()}`,
      deliveryId: delivery.id,
      destinationId: delivery.destination_id,
      attempt,
      startedAt: result.startedAt,
      latencyMs: result.latencyMs,
      statusCode: result.statusCode,
      success: result.success,
      error: result.error,
      status: result.success ? 'succeeded' : retry ? 'pending' : 'failed',
      delayMs: retry ? delivery.settings.retry_delay_seconds * 1000 : 0,
    };
  }

  /** Writes finished attempts in batches; one flush at a time. */
  private flush(): Promise<void> {
    this.flushing ??= (async () => {
      let failures = 0;
      while (this.outcomes.length) {
        const batch = this.outcomes.splice(0, 1000);
        try {
          await this.deliveries.complete(this.owner, batch);
          failures = 0;
        } catch (error) {
          failures++;
          if (failures >= 5 || !this.dataSource.isInitialized) {
            this.logger.error({ err: error, lost: batch.length }, 'could not record alert attempts; their deliveries go out again after the lease');
            continue;
          }
          this.outcomes.unshift(...batch);
          await new Promise((r) => setTimeout(r, 200 * failures));
        }
      }
    })().finally(() => {
      this.flushing = undefined;
      if (this.outcomes.length) void this.flush();
      this.wake?.();
    });
    return this.flushing;
  }
}
