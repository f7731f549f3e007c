import { AdminAuditCatalog } from './admin-audit';

/** Event severities of the events API. */
export const EventSeverities = ['info', 'warning', 'critical'] as const;
export type EventSeverity = (typeof EventSeverities)[number];

/** The events API catalog with each type's default severity. */
export const AuditEventCatalog = {
  'database.query': 'info',
  'database.connection': 'info',
  'database.disconnect': 'info',
  'security.threat_detected': 'critical',
  'security.anomaly': 'warning',
  'security.privilege_escalation': 'critical',
  'policy.violation': 'warning',
  'policy.match': 'info',
  'data.sensitive_access': 'warning',
  'data.export': 'warning',
  'user.login_failed': 'warning',
  'user.login_success': 'info',
  // Vigil's own record of administrative actions (admin-audit.ts); reserved to Vigil.
  ...AdminAuditCatalog,
  /** A signed checkpoint of the event log (docs/integrity.md#checkpoints-and-keys); only Vigil produces it. */
  'audit.checkpoint': 'info',
} as const satisfies Record<string, EventSeverity>;

export type AuditEventType = keyof typeof AuditEventCatalog;
export const AuditEventTypes = Object.keys(AuditEventCatalog) as AuditEventType[];

/** The webhook catalog (the types form B subscriptions use) with the group of each type. */
export const WebhookEventCatalog = {
  'alert.created': 'alerts',
  'alert.resolved': 'alerts',
  'alert.escalated': 'alerts',
  'policy.violation': 'policies',
  'policy.updated': 'policies',
  'database.connected': 'databases',
  'database.disconnected': 'databases',
  'database.error': 'databases',
  'audit.anomaly': 'audit',
  'audit.sensitive_access': 'audit',
  'report.generated': 'reports',
} as const;

export type WebhookEventType = keyof typeof WebhookEventCatalog;

/**
 * Types only Vigil produces: derived from other events (policy enforcement), about Vigil itself
 * (vigil.*) or about its log (audit.checkpoint). Producers (POST /v1/events/ingest, audit.ingest,
 * the pg-proxy) may send every other type of the catalog; these are refused (docs/events.md#types-producers-may-send).
 */
export const ReservedEventTypes = ['policy.violation', 'policy.match', 'audit.checkpoint'] as const;
export const RESERVED_TYPE_PREFIXES = ['vigil.'] as const;

export function isReservedEventType(type: string): boolean {
  return (ReservedEventTypes as readonly string[]).includes(type) || RESERVED_TYPE_PREFIXES.some((p) => type.startsWith(p));
}

/** The catalog types a producer may send. */
export const ProducerEventTypes = (Object.keys(AuditEventCatalog) as AuditEventType[]).filter((t) => !isReservedEventType(t));

export function isAuditEventType(value: string): value is AuditEventType {
  return Object.prototype.hasOwnProperty.call(AuditEventCatalog, value);
}
