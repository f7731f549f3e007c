import { type AuditEvent, restoreStoredEvent } from '@vigil/contracts';
import { eventLeafHash, type LeafEvent } from '@vigil/integrity';

/** Leaves per stored block of leaf hashes (a complete subtree of level 8). */
export const BLOCK_LEVEL = 8;
export const BLOCK_SIZE = 1 << BLOCK_LEVEL;
export const HASH_BYTES = 32;

/** Who submitted an event, once recorded (docs/integrity.md#storage). */
export type IngestedBy = { kind: string; id: string } | null;

/**
 * The leaf form of a stored event: its published form (as GET /v1/events/{id} returns it, text
 * restored when it was stored escaped) with the submitter.
 */
export function leafEventOf(event: AuditEvent & { ingested_by?: IngestedBy }): LeafEvent {
  const published = restoreStoredEvent(event);
  return {
    id: published.id,
    type: published.type,
    severity: published.severity,
    database_id: published.database_id,
    timestamp: published.timestamp,
    processed_at: published.processed_at,
    details: published.details,
    context: published.context,
    producer_id: published.producer_id ?? null,
    ingested_by: event.ingested_by ?? null,
  };
}

/** RFC 9162 leaf hash of a stored event. */
export function storedEventLeafHash(event: AuditEvent & { ingested_by?: IngestedBy }): Buffer {
  return eventLeafHash(leafEventOf(event));
}
