import { Inject, Injectable } from '@nestjs/common';
import {
  type AdminAuditDetails,
  AuditEventCatalog,
  type AuditRecord,
  auditRecordValidator,
  type EventEnvelope,
  escapeStoredText,
  escapeStoredValue,
  type FieldError,
  hasUnstorableText,
  type IngestedBy,
  isAdminAuditType,
  isReservedEventType,
  isUnstorableText,
  VIGIL_DATABASE_ID,
} from '@vigil/contracts';
import { newId, riskScore } from '@vigil/domain';
import { SpanKind } from '@opentelemetry/api';
import { Topics } from '@vigil/contracts';
import { CommonErrorCode, CONFIG, currentCorrelationId, currentTraceCarrier, DomainException, inSpan } from '@vigil/platform';
import { afterCommit, WriterFence, WriterFenced } from '@vigil/database';
import { DataSource, type EntityManager } from 'typeorm';
import { operationOf } from '../events/event-query';
import { CommittedEvents } from '../events/committed-events';
import { EVENTS_RELAY_CHANNEL } from '../events/events.relay';
import { EventsRepository, type StoredEvent } from '../events/events.repository';
import { EnforcementNotReady, EnforcementService } from '../enforcement/enforcement.service';
import { DatabaseMonitor } from '../databases/database-monitor.service';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { CommittedLeaves } from '../integrity/committed-leaves';
import { EVENT_INGEST_SCHEMA } from '../database/schema';
import { storedEventLeafHash } from '../integrity/leaf';

export enum IngestErrorCode {
  InvalidRecords = 'invalid_audit_records',
  EnforcementNotReady = 'enforcement_not_ready',
}

/** Why a producer's record of a reserved type is refused (HTTP 400 and the audit.ingest DLQ reason). */
export function reservedTypeMessage(type: string): string {
  return `"${type}" is reserved to Vigil and cannot be sent by producers (policy.violation, policy.match, vigil.* and audit.checkpoint are recorded by Vigil itself; see docs/events.md#types-producers-may-send)`;
}

function isIngestedByList(value: IngestedBy | readonly IngestedBy[]): value is readonly IngestedBy[] {
  return Array.isArray(value);
}

/** Turns audit records into stored, immutable audit events and announces them on `audit.events.v1`. */
@Injectable()
export class IngestService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(EventsRepository) private readonly events: EventsRepository,
    @Inject(EnforcementService) private readonly enforcement: EnforcementService,
    @Inject(DatabaseMonitor) private readonly databases: DatabaseMonitor,
    @Inject(CommittedEvents) private readonly committed: CommittedEvents,
    @Inject(CommittedLeaves) private readonly leaves: CommittedLeaves,
    @Inject(CONFIG) private readonly config: Pick<EventIngestConfig, 'INTEGRITY_LOG'>,
  ) {
    this.fence = WriterFence.forDataSource(dataSource, EVENT_INGEST_SCHEMA);
  }

  /** Whether a newer release fenced this one out: checked in every ingest transaction (event_counts, producer ids). */
  private readonly fence: WriterFence;

  /** All or nothing: one invalid record refuses the whole request. */
  validate(records: unknown[], field = 'events'): AuditRecord[] {
    const errors: FieldError[] = [];
    const valid: AuditRecord[] = [];
    records.forEach((record, i) => {
      const result = auditRecordValidator.validate(record, `${field}[${i}]`);
      if (!result.ok) errors.push(...result.errors);
      else if (isReservedEventType(result.value.type)) errors.push({ field: `${field}[${i}].type`, message: reservedTypeMessage(result.value.type) });
      else valid.push(result.value);
    });
    if (errors.length) {
      throw new DomainException(400, IngestErrorCode.InvalidRecords, 'Some audit records are invalid; none were stored.', errors.slice(0, 100));
    }
    return valid;
  }

  async ingest(records: AuditRecord[], ingestedBy: IngestedBy): Promise<string[]> {
    try {
      // Before the transaction: a request arriving at start waits here for the policies, holding no connection.
      await this.enforcement.whenReady();
      return await this.dataSource.transaction((manager) => this.store(manager, records, ingestedBy));
    } catch (error) {
      // Fenced out by a newer release: the producer retries, and a replica of that release stores it.
      if (error instanceof WriterFenced) throw new DomainException(503, CommonErrorCode.ServiceUnavailable, 'This replica was replaced by a newer release; try again.', undefined, { 'Retry-After': '1' });
      // No record is stored unenforced: the producer retries once the policies are loaded.
      if (error instanceof EnforcementNotReady) throw new DomainException(503, IngestErrorCode.EnforcementNotReady, 'Policy enforcement is not ready yet (the policies are loading); nothing was stored. Try again.', undefined, { 'Retry-After': '1' });
      throw error;
    }
  }

  /**
   * Stores records inside the caller's transaction and returns their event ids in order. A record
   * whose producer id was accepted before gets the id it was stored under and is not stored again.
   * `ingestedBy`: one for every record, or each record's own (an audit.ingest batch of several
   * producers). Call it once per transaction: its locks are taken in one order (producer ids,
   * registry rows sorted, then the sequence row), which a second call in the same transaction would
   * break (registry rows locked while the sequence is held) and deadlock with a concurrent ingest.
   */
  async store(manager: EntityManager, records: AuditRecord[], ingestedBy: IngestedBy | readonly IngestedBy[]): Promise<string[]> {
    if (isIngestedByList(ingestedBy) && ingestedBy.length !== records.length) throw new Error(`${ingestedBy.length} ingested_by for ${records.length} records`);
    const ingestedByOf = (i: number): IngestedBy => (isIngestedByList(ingestedBy) ? ingestedBy[i]! : ingestedBy);
    await this.fence.check(manager);
    // Nothing is stored before the policies are loaded, not even a producer id claim (EnforcementNotReady).
    this.enforcement.assertReady();
    const processedAt = new Date().toISOString();
    const correlationId = currentCorrelationId() ?? null;
    const ids: string[] = [];
    const candidates: StoredEvent[] = [];
    const byProducerId = new Map<string, string>();
    for (const [i, record] of records.entries()) {
      const known = record.id ? byProducerId.get(record.id) : undefined;
      if (known) {
        ids.push(known);
        continue;
      }
      const event = this.toEvent(record, processedAt, correlationId, ingestedByOf(i));
      if (record.id) byProducerId.set(record.id, event.id);
      candidates.push(event);
      ids.push(event.id);
    }
    // Claims are keyed by the escaped producer id of every record, escaped or not: the escape is
    // reversible, so two different ids never share a claim (docs/events.md#records-with-nul-characters).
    const claimKey = new Map<string, string>();
    for (const [producerId, eventId] of byProducerId) claimKey.set(eventId, escapeStoredText(producerId));
    const claims = candidates.filter((e) => claimKey.has(e.id)).map((e) => ({ producerId: claimKey.get(e.id)!, eventId: e.id }));
    const earlier = await this.events.claimProducerIds(manager, claims);
    const replaced = new Map<string, string>();
    for (const event of candidates) {
      const previous = claimKey.has(event.id) ? earlier.get(claimKey.get(event.id)!) : undefined;
      if (previous) replaced.set(event.id, previous);
    }
    const fresh = candidates.filter((e) => !replaced.has(e.id));
    // Policy enforcement: policy.violation / policy.match events join the batch (docs/policies.md).
    fresh.push(...(await this.enforcement.enforce(manager, fresh)));
    // Registry activity, discovery and database.* status changes (docs/reports.md#databases).
    await this.databases.record(manager, fresh);
    await this.append(manager, fresh);
    return ids.map((id) => replaced.get(id) ?? id);
  }

  /**
   * Stores vigil.* events from the services' outboxes (topic vigil.audit.v1) inside the caller's
   * transaction, each under its envelope id: the consumer's inbox recognises a redelivery, so each
   * is stored once. They are about Vigil, not a monitored database: no policy enforcement and no
   * registry activity (docs/events.md#administrative-actions).
   */
  async storeAdminAudit(manager: EntityManager, envelopes: EventEnvelope<AdminAuditDetails>[]): Promise<void> {
    const processedAt = new Date().toISOString();
    const events: StoredEvent[] = envelopes
      .filter((e) => isAdminAuditType(e.type))
      .map((envelope) => {
        const type = envelope.type as StoredEvent['type'];
        const severity = AuditEventCatalog[type];
        const details = envelope.data as unknown as StoredEvent['details'];
        return {
          id: envelope.id,
          type,
          severity,
          database_id: VIGIL_DATABASE_ID,
          timestamp: new Date(envelope.occurred_at).toISOString(),
          processed_at: processedAt,
          details,
          context: { policy_id: null, rule_id: null, risk_score: riskScore(type, severity, undefined) },
          producer_id: null,
          ingested_by: { kind: 'system', id: envelope.data.service },
          seq: '0',
          operation: null,
          correlation_id: envelope.correlation_id ?? envelope.data.correlation_id ?? null,
        };
      });
    await this.append(manager, events);
  }

  private async append(manager: EntityManager, fresh: StoredEvent[]): Promise<void> {
    if (fresh.length) {
      // Leaf hashes of the verifiable log, before the sequence lock: hashing adds nothing to the
      // part of the transaction that runs one at a time (docs/integrity.md#storage).
      if (this.config.INTEGRITY_LOG) for (const event of fresh) event.leaf_hash = storedEventLeafHash(event);
      // Last step before commit: the sequence row stays locked until then (docs/events.md#ordering).
      // The events table is the outbox of audit.events.v1: EventsRelay publishes by sequence.
      // The stored events keep the trace context of this write: their publish continues this trace.
      await inSpan(
        `outbox write ${Topics.auditEvents}`,
        { kind: SpanKind.PRODUCER, childOnly: true, attributes: { 'messaging.destination.name': Topics.auditEvents, 'messaging.batch.message_count': fresh.length } },
        async () => {
          const trace = currentTraceCarrier();
          const first = await this.events.reserveSequence(manager, fresh.length);
          fresh.forEach((event, i) => (event.seq = String(first + BigInt(i))));
          await this.events.insertMany(manager, fresh, trace);
          await this.events.addCounts(manager, fresh);
          await manager.query('SELECT pg_notify($1, $2)', [EVENTS_RELAY_CHANNEL, '']);
          afterCommit(manager, () => {
            this.committed.add(fresh, trace);
            if (this.config.INTEGRITY_LOG) this.leaves.add(fresh);
          });
        },
      );
    }
  }

  /**
   * A record whose text PostgreSQL cannot store (U+0000, lone surrogates) is stored escaped and
   * flagged, from here on: enforcement, registry activity, the outbox and the table all see the
   * same NUL-free form, and readers restore the original (docs/events.md#records-with-nul-characters).
   */
  private toEvent(record: AuditRecord, processedAt: string, correlationId: string | null, ingestedBy: IngestedBy): StoredEvent {
    const severity = record.severity ?? AuditEventCatalog[record.type];
    const escaped = hasUnstorableText(record.details) || (record.id !== undefined && isUnstorableText(record.id));
    const details = escaped ? escapeStoredValue(record.details ?? {}) : (record.details ?? {});
    const producerId = record.id === undefined ? null : escaped ? escapeStoredText(record.id) : record.id;
    return {
      id: newId('event'),
      type: record.type,
      severity,
      database_id: record.database_id,
      timestamp: record.timestamp ? new Date(record.timestamp).toISOString() : processedAt,
      processed_at: processedAt,
      details,
      context: { policy_id: null, rule_id: null, risk_score: riskScore(record.type, severity, details.query) },
      producer_id: producerId,
      ingested_by: ingestedBy,
      ...(escaped ? { escaped: true } : {}),
      seq: '0',
      operation: operationOf(details.query),
      correlation_id: correlationId,
    };
  }
}
