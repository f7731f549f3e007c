import type { AuditEventType, EventSeverity } from '@vigil/contracts';

/**
 * Risk score of an audit event, 0..100, computed once at ingest (docs/architecture.md#risk-score):
 * a base by severity, a bump by event type, and a bump for statements that change schema or
 * privileges or read without a filter. It is a triage aid, not a verdict.
 */
const SEVERITY_BASE: Record<EventSeverity, number> = { info: 10, warning: 40, critical: 70 };

const TYPE_BUMP: Partial<Record<AuditEventType, number>> = {
  'security.threat_detected': 20,
  'security.privilege_escalation': 25,
  'security.anomaly': 10,
  'policy.violation': 10,
  'data.sensitive_access': 10,
  'data.export': 15,
  'user.login_failed': 5,
};

const DANGEROUS_STATEMENT = /^\s*(drop|truncate|alter|grant|revoke|create\s+(user|role))\b/i;
const UNFILTERED_CHANGE = /^\s*(delete\s+from|update)\b(?![\s\S]*\bwhere\b)/i;

export function riskScore(type: AuditEventType, severity: EventSeverity, query?: string): number {
  let score = SEVERITY_BASE[severity] + (TYPE_BUMP[type] ?? 0);
  if (query) {
    const head = query.slice(0, 4096);
    if (DANGEROUS_STATEMENT.test(head)) score += 15;
    if (UNFILTERED_CHANGE.test(head)) score += 15;
  }
  return Math.max(0, Math.min(100, score));
}
