import type { TopicSpec } from '@vigil/contracts';

export interface OutgoingMessage {
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

export interface IncomingMessage {
  /** Logical topic name (without the installation's prefix). */
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

export interface TopicMessages {
  topic: string;
  messages: OutgoingMessage[];
}

export interface BatchContext {
  heartbeat(): Promise<void>;
}

/**
 * Handles a batch of one partition. When it resolves, the bus commits the offset after the last
 * message; when it throws, nothing is committed and the batch comes again.
 */
export type BatchHandler = (messages: IncomingMessage[], context: BatchContext) => Promise<void>;

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  handler: BatchHandler;
  /** Largest batch handed to the handler at once. */
  maxBatchSize?: number;
  /**
   * Where a group with no committed offset starts: the oldest retained message (default), or
   * only messages published from now on (a fan-out group per process, e.g. the SSE stream).
   */
  startFrom?: 'earliest' | 'latest';
}

export interface Subscription {
  /** Stops fetching, lets the batch in hand finish (and commit), then leaves the group. */
  stop(): Promise<void>;
}

/**
 * The only door to the message broker. Kafka in distributed mode, an in-process log in
 * standalone mode; the outbox relay and the consumers work the same on both.
 */
export interface MessageBus {
  readonly kind: 'kafka' | 'memory';
  /** Resolves once every message is durably accepted (Kafka: acks from all in-sync replicas). */
  publish(batches: TopicMessages[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  ensureTopics(specs: readonly TopicSpec[]): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
