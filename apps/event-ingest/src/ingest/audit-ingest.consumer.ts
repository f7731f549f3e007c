import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type AdminAuditDetails, type AuditRecord, auditRecordValidator, type EventEnvelope, type IngestedBy, isReservedEventType, MessageHeaders, Topics, validateAdminAuditEnvelope } from '@vigil/contracts';
import { type Decoded, type IncomingMessage, jsonWithHeaderId, MessagingRuntime } from '@vigil/messaging';
import { CONFIG } from '@vigil/platform';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { IngestService, reservedTypeMessage } from './ingest.service';

/**
 * Consumes `audit.ingest` from internal producers. Invalid records go to `audit.ingest.dlq` with
 * the reason; valid ones are stored in batches, exactly once per Kafka message.
 */
@Injectable()
export class AuditIngestConsumer implements OnModuleInit {
  constructor(
    @Inject(MessagingRuntime) private readonly messaging: MessagingRuntime,
    @Inject(IngestService) private readonly ingest: IngestService,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
  ) {}

  onModuleInit() {
    this.messaging.addConsumer<AuditRecord>({
      name: 'event-ingest.audit-ingest',
      topics: [Topics.auditIngest],
      maxBatchSize: this.config.INGEST_BATCH_SIZE,
      // A record's id is its place in the log: one position row per batch, not one inbox row per record.
      dedupe: 'log-position',
      decode: decodeAuditRecord,
      // One store for the whole batch, each record with its producer's ingested_by: the store takes
      // its locks in one order (registry rows sorted, then the sequence). Storing each producer's
      // run in turn took the second run's registry rows while holding the sequence, and an HTTP
      // ingest holding one of those rows while waiting for the sequence deadlocked with it
      // (ingest-lock-order.int-spec.ts).
      handle: async (manager, messages) => {
        await this.ingest.store(
          manager,
          messages.map((m) => m.value),
          messages.map((m) => producerOf(m.message)),
        );
      },
    });
    // vigil.* events the services wrote to their outboxes with each administrative change.
    this.messaging.addConsumer<EventEnvelope<AdminAuditDetails>>({
      name: 'event-ingest.admin-audit',
      topics: [Topics.adminAudit],
      decode: (message) => jsonWithHeaderId(message, (value) => validateAdminAuditEnvelope.validate(value)),
      handle: (manager, messages) => this.ingest.storeAdminAudit(manager, messages.map((m) => m.value)),
    });
  }
}

/**
 * `ingested_by` of a record from audit.ingest: the pg-proxy names itself in the `vigil-producer`
 * header (`pg-proxy@<host>`); any other internal producer is `kafka:audit.ingest` unless it names
 * itself the same way (docs/events.md#attribution).
 */
export function producerOf(message: IncomingMessage): IngestedBy {
  const named = message.headers[MessageHeaders.producer];
  const id = typeof named === 'string' && /^[A-Za-z0-9._:@/-]{1,200}$/.test(named) ? named : undefined;
  if (id?.startsWith('pg-proxy')) return { kind: 'proxy', id };
  return { kind: 'producer', id: id ?? `kafka:${Topics.auditIngest}` };
}

/** The message id is the record's place in the log: a redelivered message is recognised as such. */
export function decodeAuditRecord(message: IncomingMessage): Decoded<AuditRecord> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.value);
  } catch {
    return { ok: false, reason: 'value is not valid JSON' };
  }
  const result = auditRecordValidator.validate(parsed);
  if (!result.ok) {
    return { ok: false, reason: `invalid audit record: ${result.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}` };
  }
  if (isReservedEventType(result.value.type)) return { ok: false, reason: `invalid audit record: type: ${reservedTypeMessage(result.value.type)}` };
  return { ok: true, messageId: `${message.topic}:${message.partition}:${message.offset}`, value: result.value };
}
