import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ulid } from '@vigil/domain';
import { ChannelListener } from '@vigil/database';
import { CONFIG, Counter, Histogram, LOGGER, type Logger, Registry, SecretBox, secretContext, serviceTracer } from '@vigil/platform';
import { inAttemptSpan } from './attempt-span';
import { DataSource } from 'typeorm';
import { WEBHOOK_SECRET } from '../database/sealed-columns';
import type { DeliveryConfig } from '../delivery.service-definition';
import { EgressClient, type EgressResult } from '../egress/egress-client';
import { signedHeaders } from '../webhooks/webhook-payload';
import { type AttemptOutcome, type ClaimedDelivery, DeliveriesRepository, DELIVERIES_CHANNEL } from './deliveries.repository';
import { RETRY_SCHEDULE } from './delivery-router';
import type { RetrySchedule } from './retry-schedule';

const CLAIM_BATCH = 500;
/** How long a stopping worker waits for requests in flight; the rest are retried once their lease ends. */
const STOP_WAIT_MS = 5_000;
/**
 * Deliveries one instance may hold leased per endpoint, as a multiple of the endpoint's request
 * limit: the next ones wait in memory and go out the moment a request to that endpoint finishes.
 */
const PREFETCH_FACTOR = 8;
/** Deliveries leased by one instance (queued and in flight), as a multiple of WEBHOOK_MAX_IN_FLIGHT. */
const LEASED_FACTOR = 4;
/**
 * A queued delivery is sent only if its lease still covers a whole request plus this margin (for
 * clock differences between this host and the database; at most half of lease minus timeout);
 * otherwise it is given back unsent, due at once.
 */
const LEASE_MARGIN_MS = 5_000;
/**
 * Up to this many outcomes, the transaction that records them also claims the next deliveries
 * (one round trip less per cycle, what a single busy endpoint needs); larger batches are recorded
 * alone while the claim loop runs beside them.
 */
const FUSED_CLAIM_MAX = 64;

interface Leased {
  delivery: ClaimedDelivery;
  /** Local time by which the lease surely ends (taken before the claim started). */
  leaseUntil: number;
}

/**
 * Sends due deliveries. Work is claimed from PostgreSQL under a lease (FOR UPDATE SKIP LOCKED), so
 * any number of delivery instances share the queue without sending one attempt twice; an instance
 * that dies leaves leases that expire and are claimed again (at least once, never lost). Outcomes
 * are written in batches; the retry schedule lives in the rows, so restarts keep it.
 *
 * Per endpoint, one instance at a time holds leases (the claim skips endpoints leased by another
 * instance). It may lease up to PREFETCH_FACTOR x WEBHOOK_ENDPOINT_CONCURRENCY deliveries of that
 * endpoint, but keeps at most WEBHOOK_ENDPOINT_CONCURRENCY requests open to it: when one finishes,
 * the next leased delivery goes out at once, while outcomes are recorded (and more work claimed) in
 * the background. So an endpoint's throughput is bounded by its answer time, not by a database
 * round trip per request.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Requests open now, over all endpoints. */
  private inFlight = 0;
  /** Deliveries leased by this instance and not yet recorded (queued or in flight). */
  private leased = 0;
  /** Per endpoint: leased deliveries waiting for a request slot, and requests open. */
  private readonly queues = new Map<string, { waiting: Leased[]; open: number }>();
  /** Claims of this instance run one at a time, so they cannot together exceed an endpoint's limit. */
  private claimQueue: Promise<unknown> = Promise.resolve();
  private readonly sends = new Set<Promise<void>>();
  private outcomes: AttemptOutcome[] = [];
  /** Leased deliveries this instance gives back unsent (lease too short, or stopping). */
  private releases: string[] = [];
  private flushing: Promise<void> | undefined;
  private readonly secretCache = new Map<string, string>();
  private listener: ChannelListener | undefined;
  private readonly logger: Logger;
  private readonly attemptsTotal: Counter;
  private readonly latency: Histogram;
  private readonly leaseMargin: number;
  private readonly tracer = serviceTracer('delivery');

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DeliveriesRepository) private readonly deliveries: DeliveriesRepository,
    @Inject(SecretBox) private readonly secrets: SecretBox,
    @Inject(EgressClient) private readonly egress: EgressClient,
    @Inject(RETRY_SCHEDULE) private readonly schedule: RetrySchedule,
    @Inject(CONFIG) private readonly config: DeliveryConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Registry) registry: Registry,
  ) {
    this.logger = logger.child({ component: 'webhook-worker' });
    this.leaseMargin = Math.min(LEASE_MARGIN_MS, Math.floor((config.WEBHOOK_LEASE_MS - config.WEBHOOK_TIMEOUT_MS) / 2));
    this.attemptsTotal = new Counter({ name: 'vigil_webhook_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers: [registry] });
    this.latency = new Histogram({
      name: 'vigil_webhook_attempt_seconds',
      help: 'Webhook delivery attempt latency',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
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
    await this.claimQueue;
    // Deliveries leased but not started go back to the queue now rather than after their lease.
    for (const queue of this.queues.values()) {
      for (const item of queue.waiting.splice(0)) this.giveBack(item);
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.sends]), new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    await this.flush();
    this.listener?.close();
    this.listener = undefined;
    this.egress.close();
  }

  private async listen(): Promise<void> {
    this.listener = await ChannelListener.open(this.dataSource, DELIVERIES_CHANNEL, {
      onNotification: () => this.wake?.(),
      onLost: (error) => this.logger.warn({ err: error }, 'LISTEN connection lost; polling'),
    });
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      if (!this.listener?.active && backoff === 0) await this.listen().catch(() => undefined);
      let full = false;
      try {
        const { claimed, want } = await this.claimSlots((limit, perEndpoint) =>
          this.deliveries.claim(this.owner, limit, perEndpoint, this.config.WEBHOOK_LEASE_MS),
        );
        backoff = 0;
        full = want > 0 && claimed === want;
      } catch (error) {
        backoff = Math.min(backoff ? backoff * 2 : 250, 10_000);
        this.logger.error({ err: error, retry_ms: backoff }, 'claiming deliveries failed');
      }
      if (!this.running) break;
      if (full) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || this.config.WEBHOOK_POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /**
   * Runs one claim for as many deliveries as this instance may still lease (serialized with its
   * other claims), and queues what it got per endpoint.
   */
  private claimSlots(run: (limit: number, perEndpoint: number) => Promise<ClaimedDelivery[]>): Promise<{ claimed: number; want: number }> {
    const next = this.claimQueue.then(async () => {
      const room = this.config.WEBHOOK_MAX_IN_FLIGHT * LEASED_FACTOR - this.leased;
      const want = this.running ? Math.max(0, Math.min(CLAIM_BATCH, room)) : 0;
      const leaseUntil = Date.now() + this.config.WEBHOOK_LEASE_MS;
      const claimed = await run(want, this.config.WEBHOOK_ENDPOINT_CONCURRENCY * PREFETCH_FACTOR);
      this.leased += claimed.length;
      const touched = new Set<string>();
      for (const delivery of claimed) {
        this.queueOf(delivery.webhook_id).waiting.push({ delivery, leaseUntil });
        touched.add(delivery.webhook_id);
      }
      for (const webhookId of touched) this.pump(webhookId);
      return { claimed: claimed.length, want };
    });
    this.claimQueue = next.catch(() => undefined);
    return next;
  }

  private queueOf(webhookId: string): { waiting: Leased[]; open: number } {
    let queue = this.queues.get(webhookId);
    if (!queue) {
      queue = { waiting: [], open: 0 };
      this.queues.set(webhookId, queue);
    }
    return queue;
  }

  /** Starts as many of an endpoint's queued deliveries as its request limit and the instance limit allow. */
  private pump(webhookId: string): void {
    const queue = this.queues.get(webhookId);
    if (!queue) return;
    while (this.running && queue.waiting.length && queue.open < this.config.WEBHOOK_ENDPOINT_CONCURRENCY && this.inFlight < this.config.WEBHOOK_MAX_IN_FLIGHT) {
      const item = queue.waiting.shift()!;
      if (Date.now() + this.config.WEBHOOK_TIMEOUT_MS + this.leaseMargin > item.leaseUntil) {
        // Its lease could end during the request: another instance might take it meanwhile.
        this.giveBack(item);
        continue;
      }
      queue.open++;
      this.dispatch(item.delivery, queue);
    }
    if (!queue.waiting.length && !queue.open) this.queues.delete(webhookId);
  }

  private giveBack(item: Leased): void {
    this.leased--;
    this.releases.push(item.delivery.id);
    void this.flush();
  }

  /** Cached by subscription and sealed value: the same value read from another row must still be refused. */
  private openSecret(webhookId: string, sealed: string): string {
    const context = secretContext(WEBHOOK_SECRET, webhookId);
    const cacheKey = `${context}\n${sealed}`;
    let secret = this.secretCache.get(cacheKey);
    if (secret === undefined) {
      secret = this.secrets.open(sealed, context);
      if (this.secretCache.size > 10_000) this.secretCache.clear();
      this.secretCache.set(cacheKey, secret);
    }
    return secret;
  }

  private dispatch(delivery: ClaimedDelivery, queue: { open: number }): void {
    this.inFlight++;
    const send = this.tracedAttempt(delivery)
      .then((outcome) => {
        this.outcomes.push(outcome);
      })
      .catch((error) => this.logger.error({ err: error, delivery_id: delivery.id }, 'delivery attempt crashed; retried after its lease'))
      .finally(() => {
        const wasFull = this.inFlight >= this.config.WEBHOOK_MAX_IN_FLIGHT;
        this.inFlight--;
        this.leased--;
        queue.open--;
        this.sends.delete(send);
        this.pump(delivery.webhook_id);
        // The instance limit held other endpoints back: let them go on too.
        if (wasFull) for (const webhookId of [...this.queues.keys()]) this.pump(webhookId);
        void this.flush();
      });
    this.sends.add(send);
  }

  /**
   * With tracing on, each attempt is a client span in the trace that created the delivery (the
   * consumption of the event, and before it the request that stored the event). Only the target's
   * host is recorded, never its path or query (they may hold tokens), nor headers or body.
   */
  private tracedAttempt(delivery: ClaimedDelivery): Promise<AttemptOutcome> {
    return inAttemptSpan(this.tracer, 'webhook attempt', delivery.trace_context, () => ({
      'http.request.method': 'POST',
      'server.address': hostOf(delivery.url),
      'vigil.webhook.id': delivery.webhook_id,
      'vigil.delivery.id': delivery.id,
      'vigil.delivery.attempt': delivery.attempt_count + 1,
      'vigil.event.id': delivery.event_id,
      'vigil.event.type': delivery.event_type,
    }), () => this.attempt(delivery));
  }

  private async attempt(delivery: ClaimedDelivery): Promise<AttemptOutcome> {
    const attemptId = `wha_${ulid()}`;
    const startedAt = new Date();
    let result: EgressResult;
    try {
      const headers = signedHeaders(delivery.form, this.openSecret(delivery.webhook_id, delivery.secret_sealed), delivery.body, {
        eventType: delivery.event_type,
        deliveryId: delivery.id,
        deliveryAttemptId: attemptId,
        timestamp: Math.floor(startedAt.getTime() / 1000),
      });
      result = await this.egress.send({ url: delivery.url, headers, body: delivery.body, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS });
    } catch (error) {
      // E.g. a secret sealed with a key no longer configured: recorded as a failed attempt, not a crash loop.
      result = { statusCode: null, latencyMs: 0, error: `not sent: ${(error as Error).message}`, refused: false, responseBody: '' };
    }
    const success = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const nextIndex = delivery.schedule_index + 1;
    // Test deliveries get one attempt; real ones follow the schedule.
    const nextDelay = success || delivery.test ? null : this.schedule.delayMs(nextIndex);
    this.attemptsTotal.inc({ outcome: success ? 'success' : result.refused ? 'refused' : result.statusCode === null ? 'error' : 'http_error' });
    this.latency.observe(result.latencyMs / 1000);
    return {
      deliveryId: delivery.id,
      webhookId: delivery.webhook_id,
      test: delivery.test,
      attemptId,
      attempt: delivery.attempt_count + 1,
      startedAt,
      latencyMs: result.latencyMs,
      statusCode: result.statusCode,
      success,
      error: success ? null : (result.error ?? `HTTP ${result.statusCode}`),
      status: success ? 'succeeded' : nextDelay === null ? 'failed' : 'pending',
      scheduleIndex: success || nextDelay === null ? delivery.schedule_index : nextIndex,
      nextDelayMs: nextDelay,
      firstAttemptAt: delivery.first_attempt_at ?? startedAt,
    };
  }

  /**
   * Writes finished attempts in batches; one flush at a time, the next picks up what piled up
   * meanwhile. The transaction that records attempts also claims more due deliveries, so an
   * endpoint's queue is refilled while its requests go on.
   */
  private flush(): Promise<void> {
    this.flushing ??= (async () => {
      let failures = 0;
      while (this.outcomes.length || this.releases.length) {
        const batch = this.outcomes.splice(0, 1000);
        const releases = this.releases.splice(0);
        try {
          if (releases.length) await this.deliveries.release(this.owner, releases);
          if (batch.length <= FUSED_CLAIM_MAX) {
            await this.claimSlots((limit, perEndpoint) =>
              this.deliveries.complete(this.owner, batch, limit > 0 ? { limit, perEndpoint, leaseMs: this.config.WEBHOOK_LEASE_MS } : undefined),
            );
          } else {
            // A large batch: record it alone, and let the claim loop refill queues meanwhile on its own connection.
            this.wake?.();
            await this.deliveries.complete(this.owner, batch);
          }
          failures = 0;
        } catch (error) {
          failures++;
          if (failures >= 5 || !this.dataSource.isInitialized) {
            this.logger.error({ err: error, lost: batch.length }, 'could not record attempts; their deliveries go out again after the lease');
            continue;
          }
          this.outcomes.unshift(...batch);
          this.releases.unshift(...releases);
          await new Promise((r) => setTimeout(r, 200 * failures));
        }
      }
    })().finally(() => {
      this.flushing = undefined;
      if (this.outcomes.length || this.releases.length) void this.flush();
      this.wake?.();
    });
    return this.flushing;
  }
}

/** The target's host for the attempt span ('' when the stored URL does not parse). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
