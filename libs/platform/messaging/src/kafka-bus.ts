// First: replaces five kafkajs internals before kafkajs loads (see the module).
import { kafkajsInternalsReplaced } from './kafkajs-internals';
import type { TopicSpec } from '@vigil/contracts';
import { type Logger, type Registry, StartRefused } from '@vigil/platform';
import { messagingMetrics } from './metrics';
import { type Admin, type Consumer, Kafka, logLevel, type Producer, type SASLOptions } from 'kafkajs';
import type { IncomingMessage, MessageBus, SubscribeOptions, Subscription, TopicMessages } from './bus';
import { describeKafkaSecurity, type KafkaSecurity } from './kafka-security';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Prepended to every topic and group id (several installations or test runs on one cluster). */
  prefix: string;
  logger: Logger;
  /** Partitions one consumer works on concurrently. */
  partitionsConsumedConcurrently?: number;
  metrics?: Registry;
  /** TLS and SASL (kafkaSecurity): every client of the bus uses them. */
  security?: KafkaSecurity;
}

/** Why the brokers refused this client for good: wrong credentials or an untrusted certificate. */
export function kafkaAccessProblem(error: unknown): 'authentication' | 'tls' | undefined {
  for (let e = error as { name?: string; message?: string; code?: string; cause?: unknown; originalError?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.name === 'KafkaJSSASLAuthenticationError') return 'authentication';
    const text = `${e.code ?? ''} ${e.message ?? ''}`;
    if (/CERT|certificate|self[- ]signed|altname|unable to verify|ERR_TLS/i.test(text)) return 'tls';
    e = (e.cause ?? e.originalError) as typeof e;
  }
  return undefined;
}

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

function headersOf(raw: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (v === undefined || v === null) continue;
    out[k] = Buffer.isBuffer(v) ? v.toString('utf8') : Array.isArray(v) ? String(v[0]) : String(v);
  }
  return out;
}

/**
 * The kafkajs error types saying the broker no longer accepts this producer's id, epoch or
 * sequence numbers (KIP-98): retrying with the same producer cannot succeed.
 */
const PRODUCER_STATE_ERRORS = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

/** The producer-state error in a publish failure (itself, or what kafkajs's retrier wrapped), if any. */
export function producerStateLost(error: unknown): string | undefined {
  for (let e = error as { type?: unknown; originalError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.type === 'string' && PRODUCER_STATE_ERRORS.has(e.type)) return e.type;
    e = (e.originalError ?? e.cause) as typeof e | undefined;
  }
  return undefined;
}

/**
 * Kafka through kafkajs. This file is the only place in Vigil that imports a Kafka client, so the
 * client can be replaced without touching services (lint enforces it).
 */
export class KafkaBus implements MessageBus {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private producerReady: Promise<Producer> | undefined;
  private admin: Admin | undefined;
  private adminReady: Promise<Admin> | undefined;
  private readonly consumers = new Set<Consumer>();

  constructor(private readonly options: KafkaBusOptions) {
    const logger = options.logger.child({ component: 'kafka' });
    if (!kafkajsInternalsReplaced && !process.env.JEST_WORKER_ID) {
      logger.warn('kafkajs was loaded before the messaging library: producing runs on its slower built-in batching and checksums');
    }
    const { ssl, sasl } = options.security ?? {};
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...(ssl ? { ssl } : {}),
      ...(sasl ? { sasl: sasl as SASLOptions } : {}),
      // A TLS handshake plus a SCRAM exchange takes longer than a plain connection on a busy host.
      connectionTimeout: ssl ? 10_000 : 3000,
      authenticationTimeout: 10_000,
      requestTimeout: 30000,
      retry: { initialRetryTime: 200, retries: 8 },
      logLevel: logLevel.WARN,
      logCreator: () => ({ level, log }) => {
        const { message, ...extra } = log;
        logger[LEVELS[level] ?? 'info']({ ...extra, kafka_namespace: log.namespace }, String(message));
      },
    });
  }

  /**
   * Connects once as an admin client, as every client of this bus will: credentials the brokers
   * refuse, or a broker certificate the configured CA does not vouch for, stop the service at start
   * with a message that says which setting to check (StartRefused). A broker that is merely
   * unreachable is not refused here: consumers and the relay retry as they always do.
   */
  async verifyAccess(): Promise<void> {
    const admin = this.kafka.admin({ retry: { retries: 2, initialRetryTime: 300 } });
    try {
      await this.connecting(admin.connect());
      await admin.describeCluster();
    } catch (error) {
      if (error instanceof StartRefused) throw error;
      this.options.logger.warn({ err: error, brokers: this.options.brokers.join(',') }, 'Kafka brokers not reachable at start; clients keep retrying');
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /**
   * Every connection of the bus goes through here: refused credentials or an untrusted broker
   * certificate become a StartRefused that names the settings to check (at start the service then
   * stops with that message alone); anything else is rethrown as it is.
   */
  private async connecting(connect: Promise<void>): Promise<void> {
    try {
      await connect;
    } catch (error) {
      const problem = kafkaAccessProblem(error);
      if (!problem) throw error;
      const brokers = this.options.brokers.join(',');
      const how = describeKafkaSecurity(this.options.security ?? {});
      const detail = (error as Error).message;
      throw new StartRefused(
        problem === 'authentication'
          ? `the Kafka brokers ${brokers} refused the SASL credentials (${how}): ${detail}. Check KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD.`
          : `the TLS certificate of the Kafka brokers ${brokers} is not trusted (${how}): ${detail}. Check KAFKA_SSL_CA_FILE and KAFKA_SSL_SERVERNAME.`,
      );
    }
  }

  private topic(name: string): string {
    return `${this.options.prefix}${name}`;
  }

  private logical(name: string): string {
    return name.startsWith(this.options.prefix) ? name.slice(this.options.prefix.length) : name;
  }

  private getProducer(): Promise<Producer> {
    this.producerReady ??= (async () => {
      const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
      await this.connecting(producer.connect());
      this.producer = producer;
      return producer;
    })().catch((error) => {
      this.producerReady = undefined;
      throw error;
    });
    return this.producerReady;
  }

  private getAdmin(): Promise<Admin> {
    this.adminReady ??= (async () => {
      const admin = this.kafka.admin();
      await this.connecting(admin.connect());
      this.admin = admin;
      return admin;
    })().catch((error) => {
      this.adminReady = undefined;
      throw error;
    });
    return this.adminReady;
  }

  async publish(batches: TopicMessages[]): Promise<void> {
    const nonEmpty = batches.filter((b) => b.messages.length);
    if (!nonEmpty.length) return;
    const producer = await this.getProducer();
    try {
      await producer.sendBatch({
        acks: -1,
        topicMessages: nonEmpty.map((b) => ({
          topic: this.topic(b.topic),
          messages: b.messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
        })),
      });
    } catch (error) {
      const lost = producerStateLost(error);
      if (lost) this.replaceProducer(producer, lost, error);
      throw error;
    }
  }

  /**
   * Drops a producer whose idempotence state the broker no longer accepts: the next publish makes a
   * new one (a new producer id, sequences from zero). kafkajs keeps such a producer's sequence
   * numbers as they are, so every later send of it is refused again: after a connection cut in the
   * middle of a produce request, the events relay and pg-proxy stopped publishing for good. A batch
   * the old producer had written is written again by the new one: consumers store by record id.
   */
  private replaceProducer(producer: Producer, reason: string, error: unknown): void {
    if (this.producer !== producer) return;
    this.producer = undefined;
    this.producerReady = undefined;
    this.options.logger.warn({ err: error, reason }, 'Kafka producer state refused by the broker: the producer is replaced');
    // Not awaited: a disconnect waits for the requests still queued on the old connections.
    void producer.disconnect().catch(() => undefined);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const consumer = this.kafka.consumer({
      groupId: this.topic(options.groupId),
      sessionTimeout: 30_000,
      rebalanceTimeout: 60_000,
      heartbeatInterval: 3_000,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 100,
    });
    await this.connecting(consumer.connect());
    await consumer.subscribe({ topics: options.topics.map((t) => this.topic(t)), fromBeginning: options.startFrom !== 'latest' });
    const maxBatch = options.maxBatchSize ?? 500;
    // Lag is reported per partition by the member that consumes it. After a rebalance, partitions
    // this member no longer holds drop out of its report; otherwise the lag of its last batch there
    // would stay exported unchanged, which reads as a stuck consumer.
    const lagReported = new Map<string, { topic: string; partition: string }>();
    const forgetLag = (keep: Set<string> = new Set()) => {
      if (!this.options.metrics) return;
      const { lag } = messagingMetrics(this.options.metrics);
      for (const [key, labels] of lagReported) {
        if (keep.has(key)) continue;
        lag.remove({ group: options.groupId, ...labels });
        lagReported.delete(key);
      }
    };
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = new Set(Object.entries(payload.memberAssignment).flatMap(([t, partitions]) => partitions.map((p) => `${this.logical(t)}:${p}`)));
      forgetLag(assigned);
    });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 3,
      eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
        const topic = this.logical(batch.topic);
        for (let i = 0; i < batch.messages.length; i += maxBatch) {
          if (!isRunning() || isStale()) return;
          const chunk = batch.messages.slice(i, i + maxBatch);
          const messages: IncomingMessage[] = chunk.map((m) => ({
            topic,
            partition: batch.partition,
            offset: m.offset,
            key: m.key ? m.key.toString('utf8') : null,
            value: m.value ? m.value.toString('utf8') : '',
            headers: headersOf(m.headers as Record<string, unknown>),
          }));
          const first = chunk[0];
          if (this.options.metrics && first) {
            // While a chunk is in hand its messages count as lag: a handler that never returns (a
            // hung dependency, a consumer pausing on a systemic failure) then shows as lag that
            // stops moving, instead of the lag of the last batch that did finish.
            const inHand = Number(BigInt(batch.highWatermark) - BigInt(first.offset));
            messagingMetrics(this.options.metrics).lag.set({ group: options.groupId, topic, partition: String(batch.partition) }, Math.max(0, inHand));
            lagReported.set(`${topic}:${batch.partition}`, { topic, partition: String(batch.partition) });
          }
          await options.handler(messages, { heartbeat });
          const last = chunk[chunk.length - 1]!.offset;
          resolveOffset(last);
          // Committed only after the handler's transaction: a crash before this line means
          // redelivery, which the consumer's inbox turns into a no-op. Not `consumer.commitOffsets`:
          // kafkajs silently skips that once a stop has begun, so the batch in hand at SIGTERM
          // would be redelivered; this one commits through the group, still joined until the
          // stop has waited for this batch.
          await commitOffsetsIfNecessary({
            topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: (BigInt(last) + 1n).toString() }] }],
          });
          if (this.options.metrics) {
            const lag = Number(BigInt(batch.highWatermark) - BigInt(last) - 1n);
            messagingMetrics(this.options.metrics).lag.set({ group: options.groupId, topic, partition: String(batch.partition) }, Math.max(0, lag));
            lagReported.set(`${topic}:${batch.partition}`, { topic, partition: String(batch.partition) });
          }
          await heartbeat();
        }
      },
    });
    this.consumers.add(consumer);
    return {
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.disconnect();
        forgetLag();
      },
    };
  }

  async ensureTopics(specs: readonly TopicSpec[]): Promise<void> {
    const admin = await this.getAdmin();
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(this.topic(s.name)));
    if (missing.length) {
      // Not kafkajs's waitForLeaders: it gives up at the first "does not host this topic-partition",
      // which a broker answers for a while after creating a topic when several services create
      // topics at once (seen as a start-up failure in the test suites).
      await admin.createTopics({
        waitForLeaders: false,
        topics: missing.map((s) => ({
          topic: this.topic(s.name),
          numPartitions: s.partitions,
          replicationFactor: -1,
          configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    // Every topic, not only those created here: another service may have created one a moment ago.
    await this.waitForLeaders(
      admin,
      specs.map((s) => this.topic(s.name)),
    );
  }

  /** Until every partition of `topics` has a leader; retriable answers are waited out, up to 30 s. */
  private async waitForLeaders(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
        if (metadata.length === topics.length && metadata.every((t) => t.partitions.length && t.partitions.every((p) => p.leader >= 0))) return;
      } catch (error) {
        if (!(error as { retriable?: boolean }).retriable || Date.now() > deadline) throw error;
      }
      if (Date.now() > deadline) throw new Error(`topics still without leaders after ${timeoutMs} ms: ${topics.join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Each partition's end offset (the offset its next message gets), by partition: for tooling and tests. */
  async endOffsets(topic: string): Promise<Map<number, bigint>> {
    const admin = await this.getAdmin();
    const offsets = await admin.fetchTopicOffsets(this.topic(topic));
    return new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
  }

  /** The offset a consumer group has committed on each partition of `topic` (-1 where none). */
  async committedOffsets(groupId: string, topic: string): Promise<Map<number, bigint>> {
    const admin = await this.getAdmin();
    const [entry] = await admin.fetchOffsets({ groupId: this.topic(groupId), topics: [this.topic(topic)] });
    return new Map((entry?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
  }

  async ping(): Promise<boolean> {
    const admin = await this.getAdmin();
    await admin.describeCluster();
    return true;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    await Promise.allSettled([this.producer?.disconnect(), this.admin?.disconnect()]);
  }
}
