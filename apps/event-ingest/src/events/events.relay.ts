import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { type AuditEvent, type EventEnvelope, MessageHeaders, Topics } from '@vigil/contracts';
import { MESSAGE_BUS, type MessageBus, type OutgoingMessage, publishTraced } from '@vigil/messaging';
import { CONFIG, LOGGER, type Logger, serviceTracer } from '@vigil/platform';
import { afterCommit, ChannelListener } from '@vigil/database';
import { DataSource } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { CommittedEvents } from './committed-events';
import { EventsRepository } from './events.repository';

export const EVENTS_RELAY_CHANNEL = 'vigil_events_relay';
/** Largest publish to the bus at once (characters of message values, a little under Kafka's default limit). */
const PUBLISH_SLICE_BYTES = 512 * 1024;

export function toEnvelope(event: AuditEvent, correlationId: string | null): EventEnvelope<AuditEvent> {
  return {
    id: event.id,
    type: event.type,
    schema_version: 1,
    occurred_at: event.timestamp,
    key: event.database_id,
    ...(correlationId ? { correlation_id: correlationId } : {}),
    data: event,
  };
}

/**
 * Publishes stored events on audit.events.v1 in sequence order. The events table is the outbox:
 * `event_relay.published_seq` says how far publishing got. Each turn reads the next events,
 * publishes them and moves the mark in one transaction under an advisory lock (one relay per
 * installation publishes at a time). A crash between publish and commit publishes again, never
 * loses: consumers de-duplicate on the event id, the stream on the sequence. Because sequences
 * commit in order (EventsRepository.reserveSequence), no event can appear behind the mark later.
 */
@Injectable()
export class EventsRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private listener: ChannelListener | undefined;
  private readonly logger: Logger;
  private readonly tracer = serviceTracer('event-ingest');
  published = 0;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(EventsRepository) private readonly events: EventsRepository,
    @Inject(CommittedEvents) private readonly committed: CommittedEvents,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'events-relay' });
  }

  async onApplicationBootstrap() {
    this.running = true;
    await this.listen().catch((error) => this.logger.warn({ err: error }, 'LISTEN unavailable, relying on polling'));
    this.loop = this.run();
  }

  private async listen() {
    this.listener = await ChannelListener.open(this.dataSource, EVENTS_RELAY_CHANNEL, {
      onNotification: () => this.wake?.(),
      onLost: (error) => this.logger.warn({ err: error }, 'LISTEN connection lost; polling'),
    });
  }

  private async run() {
    let backoff = 0;
    while (this.running) {
      if (!this.listener?.active) await this.listen().catch(() => undefined);
      try {
        const count = await this.relayOnce();
        backoff = 0;
        if (count >= this.config.EVENTS_RELAY_BATCH) continue;
      } catch (error) {
        backoff = Math.min(backoff ? backoff * 2 : 250, 10_000);
        this.logger.error({ err: error, retry_ms: backoff }, 'publishing audit events failed; will retry');
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || this.config.OUTBOX_POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Publishes the next batch; returns how many events it published. */
  async relayOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(hashtext('vigil:events-relay')) AS locked`);
      if (!locked) return 0;
      const [mark]: { published_seq: string }[] = await manager.query(`SELECT published_seq::text FROM event_ingest.event_relay`);
      // Events this process committed are in memory; the table is read for anything else.
      const cached = this.committed.take(mark!.published_seq, this.config.EVENTS_RELAY_BATCH);
      const rows = cached.length ? cached : await this.events.unpublished(manager, mark!.published_seq, this.config.EVENTS_RELAY_BATCH);
      if (!rows.length) return 0;
      const messages: OutgoingMessage[] = rows.map(({ seq, event, correlationId, trace }) => {
        const headers: Record<string, string> = {
          ...trace,
          [MessageHeaders.messageId]: event.id,
          [MessageHeaders.eventType]: event.type,
          [MessageHeaders.eventSequence]: seq,
        };
        if (correlationId) headers[MessageHeaders.correlationId] = correlationId;
        return { key: event.database_id, value: JSON.stringify(toEnvelope(event, correlationId)), headers };
      });
      // Kafka refuses a record batch over message.max.bytes (1 MiB by default): publish in slices
      // of at most PUBLISH_SLICE_BYTES, in order, before the mark moves.
      let slice: OutgoingMessage[] = [];
      let bytes = 0;
      for (const message of messages) {
        const size = message.value.length + 200;
        if (slice.length && bytes + size > PUBLISH_SLICE_BYTES) {
          await publishTraced(this.bus, [{ topic: Topics.auditEvents, messages: slice }], this.tracer);
          slice = [];
          bytes = 0;
        }
        slice.push(message);
        bytes += size;
      }
      if (slice.length) await publishTraced(this.bus, [{ topic: Topics.auditEvents, messages: slice }], this.tracer);
      const last = rows[rows.length - 1]!.seq;
      await manager.query(`UPDATE event_ingest.event_relay SET published_seq = $1::bigint, updated_at = now()`, [last]);
      afterCommit(manager, () => this.committed.forget(last));
      this.published += rows.length;
      return rows.length;
    });
  }

  /** Stops after the batch in hand and publishes what is left (best effort) before the bus closes. */
  async beforeApplicationShutdown() {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    try {
      while ((await this.relayOnce()) > 0) {
        /* drain */
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not drain at shutdown; the next start publishes the rest');
    }
    this.listener?.close();
    this.listener = undefined;
  }

  async backlog(): Promise<number> {
    const [row]: { n: string }[] = await this.dataSource.query(
      `SELECT (s.last_seq - r.published_seq)::text AS n FROM event_ingest.event_sequence s, event_ingest.event_relay r`,
    );
    return Number(row?.n ?? 0);
  }
}
