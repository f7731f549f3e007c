/**
 * Every Kafka topic Vigil uses. Names carry domain, entity and a version; a breaking
 * payload change gets a new topic (`.v2`) rather than a surprise for old consumers.
 * `audit.ingest` is the one unversioned name: it is the public contract with internal
 * producers and stays stable.
 */
export const Topics = {
  /** Raw audit records from internal producers (agents). Key: database_id. */
  auditIngest: 'audit.ingest',
  /** Stored, enriched audit events. Key: database_id. Producer: event-ingest. */
  auditEvents: 'audit.events.v1',
  /** Policy lifecycle (created/updated/enabled/disabled/deleted). Key: policy id. Producer: policy. */
  policyEvents: 'policy.events.v1',
  /** Violations found by enforcement. Key: policy id. Producer: event-ingest. Consumer: policy. */
  policyViolations: 'policy.violations.v1',
  /** Alerts requested by policy actions (AlertRequestSchema). Key: policy id. Producer: event-ingest. Consumer: delivery. */
  alertRequests: 'alert.requests.v1',
  /** Alert lifecycle: alert.created / alert.resolved / alert.escalated (AlertLifecycleSchema). Key: alert id. Producer: delivery. */
  alertEvents: 'alert.events.v1',
  /** Revoked API keys, refresh-token families and access tokens. Key: credential id. Producer: auth. */
  credentialRevocations: 'auth.credential-revocations.v1',
  /** database.connected / .disconnected / .error (DatabaseStatusChangedSchema). Key: database id. Producer: event-ingest. */
  databaseStatus: 'database.status.v1',
  /** report.generated (ReportGeneratedSchema). Key: report id. Producer: event-ingest. */
  reportEvents: 'report.events.v1',
  /**
   * Administrative actions (vigil.* events, AdminAuditDetailsSchema), written to each service's
   * outbox in the transaction of the change. Key: the changed resource's id. Producers: auth,
   * policy, delivery, event-ingest. Consumer: event-ingest, which stores them under the envelope id.
   */
  adminAudit: 'vigil.audit.v1',
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
  // A state topic: every message carries the policy's full state, so compaction keeps what a new
  // reader needs (the last state of each policy) while lagging readers still see every change for a week.
  { name: Topics.policyEvents, partitions: 3, config: { 'cleanup.policy': 'compact', 'min.compaction.lag.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.policyEvents), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.policyViolations, partitions: 3, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.policyViolations), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.alertRequests, partitions: 3, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.alertRequests), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.alertEvents, partitions: 3, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.alertEvents), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  // Replayed by every gateway replica at start: retention must outlive an access token (1 h).
  { name: Topics.credentialRevocations, partitions: 3, config: { 'retention.ms': String(2 * DAY_MS) } },
  { name: deadLetterTopic(Topics.credentialRevocations), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.databaseStatus, partitions: 3, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.databaseStatus), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.reportEvents, partitions: 3, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.reportEvents), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
  { name: Topics.adminAudit, partitions: 3, config: { 'retention.ms': String(7 * DAY_MS) } },
  { name: deadLetterTopic(Topics.adminAudit), partitions: 1, config: { 'retention.ms': String(30 * DAY_MS) } },
];

/** Message headers every Vigil message carries. */
export const MessageHeaders = {
  messageId: 'vigil-message-id',
  eventType: 'vigil-event-type',
  correlationId: 'vigil-correlation-id',
  /** audit.events.v1 only: the event's place in the global commit order (docs/events.md). */
  eventSequence: 'vigil-event-seq',
  /** audit.ingest only: the internal producer's identity, recorded as `ingested_by` (e.g. `pg-proxy@host`). */
  producer: 'vigil-producer',
  deadLetterReason: 'vigil-dlq-reason',
  deadLetterTopic: 'vigil-dlq-original-topic',
  deadLetterPartition: 'vigil-dlq-original-partition',
  deadLetterOffset: 'vigil-dlq-original-offset',
  deadLetterConsumer: 'vigil-dlq-consumer',
} as const;
