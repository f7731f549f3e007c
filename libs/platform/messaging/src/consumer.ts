import { deadLetterTopic, MessageHeaders } from '@vigil/contracts';
import { isConnectionFailure, pingDatabase, quoteIdent, WriterFence, WriterFenced } from '@vigil/database';
import { SpanKind, type Tracer } from '@opentelemetry/api';
import { extractTraceContext, inSpan, type Logger, type Registry, TraceHeaders, tracingEnabled, withCorrelationId } from '@vigil/platform';
import { messagingMetrics, type MessagingMetrics } from './metrics';
import type { DataSource, EntityManager } from 'typeorm';
import type { IncomingMessage, MessageBus, Subscription } from './bus';

export type Decoded<T> = { ok: true; messageId: string; value: T } | { ok: false; reason: string };

export interface ConsumedMessage<T> {
  messageId: string;
  value: T;
  message: IncomingMessage;
}

export interface InboxConsumerOptions<T> {
  /** Unique per consuming feature; the consumer group id and the inbox's consumer column. */
  name: string;
  topics: string[];
  /** Parses and validates one message. What fails goes to the topic's dead-letter topic. */
  decode(message: IncomingMessage): Decoded<T>;
  /**
   * Applies the messages' effects inside the transaction that also records them in the inbox.
   * Receives only messages not seen before, in order.
   */
  handle(manager: EntityManager, messages: ConsumedMessage<T>[]): Promise<void>;
  /** Attempts of a batch before its messages are tried one by one and poison ones dead-lettered. */
  maxAttempts?: number;
  maxBatchSize?: number;
  /**
   * How redeliveries are recognised. `message-id` (default): every message id is recorded in the
   * inbox. `log-position`: for topics whose messages have no id of their own (the id is the
   * message's place in the log, as on audit.ingest), the highest applied offset per topic and
   * partition is recorded instead: one row per batch rather than one per message. Needs
   * `inboxPositionsMigration` in the service's migrations. While the inbox holds ids this
   * consumer recorded before (it used `message-id` earlier), they are checked as well, one indexed
   * read per batch; replicas still on `message-id` cannot see positions, so the release that
   * switches raises its schema's writer fence (`raiseWriterFence`), which stops the older replicas
   * from writing (docs/operations.md#upgrading-and-migrations).
   */
  dedupe?: 'message-id' | 'log-position';
  /**
   * Handler failures in a row after which the consumer stops dead-lettering and waits instead:
   * when every message fails, the fault is the code or a dependency, not the messages, and
   * draining the stream into the dead-letter topic would only move the outage there.
   */
  systemicFailureThreshold?: number;
}

export interface InboxConsumerDeps {
  bus: MessageBus;
  dataSource: DataSource;
  schema: string;
  logger: Logger;
  metrics?: Registry;
  /** The owning service's tracer, for the consumer spans. */
  tracer?: Tracer;
}

class DatabaseUnavailable extends Error {}

/** Thrown to leave a batch uncommitted (redelivered later) when failures look systemic. */
export class SystemicFailure extends Error {}

/**
 * Thrown by a handler when the service cannot apply any message yet, through no fault of the
 * messages (event-ingest before its policies are loaded: a record must not be stored unenforced).
 * Handled like a fenced writer: the transaction rolls back, nothing is retried in place or
 * dead-lettered, and the batch stays uncommitted and comes again after a pause.
 */
export class NotReady extends Error {}

/** Failures that hold the batch as it is (uncommitted, redelivered later) instead of judging its messages. */
const holdsBatch = (error: unknown) => error instanceof DatabaseUnavailable || error instanceof WriterFenced || error instanceof NotReady;

/**
 * At-least-once in, exactly-once effect: each batch's effects and its message ids are written in
 * one transaction (ids already in the inbox are skipped), and the bus commits offsets only after
 * that transaction. Invalid messages and messages that keep failing on their own are published to
 * `<topic>.dlq` with the reason before their offset is committed, so nothing is dropped silently
 * and one bad message never blocks its partition.
 */
export class InboxConsumer<T> {
  private subscription: Subscription | undefined;
  private readonly inbox: string;
  private readonly positions: string;
  private readonly logger: Logger;
  private consecutiveFailures = 0;
  private readonly metrics: MessagingMetrics | undefined;
  private readonly fence: WriterFence;

  constructor(
    private readonly deps: InboxConsumerDeps,
    private readonly options: InboxConsumerOptions<T>,
  ) {
    this.inbox = `${quoteIdent(deps.schema)}.inbox`;
    this.positions = `${quoteIdent(deps.schema)}.inbox_positions`;
    this.logger = deps.logger.child({ consumer: options.name });
    this.metrics = deps.metrics ? messagingMetrics(deps.metrics) : undefined;
    this.fence = WriterFence.forDataSource(deps.dataSource, deps.schema);
  }

  private count(topic: string, outcome: 'applied' | 'duplicate' | 'dead_lettered', n: number) {
    if (n > 0) this.metrics?.consumed.inc({ consumer: this.options.name, topic, outcome }, n);
  }

  async start(): Promise<void> {
    this.subscription = await this.deps.bus.subscribe({
      groupId: this.options.name,
      topics: this.options.topics,
      maxBatchSize: this.options.maxBatchSize,
      handler: (messages) => this.processBatch(messages),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }

  /** One batch of one partition, in offset order. Public for tests that drive it directly. */
  async processBatch(messages: IncomingMessage[]): Promise<void> {
    const valid: ConsumedMessage<T>[] = [];
    const rejected: { message: IncomingMessage; reason: string }[] = [];
    for (const message of messages) {
      let decoded: Decoded<T>;
      try {
        decoded = this.options.decode(message);
      } catch (error) {
        decoded = { ok: false, reason: `decode failed: ${(error as Error).message}` };
      }
      if (decoded.ok) valid.push({ messageId: decoded.messageId, value: decoded.value, message });
      else rejected.push({ message, reason: decoded.reason });
    }
    if (valid.length) await this.applyValid(valid);
    // After the valid messages: when they cannot be applied (the database is away, a systemic
    // failure), the batch comes again and its invalid messages must not be dead-lettered each time.
    await this.deadLetter(rejected);
  }

  private async applyValid(valid: ConsumedMessage<T>[]): Promise<void> {
    try {
      await this.withRetries(() => this.apply(valid), this.options.maxAttempts ?? 4);
      this.consecutiveFailures = 0;
      return;
    } catch (error) {
      if (holdsBatch(error)) throw error;
      if (valid.length === 1) {
        await this.handlerFailed(valid[0]!, error);
        return;
      }
      this.logger.warn({ err: error, size: valid.length }, 'batch keeps failing; isolating messages');
    }
    // Isolation: one by one, so a poison message cannot hold the rest of the partition.
    for (const item of valid) {
      try {
        await this.withRetries(() => this.apply([item]), 2);
        this.consecutiveFailures = 0;
      } catch (error) {
        if (holdsBatch(error)) throw error;
        await this.handlerFailed(item, error);
      }
    }
  }

  private async handlerFailed(item: ConsumedMessage<T>, error: unknown): Promise<void> {
    this.consecutiveFailures++;
    const threshold = this.options.systemicFailureThreshold ?? 10;
    if (this.consecutiveFailures > threshold) {
      // Nothing is committed: the batch comes again after the pause, and flows once the fault is fixed.
      const pauseMs = Math.min(1000 * 2 ** Math.min(this.consecutiveFailures - threshold - 1, 5), 30_000);
      this.logger.error(
        { err: error, consecutive_failures: this.consecutiveFailures, pause_ms: pauseMs },
        'every message fails: treating it as a systemic fault, not dead-lettering; consumption paused',
      );
      await new Promise((r) => setTimeout(r, pauseMs));
      throw new SystemicFailure(`systemic handler failure: ${(error as Error).message}`);
    }
    await this.deadLetter([{ message: item.message, reason: `handler failed: ${(error as Error).message}` }]);
  }

  private async apply(items: ConsumedMessage<T>[]): Promise<void> {
    if (this.options.dedupe === 'log-position') return this.applyByPosition(items);
    const unique = new Map<string, ConsumedMessage<T>>();
    for (const item of items) if (!unique.has(item.messageId)) unique.set(item.messageId, item);
    const ids = [...unique.keys()];
    await this.deps.dataSource.transaction(async (manager) => {
      await this.fence.check(manager);
      const inserted: { message_id: string }[] = await manager.query(
        `INSERT INTO ${this.inbox} (consumer, message_id) SELECT $1, unnest($2::text[])
         ON CONFLICT DO NOTHING RETURNING message_id`,
        [this.options.name, ids],
      );
      const fresh = new Set(inserted.map((r) => r.message_id));
      const unseen = [...unique.values()].filter((i) => fresh.has(i.messageId));
      const topic = items[0]!.message.topic;
      if (unseen.length < unique.size) {
        this.logger.info({ duplicates: unique.size - unseen.length }, 'skipped redelivered messages');
      }
      if (unseen.length) await this.handle(manager, unseen);
      // Counted once the transaction is about to commit; a rollback retries and counts again.
      this.count(topic, 'duplicate', items.length - unseen.length);
      this.count(topic, 'applied', unseen.length);
    });
  }

  /**
   * Whether this consumer ever recorded message ids in the inbox (it did before it used log
   * positions, or an older replica of it still does): then ids are checked too. Read once.
   */
  private idsRecorded: boolean | undefined;

  /**
   * Items of one batch come from one partition, in offset order. The partition's row is created if
   * need be and locked for the transaction, so a second consumer of the partition (after a
   * rebalance, even on its first batch) waits and then sees the new position.
   */
  private async applyByPosition(items: ConsumedMessage<T>[]): Promise<void> {
    const { topic, partition } = items[0]!.message;
    await this.deps.dataSource.transaction(async (manager) => {
      await this.fence.check(manager);
      const key = [this.options.name, topic, partition];
      await manager.query(`INSERT INTO ${this.positions} (consumer, topic, partition, last_offset) VALUES ($1, $2, $3, -1) ON CONFLICT DO NOTHING`, key);
      const [row]: { last_offset: string }[] = await manager.query(`SELECT last_offset::text FROM ${this.positions} WHERE consumer = $1 AND topic = $2 AND partition = $3 FOR UPDATE`, key);
      const last = BigInt(row!.last_offset);
      let unseen = items.filter((i) => BigInt(i.message.offset) > last);
      if (this.idsRecorded === undefined) {
        const [found]: { used: boolean }[] = await manager.query(`SELECT EXISTS (SELECT 1 FROM ${this.inbox} WHERE consumer = $1) AS used`, [this.options.name]);
        this.idsRecorded = found!.used;
      }
      if (this.idsRecorded && unseen.length) {
        // Messages applied by id and redelivered past the position (a batch of any length).
        const known: { message_id: string }[] = await manager.query(
          `SELECT message_id FROM ${this.inbox} WHERE consumer = $1 AND message_id = ANY($2::text[])`,
          [this.options.name, unseen.map((i) => i.messageId)],
        );
        const seen = new Set(known.map((k) => k.message_id));
        unseen = unseen.filter((i) => !seen.has(i.messageId));
      }
      if (unseen.length < items.length) this.logger.info({ duplicates: items.length - unseen.length }, 'skipped redelivered messages');
      if (unseen.length) await this.handle(manager, unseen);
      const highest = items.reduce((max, i) => (BigInt(i.message.offset) > max ? BigInt(i.message.offset) : max), -1n);
      await manager.query(
        `INSERT INTO ${this.positions} (consumer, topic, partition, last_offset) VALUES ($1, $2, $3, $4::bigint)
         ON CONFLICT (consumer, topic, partition) DO UPDATE SET last_offset = GREATEST(${this.positions}.last_offset, EXCLUDED.last_offset), updated_at = now()`,
        [this.options.name, topic, partition, highest.toString()],
      );
      this.count(topic, 'duplicate', items.length - unseen.length);
      this.count(topic, 'applied', unseen.length);
    });
  }

  /**
   * Hands messages to the handler under their correlation id. With tracing on, consecutive
   * messages of one sampled trace are handled together in a consumer span, the child of the
   * context they carry, so what the handler writes (outbox rows, deliveries) continues their
   * trace; a batch mixing traces is handed over in several calls, in order, in the same
   * transaction. With tracing off the batch is handed over whole, as before.
   */
  private async handle(manager: EntityManager, items: ConsumedMessage<T>[]): Promise<void> {
    if (!tracingEnabled()) {
      const correlationId = items[0]!.message.headers[MessageHeaders.correlationId];
      return withCorrelationId(correlationId, () => this.options.handle(manager, items));
    }
    for (const run of runsByTrace(items.map((i) => i.message.headers), items)) {
      const first = run[0]!.message;
      await withCorrelationId(first.headers[MessageHeaders.correlationId], () =>
        inSpan(
          `process ${first.topic}`,
          {
            tracer: this.deps.tracer,
            kind: SpanKind.CONSUMER,
            parent: extractTraceContext(first.headers),
            attributes: {
              'messaging.system': this.deps.bus.kind === 'kafka' ? 'kafka' : 'vigil_memory',
              'messaging.operation.type': 'process',
              'messaging.destination.name': first.topic,
              'messaging.consumer.group.name': this.options.name,
              'messaging.destination.partition.id': String(first.partition),
              'messaging.batch.message_count': run.length,
            },
          },
          () => this.options.handle(manager, run),
        ),
      );
    }
  }

  private async withRetries(work: () => Promise<void>, attempts: number): Promise<void> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await work();
        return;
      } catch (error) {
        // Fenced out by a newer release: not the messages' fault, and no retry helps; the batch
        // stays uncommitted for the new release's replicas.
        if (error instanceof WriterFenced) {
          this.logger.error({ err: error }, 'fenced out by a newer release: not applying; replace this replica');
          await new Promise((r) => setTimeout(r, 1000));
          throw error;
        }
        // Not ready yet (a dependency the handler needs has not answered): the same path, retried
        // as a whole batch later rather than here, and never dead-lettered.
        if (error instanceof NotReady) {
          this.logger.warn({ err: error }, 'not ready to apply messages; the batch stays uncommitted and comes again');
          await new Promise((r) => setTimeout(r, 1000));
          throw error;
        }
        lastError = error;
        if (attempt < attempts) {
          const delay = Math.min(100 * 2 ** (attempt - 1), 2000) * (0.5 + Math.random());
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    }
    // A failure that is really the database being away is not the messages' fault: redeliver later.
    // A lost or refused connection is enough: the database may be back by the time it is pinged,
    // and the batch must not be judged (nor dead-lettered) on an error that says nothing about it.
    const up = !isConnectionFailure(lastError) && (await pingDatabase(this.deps.dataSource).catch(() => false));
    if (!up) throw new DatabaseUnavailable(`database unavailable: ${(lastError as Error)?.message}`);
    throw lastError;
  }

  private async deadLetter(items: { message: IncomingMessage; reason: string }[]): Promise<void> {
    if (!items.length) return;
    const byTopic = new Map<string, { key: string | null; value: string; headers: Record<string, string> }[]>();
    for (const { message, reason } of items) {
      this.logger.warn(
        { topic: message.topic, partition: message.partition, offset: message.offset, reason },
        'message dead-lettered',
      );
      const list = byTopic.get(message.topic) ?? [];
      list.push({
        key: message.key,
        value: message.value,
        headers: {
          ...message.headers,
          [MessageHeaders.deadLetterReason]: reason.slice(0, 2000),
          [MessageHeaders.deadLetterTopic]: message.topic,
          [MessageHeaders.deadLetterPartition]: String(message.partition),
          [MessageHeaders.deadLetterOffset]: message.offset,
          [MessageHeaders.deadLetterConsumer]: this.options.name,
        },
      });
      byTopic.set(message.topic, list);
    }
    await this.deps.bus.publish([...byTopic].map(([topic, messages]) => ({ topic: deadLetterTopic(topic), messages })));
    for (const [topic, messages] of byTopic) this.count(topic, 'dead_lettered', messages.length);
  }
}

/**
 * Splits items into runs of consecutive items that share a sampled trace (same `traceparent`);
 * items of unsampled traces or none at all share runs, so the common untraced case stays one run.
 */
export function runsByTrace<I>(headers: Record<string, string>[], items: I[]): I[][] {
  const runs: I[][] = [];
  let key: string | undefined;
  items.forEach((item, i) => {
    const traceparent = headers[i]?.[TraceHeaders.traceparent] ?? '';
    const k = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/.test(traceparent) && (parseInt(traceparent.slice(-2), 16) & 1) === 1 ? traceparent : '';
    if (k === key && runs.length) runs[runs.length - 1]!.push(item);
    else runs.push([item]);
    key = k;
  });
  return runs;
}

/** Decodes a JSON message whose id travels in the message-id header. */
export function jsonWithHeaderId<T>(
  message: IncomingMessage,
  validate: (value: unknown) => { ok: true; value: T } | { ok: false; errors: { field: string; message: string }[] },
): Decoded<T> {
  const messageId = message.headers[MessageHeaders.messageId];
  if (!messageId) return { ok: false, reason: `missing header ${MessageHeaders.messageId}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.value);
  } catch {
    return { ok: false, reason: 'value is not valid JSON' };
  }
  const result = validate(parsed);
  if (!result.ok) {
    return { ok: false, reason: `invalid: ${result.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}` };
  }
  return { ok: true, messageId, value: result.value };
}
