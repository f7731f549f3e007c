import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type AuditEvent,
  type EventPositionRequest,
  type EventPositionResponse,
  MessageHeaders,
  type ReplayEventsRequest,
  type ReplayEventsResponse,
  RpcPatterns,
  Topics,
} from '@vigil/contracts';
import { type IncomingMessage, MESSAGE_BUS, type MessageBus, type Subscription } from '@vigil/messaging';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import type { GatewayConfig } from '../../gateway.service-definition';
import { RpcClients } from '../../rpc/rpc-clients';

/** What the hub hands to each stream, in sequence order, each sequence once. */
export interface StreamListener {
  onEvent(seq: bigint, event: AuditEvent): void;
  onHeartbeat(): void;
  /** Ends the stream with a final message (see closeAll); the stream removes itself from the hub. */
  close(code: string, detail: string, graceMs?: number): void;
}

/**
 * This replica's view of audit.events.v1, in global sequence order with no gap and no duplicate.
 *
 * Every gateway replica consumes the topic in a consumer group of its own (all replicas see every
 * event), starting from the newest offset. Partitions interleave arbitrarily, so arrivals are put
 * back in sequence order: the hub emits sequence N only after N-1. Sequences are dense and commit
 * in order (event-ingest), so a missing N while N+1 has arrived is committed and is fetched from
 * the database if the bus has not brought it within STREAM_GAP_WAIT_MS; an idle hub also asks for
 * the head sequence now and then, which covers the moment before the consumer's partitions were
 * assigned. The bus is the fast path; the database is the truth.
 */
@Injectable()
export class EventStreamHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private next: bigint | undefined;
  /** Put in order, not yet handed to the streams; and the last sequence handed to them. */
  private outbox: { seq: bigint; event: AuditEvent }[] = [];
  private emitted: bigint | undefined;
  private pumping = false;
  private readonly pending = new Map<bigint, AuditEvent>();
  private readonly listeners = new Set<StreamListener>();
  private subscription: Subscription | undefined;
  private timers: NodeJS.Timeout[] = [];
  private filling = false;
  private gapSince: number | undefined;
  private lastArrival = 0;
  private readyWaiters: (() => void)[] = [];
  private stopped = false;
  private readonly logger: Logger;
  /** Events put in order and emitted, and events fetched from the database to close gaps. */
  readonly stats = { emitted: 0, filled: 0, duplicates: 0 };

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'event-stream' });
  }

  async onApplicationBootstrap() {
    this.subscription = await this.bus.subscribe({
      groupId: `gateway.stream.${randomUUID()}`,
      topics: [Topics.auditEvents],
      startFrom: 'latest',
      maxBatchSize: 2000,
      handler: async (messages) => this.onMessages(messages),
    });
    void this.initialise();
    this.timers.push(setInterval(() => this.checkGaps(), Math.max(20, Math.floor(this.config.STREAM_GAP_WAIT_MS / 2))));
    this.timers.push(setInterval(() => this.heartbeat(), this.config.STREAM_HEARTBEAT_MS));
    for (const t of this.timers) t.unref();
  }

  async onApplicationShutdown() {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await this.subscription?.stop();
  }

  /** The newest sequence handed to the streams; undefined until the hub knows where it starts. */
  get position(): bigint | undefined {
    return this.emitted;
  }

  /** Resolves once the hub knows its starting position (false after `timeoutMs`). */
  ready(timeoutMs: number): Promise<boolean> {
    if (this.next !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  add(listener: StreamListener) {
    this.listeners.add(listener);
  }

  remove(listener: StreamListener) {
    this.listeners.delete(listener);
  }

  /** Streams registered with the hub (open on this replica). */
  get size(): number {
    return this.listeners.size;
  }

  /** Ends every registered stream (each removes itself as it closes). */
  closeAll(code: string, detail: string, graceMs?: number) {
    for (const listener of [...this.listeners]) listener.close(code, detail, graceMs);
  }

  private async initialise() {
    let delay = 200;
    while (!this.stopped && this.next === undefined) {
      try {
        const head = await this.rpc.events.call<EventPositionRequest, EventPositionResponse>(RpcPatterns.events.position, {});
        this.start(BigInt(head.seq ?? '0') + 1n);
        return;
      } catch (error) {
        this.logger.warn({ err: error, retry_ms: delay }, 'event-ingest unreachable; the stream waits for its position');
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private start(next: bigint) {
    this.next = next;
    this.emitted = next - 1n;
    for (const seq of [...this.pending.keys()]) if (seq < next) this.pending.delete(seq);
    this.drain();
    for (const w of this.readyWaiters.splice(0)) w();
  }

  private onMessages(messages: IncomingMessage[]) {
    this.lastArrival = Date.now();
    for (const message of messages) {
      const raw = message.headers[MessageHeaders.eventSequence];
      if (!raw || !/^\d+$/.test(raw)) continue; // published before sequences existed
      try {
        const envelope = JSON.parse(message.value) as { data: AuditEvent };
        this.accept(BigInt(raw), envelope.data);
      } catch (error) {
        this.logger.warn({ err: error, offset: message.offset }, 'unreadable audit event skipped by the stream');
      }
    }
    this.drain();
  }

  private accept(seq: bigint, event: AuditEvent) {
    if ((this.next !== undefined && seq < this.next) || this.pending.has(seq)) {
      this.stats.duplicates++;
      return;
    }
    this.pending.set(seq, event);
  }

  private drain() {
    if (this.next === undefined) return;
    while (this.pending.has(this.next)) {
      const event = this.pending.get(this.next)!;
      this.pending.delete(this.next);
      this.outbox.push({ seq: this.next, event });
      this.next++;
    }
    this.gapSince = this.pending.size ? (this.gapSince ?? Date.now()) : undefined;
    this.pump();
  }

  /**
   * Hands ordered events to the streams a slice at a time, yielding to the event loop between
   * slices so sockets drain and a large batch never lands on a client in one burst.
   */
  private pump() {
    if (this.pumping) return;
    this.pumping = true;
    const slice = this.outbox.splice(0, 100);
    for (const { seq, event } of slice) {
      this.emitted = seq;
      this.stats.emitted++;
      for (const listener of this.listeners) {
        try {
          listener.onEvent(seq, event);
        } catch (error) {
          this.logger.error({ err: error }, 'stream listener failed');
        }
      }
    }
    setImmediate(() => {
      this.pumping = false;
      if (this.outbox.length) this.pump();
    });
  }

  private checkGaps() {
    if (this.next === undefined || this.filling) return;
    const now = Date.now();
    const gapOld = this.gapSince !== undefined && now - this.gapSince >= this.config.STREAM_GAP_WAIT_MS;
    const idle = now - this.lastArrival >= this.config.STREAM_HEAD_POLL_MS;
    if (!gapOld && !idle) return;
    this.filling = true;
    this.fill(gapOld)
      .catch((error) => this.logger.warn({ err: error }, 'could not fetch missing events; will retry'))
      .finally(() => {
        this.filling = false;
        if (idle) this.lastArrival = Date.now();
      });
  }

  /** Fetches from the database what the bus has not brought: a gap, or everything up to the head. */
  private async fill(gap: boolean) {
    let until: bigint;
    if (gap) {
      until = [...this.pending.keys()].reduce((a, b) => (b < a ? b : a)) - 1n;
    } else {
      const head = await this.rpc.events.call<EventPositionRequest, EventPositionResponse>(RpcPatterns.events.position, {});
      until = BigInt(head.seq ?? '0');
    }
    while (this.next !== undefined && this.next <= until && !this.stopped) {
      const page = await this.rpc.events.call<ReplayEventsRequest, ReplayEventsResponse>(RpcPatterns.events.replay, {
        after_seq: String(this.next - 1n),
        until_seq: String(until),
        filters: {},
        limit: 1000,
      });
      for (const { seq, event } of page.events) {
        this.stats.filled++;
        this.accept(BigInt(seq), event);
      }
      this.drain();
      if (page.done || !page.events.length) break;
    }
  }

  private heartbeat() {
    for (const listener of this.listeners) listener.onHeartbeat();
  }
}
