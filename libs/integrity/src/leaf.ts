import { canonicalJson } from './canonical-json';
import { leafHash } from './hashes';

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
  return JSON.stringify(value);
}

function nullableText(value: unknown, field: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'string') throw new TypeError(`leaf: ${field} must be a string or null`);
  return JSON.stringify(value);
}

/**
 * canonicalJson of `{ v: 1, id, type, severity, database_id, timestamp, processed_at, details,
 * context: { policy_id, rule_id, risk_score }, producer_id, ingested_by: { kind, id } | null }`,
 * written directly in JCS member order (the generic encoder does only `details`): this runs once
 * per event on ingest and on verification.
 */
export function eventLeafText(event: LeafEvent): string {
  const context = event.context;
  if (!context || typeof context !== 'object') throw new TypeError('leaf: event context must be an object');
  const risk = context.risk_score;
  if (typeof risk !== 'number' || !Number.isFinite(risk)) throw new TypeError('leaf: context.risk_score must be a number');
  const by = event.ingested_by;
  let ingestedBy = 'null';
  if (by !== null && by !== undefined) {
    if (typeof by !== 'object' || typeof by.kind !== 'string' || typeof by.id !== 'string') throw new TypeError('leaf: ingested_by must be { kind, id } or null');
    ingestedBy = '{"id":' + JSON.stringify(by.id) + ',"kind":' + JSON.stringify(by.kind) + '}';
  }
  return (
    '{"context":{"policy_id":' + nullableText(context.policy_id, 'context.policy_id') +
    ',"risk_score":' + JSON.stringify(risk) +
    ',"rule_id":' + nullableText(context.rule_id, 'context.rule_id') +
    '},"database_id":' + text(event, 'database_id') +
    ',"details":' + canonicalJson(event.details) +
    ',"id":' + text(event, 'id') +
    ',"ingested_by":' + ingestedBy +
    ',"processed_at":' + text(event, 'processed_at') +
    ',"producer_id":' + nullableText(event.producer_id, 'producer_id') +
    ',"severity":' + text(event, 'severity') +
    ',"timestamp":' + text(event, 'timestamp') +
    ',"type":' + text(event, 'type') +
    ',"v":' + LEAF_VERSION + '}'
  );
}

/** The canonical bytes of an event's leaf: UTF-8 of eventLeafText. */
export function eventLeafBytes(event: LeafEvent): Buffer {
  return Buffer.from(eventLeafText(event), 'utf8');
}

/** leafHash(eventLeafBytes(event)) without the intermediate Buffer. */
export function eventLeafHash(event: LeafEvent): Buffer {
  return leafHash(eventLeafText(event));
}
