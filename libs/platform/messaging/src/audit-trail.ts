import { type AdminAuditDetails, type AdminAuditType, type EventEnvelope, Topics } from '@vigil/contracts';
import type { RecordResealed } from '@vigil/database';
import { currentCorrelationId, currentRequestOrigin, type RequestOrigin } from '@vigil/platform';
import type { EntityManager } from 'typeorm';
import { OutboxWriter } from './outbox';

/** One administrative change, as the service that made it describes it. */
export interface AuditChange {
  type: AdminAuditType;
  target: { type: string; id: string | null };
  /** The resource before the change (null for a creation); only changed fields are kept. */
  before?: Record<string, unknown> | null;
  /** The resource after the change (null for a deletion). */
  after?: Record<string, unknown> | null;
  /** Overrides the request's actor (a login names the user it authenticated). */
  actor?: RequestOrigin['actor'];
  subject?: string;
  reason?: string;
}

export const REDACTED = '[redacted]';

/**
 * Field names whose values are never recorded, at any depth: secrets, their hashes and tokens.
 * `key_id`/`prefix` style identifiers stay; `key` alone (an API key's value) does not.
 */
const SECRET_NAME =
  /(^|_)(key|secret|secrets|password|passphrase|token|tokens|hash|salt|signature|credential|credentials|authorization|cookie|private|headers|nonce|verifier)(_|$)|secret|password|token/i;
const ALLOWED_NAMES = new Set(['key_id', 'token_type', 'prefix', 'keyed_by']);

/** A copy of `value` with every secret-named field replaced by "[redacted]" (docs/events.md#administrative-actions). */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 12) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value && typeof value === 'object') {
    if (value instanceof Date) return value.toISOString();
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = !ALLOWED_NAMES.has(k) && SECRET_NAME.test(k) ? (v === null || v === undefined ? v : REDACTED) : redactSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** Bookkeeping fields that change with every write and say nothing about what changed. */
const BOOKKEEPING = new Set(['updated_at', 'version']);

/**
 * The before/after of the changed fields: for an update only the fields whose value differs; a
 * creation has `before: null` and the whole new state, a deletion the whole old state and `after: null`.
 */
export function changedFields(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
): AdminAuditDetails['changes'] {
  const b = (before ? redactSecrets(before) : null) as Record<string, unknown> | null;
  const a = (after ? redactSecrets(after) : null) as Record<string, unknown> | null;
  if (!b || !a) return { before: b, after: a };
  const keys = new Set([...Object.keys(b), ...Object.keys(a)]);
  const changedBefore: Record<string, unknown> = {};
  const changedAfter: Record<string, unknown> = {};
  for (const key of keys) {
    if (BOOKKEEPING.has(key)) continue;
    if (JSON.stringify(b[key] ?? null) === JSON.stringify(a[key] ?? null)) continue;
    changedBefore[key] = b[key] ?? null;
    changedAfter[key] = a[key] ?? null;
  }
  return { before: changedBefore, after: changedAfter };
}

/**
 * Records administrative actions as vigil.* events: each is written to the service's outbox in
 * the caller's transaction (the change and its record commit or roll back together, and a
 * committed one reaches event-ingest even if it was down at the time), with the actor, client
 * address and user agent the gateway sent along with the RPC call. The envelope id is the id the
 * event is stored under, so a redelivery is recognised (docs/events.md#administrative-actions).
 */
export class AuditTrail {
  constructor(
    private readonly outbox: OutboxWriter,
    /** The service's name, recorded as `service` and in `ingested_by`. */
    readonly service: string,
    /** A new event id (`evt_...`); the service passes `() => newId('event')`. */
    private readonly newEventId: () => string,
  ) {}

  envelope(change: AuditChange, at = new Date()): EventEnvelope<AdminAuditDetails> {
    const origin = currentRequestOrigin();
    const correlationId = currentCorrelationId() ?? null;
    const actor = change.actor ?? origin?.actor ?? { kind: 'system', id: this.service };
    const details: AdminAuditDetails = {
      actor: { kind: actor.kind, id: actor.id },
      source_ip: origin?.source_ip ?? null,
      user_agent: origin?.user_agent ?? null,
      correlation_id: correlationId,
      service: this.service,
      target: change.target,
      changes: changedFields(change.before, change.after),
      ...(change.subject !== undefined ? { subject: change.subject } : {}),
      ...(change.reason !== undefined ? { reason: change.reason } : {}),
    };
    return {
      id: this.newEventId(),
      type: change.type,
      schema_version: 1,
      occurred_at: at.toISOString(),
      key: change.target.id ?? change.target.type,
      ...(correlationId ? { correlation_id: correlationId } : {}),
      data: details,
    };
  }

  /** Writes the vigil.* event of `change` in the transaction of `manager`. */
  async record(manager: EntityManager, ...changes: AuditChange[]): Promise<void> {
    await this.outbox.enqueue(manager, Topics.adminAudit, changes.map((c) => this.envelope(c)));
  }
}


/**
 * How `reencrypt-secrets` records each value it re-seals: a vigil.secret.reencrypted event in the
 * service's outbox, in the transaction of the rewrite (actor `system`/`reencrypt-secrets`; the
 * target is the row, e.g. `webhook`/`wh_...`; the changes are the key id and format, never the value).
 */
export function recordResealedSecrets(service: string, schema: string, newEventId: () => string): RecordResealed {
  const trail = new AuditTrail(new OutboxWriter(schema), service, newEventId);
  return (manager, change) =>
    trail.record(manager, {
      type: 'vigil.secret.reencrypted',
      target: { type: change.column.resource, id: change.id },
      actor: { kind: 'system', id: 'reencrypt-secrets' },
      before: { key_id: change.before.keyId, format: change.before.format },
      after: { key_id: change.after.keyId, format: change.after.format },
    });
}
