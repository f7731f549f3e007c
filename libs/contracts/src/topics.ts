/**
 * Every Kafka topic Vigil uses. Names carry domain, entity and a version; a breaking
 * payload change gets a new topic (`.v2`) rather than a surprise for old consumers.
 * `audit.ingest` is the one unversioned name: it is the public contract with internal
 * producers (decisions.md) and stays stable.
 */
export const Topics = {
  /** Raw audit records from internal producers (agents). Key: database_id. */
  auditIngest: 'audit.ingest',
  /** Stored, enriched audit events. Key: database_id. Producer: event-ingest. */
  auditEvents: 'audit.events.v1',
  /** Policy lifecycle (created/updated/enabled/disabled/deleted). Key: policy id. Producer: policy. */
  policyEvents: 'policy.events.v1',
} as const;

export type TopicName = (typeof Topics)[keyof typeof Topics];

export interface TopicSpec {
  name: string;
  partitions: number;
  /** Kafka topic configs, e.g. cleanup.policy=compact for state topics. */
  config?: Record<string, string>;
}

/** The dead-letter topic of a topic: where messages that fail validation or exhaust retries go. */
export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Explicit partition counts. Partitions bound consumer parallelism: a consumer group never
 * runs more active members than its topic has partitions (docs/architecture.md).
 */
export const TopicSpecs: readonly TopicSpec[] = [
  { name: Topics.auditIngest, partitions: 6, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.auditIngest), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.auditEvents, partitions: 6, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.auditEvents), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.policyEvents, partitions: 3, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: deadLetterTopic(Topics.policyEvents), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
];

/** Message headers every Vigil message carries. */
export const MessageHeaders = {
  messageId: 'vigil-message-id',
  eventType: 'vigil-event-type',
  correlationId: 'vigil-correlation-id',
  deadLetterReason: 'vigil-dlq-reason',
  deadLetterTopic: 'vigil-dlq-original-topic',
  deadLetterPartition: 'vigil-dlq-original-partition',
  deadLetterOffset: 'vigil-dlq-original-offset',
  deadLetterConsumer: 'vigil-dlq-consumer',
} as const;
