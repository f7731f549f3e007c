import {
  type AlertRequest,
  alertRequestValidator,
  type AlertSeverity,
  type AlertType,
  type AuditEvent,
  AuditEventSchema,
  createEnvelopeValidator,
  type EventEnvelope,
  MessageHeaders,
  Topics,
} from '@vigil/contracts';
import { type Decoded, type IncomingMessage, jsonWithHeaderId } from '@vigil/messaging';
import type { AlertSnapshot } from '../alert-destinations/alert-payload';

/** An alert to raise (or to fold into an open alert with the same dedup_key). */
export interface NewAlert {
  /** Condition and subject: the same key within the de-duplication window updates one alert. */
  dedup_key: string;
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  description: string;
  database_id: string;
  policy_id: string | null;
  policy_name: string | null;
  event_ids: string[];
  /** Destination names (policy `channels`); empty = every destination whose filters accept it. */
  channels: string[];
  occurred_at: string;
  context: AlertContext;
  raw_event: unknown;
}

/** The default payload's source/actor/event/policy groups, plus query and source IP for webhooks. */
export type AlertContext = Pick<AlertSnapshot, 'source' | 'actor' | 'event' | 'policy'> & { query: string | null };

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

export function alertFromRequest(request: AlertRequest): NewAlert {
  const subject = request.actor.user ?? request.actor.client_ip ?? '-';
  return {
    dedup_key: `${request.type}|policy:${request.policy.id}|db:${request.database_id}|subject:${subject}`,
    type: request.type,
    severity: request.severity,
    title: request.title,
    description: request.description,
    database_id: request.database_id,
    policy_id: request.policy.id,
    policy_name: request.policy.name,
    event_ids: request.event_ids,
    channels: request.channels,
    occurred_at: request.occurred_at,
    context: {
      source: { ...request.source },
      actor: { ...request.actor },
      event: { query_type: request.event.query_type, object: request.event.object, rows_affected: request.event.rows_affected, duration_ms: request.event.duration_ms },
      policy: { id: request.policy.id, name: request.policy.name },
      query: request.event.query,
    },
    raw_event: request,
  };
}

/** Event severities to alert severities for alerts raised from audit events (docs/alerts.md). */
const FROM_EVENT_SEVERITY: Record<string, AlertSeverity> = { critical: 'critical', warning: 'medium', info: 'low' };

const EVENT_ALERTS: Record<string, { type: AlertType; what: string }> = {
  'security.anomaly': { type: 'anomaly_detection', what: 'Anomalous activity' },
  'data.sensitive_access': { type: 'classification_alert', what: 'Sensitive data accessed' },
};

/**
 * Sensitive access that only shadow-mode policies cover (the proxy let the values through and
 * recorded what it would have masked): recorded, not alerted, like every shadow finding
 * (docs/policies.md#shadow-mode).
 */
function shadowOnly(details: Record<string, unknown>): boolean {
  const masking = details.masking;
  return (
    details.masked === false &&
    Array.isArray(masking) &&
    masking.length > 0 &&
    masking.every((m) => typeof m === 'object' && m !== null && (m as { shadow?: unknown }).shadow === true)
  );
}

/**
 * security.anomaly -> anomaly_detection, data.sensitive_access -> classification_alert (unless only
 * shadow-mode policies cover it); other types raise nothing.
 */
export function alertFromAuditEvent(event: AuditEvent): NewAlert | null {
  const kind = EVENT_ALERTS[event.type];
  if (!kind) return null;
  const d = event.details as Record<string, unknown>;
  if (event.type === 'data.sensitive_access' && shadowOnly(d)) return null;
  const user = str(d.user);
  const ip = str(d.source_ip);
  const object = str(d.object) ?? str(d.table) ?? str(d.classification);
  const qualifier = event.type === 'security.anomaly' ? (str(d.threat_type) ?? str(d.anomaly_type) ?? '') : (object ?? '');
  const who = user ? ` by ${user}` : ip ? ` from ${ip}` : '';
  const title = `${kind.what} on ${event.database_id}${who}`;
  const description = str(d.description) ?? str(d.message) ?? [qualifier && `${event.type === 'security.anomaly' ? 'Anomaly' : 'Object'}: ${qualifier}`, str(d.query) && `Query: ${str(d.query)}`].filter(Boolean).join('. ');
  return {
    dedup_key: `${kind.type}|db:${event.database_id}|subject:${user ?? ip ?? '-'}|${qualifier}`,
    type: kind.type,
    severity: FROM_EVENT_SEVERITY[event.severity] ?? 'medium',
    title: title.slice(0, 300),
    description: (description || title).slice(0, 2000),
    database_id: event.database_id,
    policy_id: event.context.policy_id,
    policy_name: null,
    event_ids: [event.id],
    channels: [],
    occurred_at: event.timestamp,
    context: {
      source: { database: str(d.database_name) ?? event.database_id, db_type: str(d.db_type), host: str(d.host), port: int(d.port) },
      actor: { user, client_ip: ip, application: str(d.client_application) },
      event: { query_type: str(d.query_type) ?? str(d.operation), object, rows_affected: int(d.rows_affected), duration_ms: int(d.duration_ms) },
      policy: { id: event.context.policy_id, name: null },
      query: str(d.query),
    },
    raw_event: event,
  };
}

const auditEnvelopeValidator = createEnvelopeValidator(AuditEventSchema);

/** Decodes the alerts consumer's topics; an audit event that raises no alert decodes to null. */
export function decodeAlertSource(message: IncomingMessage): Decoded<NewAlert | null> {
  if (message.topic === Topics.alertRequests) {
    const decoded = jsonWithHeaderId(message, (v) => alertRequestValidator.validate(v));
    return decoded.ok ? { ok: true, messageId: decoded.messageId, value: alertFromRequest((decoded.value as EventEnvelope<AlertRequest>).data) } : decoded;
  }
  if (message.topic === Topics.auditEvents) {
    // Most audit events raise no alert: skip them before validating the whole envelope.
    const type = message.headers[MessageHeaders.eventType];
    if (type && !EVENT_ALERTS[type]) {
      const messageId = message.headers[MessageHeaders.messageId];
      if (messageId) return { ok: true, messageId, value: null };
    }
    const decoded = jsonWithHeaderId(message, (v) => auditEnvelopeValidator.validate(v));
    return decoded.ok ? { ok: true, messageId: decoded.messageId, value: alertFromAuditEvent((decoded.value as EventEnvelope<AuditEvent>).data) } : decoded;
  }
  return { ok: false, reason: `no alert source for topic ${message.topic}` };
}
