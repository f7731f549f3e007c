import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

/** Envelope type of messages on `alert.requests.v1`. */
export const ALERT_REQUESTED = 'alert.requested';

export const AlertSeverities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const AlertRequestTypes = ['policy_violation', 'anomaly_detection', 'threshold_breach', 'classification_alert'] as const;

/**
 * An alert a policy asks for, handed to the delivery side on `alert.requests.v1` (key: policy id;
 * producer: event-ingest enforcement, outbox). Delivery turns it into an alert record (`alt_`) and
 * sends it to the alert destinations that accept it (severity_filter, alert_types,
 * database_filter). `request_id` is unique per request: consumers de-duplicate on it (it is also
 * the envelope id). The fields map onto the default alert payload (source, actor, event,
 * policy); what the pipeline does not know (db_type, host, port, rows_affected, duration_ms) is
 * taken from the event details when the producer sent them, otherwise null.
 */
export const AlertRequestSchema = Type.Object({
  request_id: Type.String({ minLength: 1, maxLength: 200 }),
  type: Type.Union(AlertRequestTypes.map((t) => Type.Literal(t))),
  severity: Type.Union(AlertSeverities.map((s) => Type.Literal(s))),
  title: Type.String({ maxLength: 300 }),
  description: Type.String({ maxLength: 2000 }),
  occurred_at: Type.String({ format: 'date-time' }),
  database_id: Type.String(),
  /** Notification channel names from the policy action; empty = every destination that accepts it. */
  channels: Type.Array(Type.String()),
  policy: Type.Object({ id: Type.String({ pattern: '^pol_' }), name: Type.String() }),
  violation_id: Type.Union([Type.String({ pattern: '^vio_' }), Type.Null()]),
  /** The audit events behind the alert: the triggering event, then the policy.violation event. */
  event_ids: Type.Array(Type.String({ pattern: '^evt_' })),
  actor: Type.Object({
    user: Type.Union([Type.String(), Type.Null()]),
    client_ip: Type.Union([Type.String(), Type.Null()]),
    application: Type.Union([Type.String(), Type.Null()]),
  }),
  event: Type.Object({
    type: Type.String(),
    query: Type.Union([Type.String(), Type.Null()]),
    query_type: Type.Union([Type.String(), Type.Null()]),
    object: Type.Union([Type.String(), Type.Null()]),
    rows_affected: Type.Union([Type.Integer(), Type.Null()]),
    duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  }),
  source: Type.Object({
    database: Type.String(),
    db_type: Type.Union([Type.String(), Type.Null()]),
    host: Type.Union([Type.String(), Type.Null()]),
    port: Type.Union([Type.Integer(), Type.Null()]),
  }),
  matched_conditions: Type.Array(Type.Object({ type: Type.String(), reason: Type.String() })),
});
export type AlertRequest = Static<typeof AlertRequestSchema>;
export const alertRequestValidator = createEnvelopeValidator(AlertRequestSchema);
