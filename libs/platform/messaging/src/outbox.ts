import { type EventEnvelope, MessageHeaders } from '@vigil/contracts';
import { ChannelListener, quoteIdent, sqlMigration } from '@vigil/database';
import { SpanKind, type Tracer } from '@opentelemetry/api';
import { currentCorrelationId, inSpan, injectTraceContext, type Logger, type Registry, tracingEnabled } from '@vigil/platform';
import { publishTraced } from './traced-publish';
import { messagingMetrics, registerOutboxGauges } from './metrics';
import type { DataSource, EntityManager, MigrationInterface } from 'typeorm';
import type { MessageBus, OutgoingMessage, TopicMessages } from './bus';

/**
 * Writes messages to the service's outbox inside the caller's transaction, so the state change
 * and the event announcing it commit (or roll back) together.
 */
export class OutboxWriter {
  private readonly table: string;
  private readonly channel: string;

  constructor(schema: string) {
    this.table = `${quoteIdent(schema)}.outbox`;
    this.channel = outboxChannel(schema);
  }

  async enqueue(manager: EntityManager, topic: string, envelopes: EventEnvelope[]): Promise<void> {
    if (!envelopes.length) return;
    if (!tracingEnabled()) return this.insert(manager, topic, envelopes, undefined);
    // The rows keep the trace context of this write, so the relay's publish (later, in another
    // transaction, maybe another process) continues the trace of the request that wrote them.
    return inSpan(
      `outbox write ${topic}`,
      { kind: SpanKind.PRODUCER, childOnly: true, attributes: { 'messaging.destination.name': topic, 'messaging.batch.message_count': envelopes.length } },
      async () => this.insert(manager, topic, envelopes, injectTraceContext<Record<string, string>>({})),
    );
  }

  private async insert(manager: EntityManager, topic: string, envelopes: EventEnvelope[], trace: Record<string, string> | undefined): Promise<void> {
    const correlationId = currentCorrelationId();
    // Chunks keep the statement under PostgreSQL's 65,535 parameter limit.
    for (let start = 0; start < envelopes.length; start += 2000) {
      const chunk = envelopes.slice(start, start + 2000);
      const values: unknown[] = [];
      const rows = chunk.map((envelope, i) => {
        const withCorrelation = correlationId && !envelope.correlation_id ? { ...envelope, correlation_id: correlationId } : envelope;
        const headers: Record<string, string> = {
          ...trace,
          [MessageHeaders.messageId]: envelope.id,
          [MessageHeaders.eventType]: envelope.type,
        };
        if (withCorrelation.correlation_id) headers[MessageHeaders.correlationId] = withCorrelation.correlation_id;
        values.push(envelope.id, topic, envelope.key, JSON.stringify(withCorrelation), JSON.stringify(headers));
        const b = i * 5;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}::jsonb)`;
      });
      await manager.query(
        `INSERT INTO ${this.table} (message_id, topic, key, value, headers) VALUES ${rows.join(', ')}`,
        values,
      );
    }
    // Delivered at commit: the relay wakes at once instead of waiting for its next poll.
    await manager.query('SELECT pg_notify($1, $2)', [this.channel, '']);
  }
}

export function outboxChannel(schema: string): string {
  return `vigil_outbox_${schema}`;
}

interface OutboxRow {
  seq: string;
  message_id: string;
  topic: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

export interface OutboxRelayOptions {
  dataSource: DataSource;
  schema: string;
  bus: MessageBus;
  logger: Logger;
  pollMs: number;
  batchSize?: number;
  metrics?: Registry;
  /** For tests that kill the process between publish and the outbox commit. */
  afterPublish?: (messageIds: string[]) => void | Promise<void>;
  /** The owning service's tracer, for the publish spans. */
  tracer?: Tracer;
}

/**
 * Publishes the outbox in order. Rows are read, published, and deleted in one transaction that
 * holds a per-schema advisory lock, so only one relay of a service publishes at a time (order per
 * key holds) and a crash between publish and commit republishes rather than loses: consumers
 * de-duplicate on the message id.
 */
export class OutboxRelay {
  private readonly table: string;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private listener: ChannelListener | undefined;
  private readonly lockKey: string;
  private listenAgain = false;
  published = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.table = `${quoteIdent(options.schema)}.outbox`;
    this.lockKey = `vigil:outbox:${options.schema}`;
    if (options.metrics) registerOutboxGauges(options.metrics, options.schema, () => this.backlog());
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.listen().catch((error) =>
      this.options.logger.warn({ err: error }, 'outbox: LISTEN unavailable, relying on polling'),
    );
    this.loop = this.run();
  }

  private async listen() {
    this.listener = await ChannelListener.open(this.options.dataSource, outboxChannel(this.options.schema), {
      onNotification: () => this.wake?.(),
      // A dropped connection (database restart) must not crash the process: fall back to polling
      // and listen again on the next turn of the loop.
      onLost: (error) => {
        this.options.logger.warn({ err: error }, 'outbox: LISTEN connection lost');
        this.listenAgain = this.running;
      },
    });
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      if (this.listenAgain) {
        this.listenAgain = false;
        await this.listen().catch(() => (this.listenAgain = true));
      }
      try {
        const count = await this.relayOnce();
        backoff = 0;
        if (count >= (this.options.batchSize ?? 500)) continue;
      } catch (error) {
        backoff = Math.min(backoff ? backoff * 2 : 250, 10_000);
        this.options.logger.error({ err: error, retry_ms: backoff }, 'outbox: publish failed, will retry');
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Publishes one batch; returns how many messages it published. */
  async relayOnce(): Promise<number> {
    const limit = this.options.batchSize ?? 500;
    return this.options.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [this.lockKey]);
      if (!locked) return 0;
      const rows: OutboxRow[] = await manager.query(
        `SELECT seq, message_id, topic, key, value, headers FROM ${this.table} ORDER BY seq LIMIT $1`,
        [limit],
      );
      if (!rows.length) return 0;
      const byTopic = new Map<string, OutgoingMessage[]>();
      for (const row of rows) {
        const list = byTopic.get(row.topic) ?? [];
        list.push({ key: row.key, value: row.value, headers: row.headers });
        byTopic.set(row.topic, list);
      }
      const batches: TopicMessages[] = [...byTopic].map(([topic, messages]) => ({ topic, messages }));
      await publishTraced(this.options.bus, batches, this.options.tracer);
      await this.options.afterPublish?.(rows.map((r) => r.message_id));
      await manager.query(`DELETE FROM ${this.table} WHERE seq = ANY($1::bigint[])`, [rows.map((r) => r.seq)]);
      this.published += rows.length;
      if (this.options.metrics) messagingMetrics(this.options.metrics).published.inc({ schema: this.options.schema }, rows.length);
      return rows.length;
    });
  }

  /** Stops after the batch in hand, then publishes what is left (best effort) before returning. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    try {
      while ((await this.relayOnce()) > 0) {
        /* drain */
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'outbox: could not drain at shutdown; rows stay for the next start');
    }
    this.listener?.close();
    this.listener = undefined;
  }

  async backlog(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const [row] = await this.options.dataSource.query(
      `SELECT count(*)::int AS count, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float AS age FROM ${this.table}`,
    );
    return { count: row.count, oldestAgeSeconds: row.age };
  }
}

/** Outbox and inbox tables of a schema, as a migration the service includes in its list. */
export function messagingMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const s = quoteIdent(schema);
  return sqlMigration(
    'Messaging',
    timestamp,
    [
      `
        CREATE TABLE ${s}.outbox (
          seq        bigserial   PRIMARY KEY,
          message_id text        NOT NULL UNIQUE,
          topic      text        NOT NULL,
          key        text,
          value      text        NOT NULL,
          headers    jsonb       NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now()
        )`,
      `
        CREATE TABLE ${s}.inbox (
          consumer     text        NOT NULL,
          message_id   text        NOT NULL,
          processed_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, message_id)
        )`,
      `CREATE INDEX inbox_processed_at ON ${s}.inbox (processed_at)`,
    ],
    [`DROP TABLE ${s}.inbox`, `DROP TABLE ${s}.outbox`],
  );
}

/**
 * The inbox of consumers that recognise redeliveries by log position (`dedupe: 'log-position'`):
 * the highest applied offset per consumer, topic and partition.
 */
export function inboxPositionsMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const s = quoteIdent(schema);
  return sqlMigration(
    'InboxPositions',
    timestamp,
    [
      `
        CREATE TABLE ${s}.inbox_positions (
          consumer    text        NOT NULL,
          topic       text        NOT NULL,
          partition   integer     NOT NULL,
          last_offset bigint      NOT NULL,
          updated_at  timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, topic, partition)
        )`,
    ],
    [`DROP TABLE ${s}.inbox_positions`],
  );
}
