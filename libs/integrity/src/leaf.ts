import { NOT_ORDERABLE, canonicalJson, canonicalViewOf } from './canonical-json';
import { leafHash, leafHashHex } from './hashes';

/** Version of the leaf encoding; part of the canonical bytes (`v`). */
export const LEAF_VERSION = 1;

/**
 * The fields of a stored event that form its leaf, in their published form (as
 * `GET /v1/events/{id}` returns them): ISO-8601 timestamps with milliseconds, `details` restored
 * to the original text, `producer_id` null when absent, `ingested_by` null when absent. Other
 * fields of the object (database_name, related_events, ...) are ignored.
 */
export interface LeafEvent {
  id: string;
  type: string;
  severity: string;
  database_id: string;
  timestamp: string;
  processed_at: string;
  details: unknown;
  context: { policy_id: string | null; rule_id: string | null; risk_score: number };
  producer_id?: string | null;
  ingested_by?: { kind: string; id: string } | null;
}

function text(event: LeafEvent, field: keyof LeafEvent): string {
  const value = event[field];
  if (typeof value !== 'string') throw new TypeError(`leaf: event field ${field} must be a string`);
  return value;
}

function nullableText(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`leaf: ${field} must be a string or null`);
  return value;
}

/**
 * canonicalJson of `{ v: 1, id, type, severity, database_id, timestamp, processed_at, details,
 * context: { policy_id, rule_id, risk_score }, producer_id, ingested_by: { kind, id } | null }`.
 * The object is written with its members already in JCS order, so only `details` may need sorting
 * and one native serialization does the rest: this runs once per event on ingest and on
 * verification.
 */
export function eventLeafText(event: LeafEvent): string {
  const context = event.context;
  if (!context || typeof context !== 'object') throw new TypeError('leaf: event context must be an object');
  const risk = context.risk_score;
  if (typeof risk !== 'number' || !Number.isFinite(risk)) throw new TypeError('leaf: context.risk_score must be a number');
  if (event.details === undefined) throw new TypeError('leaf: event details are missing');
  const by = event.ingested_by;
  if (by !== null && by !== undefined && (typeof by !== 'object' || typeof by.kind !== 'string' || typeof by.id !== 'string')) {
    throw new TypeError('leaf: ingested_by must be { kind, id } or null');
  }
  const details = canonicalViewOf(event.details);
  const leaf = {
    context: { policy_id: nullableText(context.policy_id, 'context.policy_id'), risk_score: risk, rule_id: nullableText(context.rule_id, 'context.rule_id') },
    database_id: text(event, 'database_id'),
    details: details === NOT_ORDERABLE ? event.details : details,
    id: text(event, 'id'),
    ingested_by: by ? { id: by.id, kind: by.kind } : null,
    processed_at: text(event, 'processed_at'),
    producer_id: nullableText(event.producer_id, 'producer_id'),
    severity: text(event, 'severity'),
    timestamp: text(event, 'timestamp'),
    type: text(event, 'type'),
    v: LEAF_VERSION,
  };
  // The members above are written in JCS order and hold only strings, null and a finite number.
  return details === NOT_ORDERABLE ? canonicalJson(leaf) : JSON.stringify(leaf);
}

/** The canonical bytes of an event's leaf: UTF-8 of eventLeafText. */
export function eventLeafBytes(event: LeafEvent): Buffer {
  return Buffer.from(eventLeafText(event), 'utf8');
}

/** leafHash(eventLeafBytes(event)) without the intermediate Buffer. */
export function eventLeafHash(event: LeafEvent): Buffer {
  return leafHash(eventLeafText(event));
}

/** eventLeafHash as lowercase hex (the verifier's form: no Buffer made). */
export function eventLeafHashHex(event: LeafEvent): string {
  return leafHashHex(eventLeafText(event));
}
