import {
  type AlertLifecycle,
  alertLifecycleValidator,
  type AuditEvent,
  AuditEventSchema,
  createEnvelopeValidator,
  databaseStatusChangedValidator,
  type EventEnvelope,
  enforcementModeOf,
  reportGeneratedValidator,
  type PolicyChanged,
  policyChangedValidator,
  Topics,
} from '@vigil/contracts';
import { type Decoded, type IncomingMessage, jsonWithHeaderId } from '@vigil/messaging';
import type { WebhookEvent } from './webhook-payload';

/**
 * Where webhook events come from: one entry per bus topic, turning its messages into webhook
 * events. A new source (alerts, databases, reports, ...) is one more entry here; the consumer,
 * matching, storage and delivery do not change.
 */
export interface WebhookSource {
  topic: string;
  decode(message: IncomingMessage): Decoded<WebhookEvent[]>;
}

const auditEnvelopeValidator = createEnvelopeValidator(AuditEventSchema);

function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

/** A stored audit event keeps its events-API type; its details become the flat `data` of the webhook payload. */
export function auditEventToWebhook(envelope: EventEnvelope<AuditEvent>): WebhookEvent {
  const event = envelope.data;
  return {
    id: event.id,
    type: event.type,
    occurred_at: event.timestamp,
    data: withoutNulls({
      ...event.details,
      database_id: event.database_id,
      severity: event.severity,
      timestamp: event.timestamp,
      policy_id: event.context.policy_id,
      rule_id: event.context.rule_id,
      risk_score: event.context.risk_score,
      // The record held U+0000 or a lone surrogate: its text is in the stored, escaped form
      // (docs/events.md#records-with-nul-characters), as kept in the delivery log for retries.
      ...(event.escaped ? { escaped: true } : {}),
    }),
  };
}

/** Every policy change (created, modified, enabled, disabled, deleted) is the webhook type `policy.updated`. */
export function policyChangeToWebhook(envelope: EventEnvelope<PolicyChanged>): WebhookEvent {
  const { change, policy } = envelope.data;
  return {
    id: envelope.id,
    type: 'policy.updated',
    occurred_at: envelope.occurred_at,
    data: {
      policy_id: policy.id,
      change: change.replace(/^policy\./, ''),
      name: policy.name,
      policy_type: policy.type,
      enabled: policy.enabled,
      enforcement_mode: enforcementModeOf(policy),
      databases: policy.databases,
      version: policy.version,
      deleted: policy.deleted,
      updated_at: policy.updated_at,
    },
  };
}

function single<T>(decoded: Decoded<T>, map: (value: T) => WebhookEvent): Decoded<WebhookEvent[]> {
  return decoded.ok ? { ok: true, messageId: decoded.messageId, value: [map(decoded.value)] } : decoded;
}

export const webhookSources: readonly WebhookSource[] = [
  {
    topic: Topics.auditEvents,
    decode: (message) => single(jsonWithHeaderId(message, (v) => auditEnvelopeValidator.validate(v)), (e) => auditEventToWebhook(e as EventEnvelope<AuditEvent>)),
  },
  {
    topic: Topics.policyEvents,
    decode: (message) => single(jsonWithHeaderId(message, (v) => policyChangedValidator.validate(v)), (e) => policyChangeToWebhook(e as EventEnvelope<PolicyChanged>)),
  },
  {
    // alert.created / alert.resolved / alert.escalated from the alerts feature (docs/alerts.md).
    topic: Topics.alertEvents,
    decode: (message) =>
      single(jsonWithHeaderId(message, (v) => alertLifecycleValidator.validate(v)), (e) => {
        const envelope = e as EventEnvelope<AlertLifecycle>;
        return { id: envelope.id, type: envelope.type, occurred_at: envelope.occurred_at, data: { ...envelope.data } };
      }),
  },
  // database.connected / .disconnected / .error and report.generated (docs/reports.md): the envelope
  // type is the webhook type and its data the webhook data.
  {
    topic: Topics.databaseStatus,
    decode: (message) => single(jsonWithHeaderId(message, (v) => databaseStatusChangedValidator.validate(v)), (e) => ({ id: e.id, type: e.type, occurred_at: e.occurred_at, data: { ...e.data } })),
  },
  {
    topic: Topics.reportEvents,
    decode: (message) => single(jsonWithHeaderId(message, (v) => reportGeneratedValidator.validate(v)), (e) => ({ id: e.id, type: e.type, occurred_at: e.occurred_at, data: { ...e.data } })),
  },
];
