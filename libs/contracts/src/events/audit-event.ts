import { Type, type Static } from '@sinclair/typebox';
import { createValidator } from '../validation';
import { AuditDetailsSchema, DATABASE_ID_PATTERN } from './audit-record';
import { IngestedBySchema, VIGIL_DATABASE_ID } from './admin-audit';
import { AuditEventTypes, EventSeverities } from './catalog';

/** Stored events name a monitored database, or `vigil` for events about Vigil itself (vigil.*, audit.checkpoint). */
export const STORED_DATABASE_ID_PATTERN = `^(${DATABASE_ID_PATTERN.slice(1, -1)}|${VIGIL_DATABASE_ID})$`;

/**
 * The details of a stored event: what producers send (AuditDetailsSchema) or what Vigil writes for
 * its own events. vigil.* events record `source_ip` (and `user_agent`, `correlation_id`) as null
 * when a change has no client, e.g. a scheduled key rotation by the system.
 */
export const StoredAuditDetailsSchema = Type.Object(
  { ...AuditDetailsSchema.properties, source_ip: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])) },
  { additionalProperties: true },
);

/** A stored audit event, as event-ingest publishes it on `audit.events.v1` and the API returns it. */
export const AuditEventSchema = Type.Object({
  id: Type.String({ pattern: '^evt_' }),
  type: Type.Union(AuditEventTypes.map((t) => Type.Literal(t))),
  severity: Type.Union(EventSeverities.map((s) => Type.Literal(s))),
  /** A monitored database, or `vigil` for events about Vigil itself (vigil.*, audit.checkpoint). */
  database_id: Type.String({ pattern: STORED_DATABASE_ID_PATTERN }),
  timestamp: Type.String({ format: 'date-time' }),
  processed_at: Type.String({ format: 'date-time' }),
  details: StoredAuditDetailsSchema,
  context: Type.Object({
    policy_id: Type.Union([Type.String(), Type.Null()]),
    rule_id: Type.Union([Type.String(), Type.Null()]),
    risk_score: Type.Integer({ minimum: 0, maximum: 100 }),
  }),
  producer_id: Type.Union([Type.String(), Type.Null()]),
  /**
   * Who submitted the event: the credential of POST /v1/events/ingest (user, api_key,
   * oauth_client), the internal producer of audit.ingest (`producer`), the pg-proxy (`proxy`), or
   * Vigil itself for derived and vigil.* events (`system`, id = the service). Null for events
   * stored before it was recorded. Always present in what the API and audit.events.v1 publish
   * (optional in the type only so that older messages still validate).
   */
  ingested_by: Type.Optional(IngestedBySchema),
  /**
   * Present and true when the record held text PostgreSQL cannot store (U+0000, a lone surrogate):
   * `details` and `producer_id` are then in their stored, escaped form (stored-text.ts). The
   * events API and the stream restore the original and drop the flag.
   */
  escaped: Type.Optional(Type.Boolean()),
});

export type AuditEvent = Static<typeof AuditEventSchema>;
export const auditEventValidator = createValidator(AuditEventSchema);
