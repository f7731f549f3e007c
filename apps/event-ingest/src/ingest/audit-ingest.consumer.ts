import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type AuditRecord, auditRecordValidator, Topics } from '@vigil/contracts';
import { type Decoded, type IncomingMessage, MessagingRuntime } from '@vigil/messaging';
import { CONFIG } from '@vigil/platform';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { IngestService } from './ingest.service';

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
      handle: async (manager, messages) => {
        await this.ingest.store(manager, messages.map((m) => m.value));
      },
    });
  }
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
  return { ok: true, messageId: `${message.topic}:${message.partition}:${message.offset}`, value: result.value };
}
