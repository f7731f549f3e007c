import { AdminAuditTypes, type ReportType, type ReportTypeDescription } from '@vigil/contracts';

/**
 * What each compliance report contains (docs/reports.md#report-types). A section is computed from
 * stored audit events over the report's period and databases; `filter` picks its events: the
 * event types listed, plus `database.query` events whose statement starts with one of the
 * operations listed. The `alerts` section is computed from the alerts first seen in the period on
 * those databases, which the delivery service aggregates.
 */
export type SectionKind =
  | 'by_user' // who: events per database user
  | 'by_user_ip' // attempts per user and source address
  | 'list' // the newest events themselves
  | 'by_type' // counts per event type and severity
  | 'by_policy' // policy violations per policy
  | 'coverage' // events per database: proof that logging ran
  | 'admin_actions' // vigil.* events: changes made through Vigil's API, logins, with their actors
  | 'alerts'; // alerts raised: figures from the delivery service (docs/reports.md#alerts)

export interface SectionFilter {
  types?: string[];
  operations?: string[];
}

export interface SectionDefinition {
  id: string;
  title: string;
  controls: string[];
  description: string;
  kind: SectionKind;
  filter: SectionFilter;
}

export interface ReportDefinition {
  type: ReportType;
  title: string;
  framework: string;
  sections: SectionDefinition[];
}

const SENSITIVE = ['data.sensitive_access', 'data.export'];
const SECURITY = ['security.threat_detected', 'security.anomaly', 'security.privilege_escalation', 'policy.violation'];
/**
 * Statements that change schema or privileges: the only operations a `list` section may name, as
 * its events are read through the partial index of exactly these (migration ReportIndexes1767100000000).
 */
export const PRIVILEGED_OPS = ['GRANT', 'REVOKE', 'ALTER', 'DROP', 'CREATE', 'TRUNCATE'];

const failedLogins = (controls: string[]): SectionDefinition => ({
  id: 'failed_logins',
  title: 'Invalid logical access attempts',
  controls,
  description: 'Failed database logins (user.login_failed) per user and source address.',
  kind: 'by_user_ip',
  filter: { types: ['user.login_failed'] },
});
const violations = (controls: string[]): SectionDefinition => ({
  id: 'policy_violations',
  title: 'Policy violations',
  controls,
  description: 'Operations that violated an enabled security policy (policy.violation events), per policy and severity.',
  kind: 'by_policy',
  filter: { types: ['policy.violation'] },
});
const ALERTS_WHAT =
  'Alerts first seen in the period on these databases (policy violations, anomalies, thresholds, sensitive data access), ' +
  'per severity, status and type, with the time from each alert to its acknowledgement and resolution and the most severe alerts listed';
const alerts = (controls: string[], purpose: string): SectionDefinition => ({
  id: 'alerts',
  title: 'Alerts raised and their handling',
  controls,
  description: `${ALERTS_WHAT}: ${purpose}`,
  kind: 'alerts',
  filter: {},
});
const coverage = (controls: string[]): SectionDefinition => ({
  id: 'audit_log_coverage',
  title: 'Audit log coverage',
  controls,
  description: 'Audit events recorded per database in the period (first and last event): evidence that audit logging was active.',
  kind: 'coverage',
  filter: {},
});

/**
 * Administrative actions in Vigil itself (vigil.* events, docs/events.md#administrative-actions):
 * who changed policies, credentials, destinations, registrations, reports; logins and their
 * failures. Not limited to the report's databases: they are about Vigil, not a database.
 */
const adminActions = (controls: string[]): SectionDefinition => ({
  id: 'administrative_actions',
  title: 'Administrative actions in Vigil',
  controls,
  description:
    'Every change made through Vigil\'s API (policies, API keys, users, OAuth clients, webhooks, alert destinations, databases, reports and schedules, alert handling), and every Vigil login, failed login and refresh-token reuse, with the actor, source address and changed fields (vigil.* events).',
  kind: 'admin_actions',
  filter: { types: AdminAuditTypes },
});

export const ReportDefinitions: Record<ReportType, ReportDefinition> = {
  pci_dss: {
    type: 'pci_dss',
    title: 'PCI DSS Requirement 10 — Audit log review',
    framework: 'PCI DSS v4.0, Requirement 10 (Log and monitor all access to system components and cardholder data)',
    sections: [
      {
        id: 'cardholder_data_access',
        title: 'Individual user access to cardholder data',
        controls: ['PCI DSS 10.2.1.1'],
        description: 'Every database user who read or exported sensitive (cardholder) data: data.sensitive_access and data.export events per user.',
        kind: 'by_user',
        filter: { types: SENSITIVE },
      },
      failedLogins(['PCI DSS 10.2.1.4']),
      {
        id: 'privileged_actions',
        title: 'Actions taken with administrative privileges',
        controls: ['PCI DSS 10.2.1.2', 'PCI DSS 10.2.1.5', 'PCI DSS 10.2.1.7'],
        description: `Privilege escalations and statements changing schema or privileges (${PRIVILEGED_OPS.join(', ')}).`,
        kind: 'list',
        filter: { types: ['security.privilege_escalation'], operations: PRIVILEGED_OPS },
      },
      {
        id: 'security_events',
        title: 'Security events for review',
        controls: ['PCI DSS 10.4.1', 'PCI DSS 10.4.1.1'],
        description: 'Threats, anomalies, privilege escalations and policy violations per type and severity.',
        kind: 'by_type',
        filter: { types: SECURITY },
      },
      violations(['PCI DSS 10.4.1', 'PCI DSS 10.7.2']),
      alerts(['PCI DSS 10.4.3', 'PCI DSS 10.7.3'], 'evidence that exceptions and anomalies found in the review, and failures of security controls, were responded to.'),
      adminActions(['PCI DSS 10.2.1.2', 'PCI DSS 10.2.1.4', 'PCI DSS 10.2.2']),
      coverage(['PCI DSS 10.2.1', 'PCI DSS 10.3.3', 'PCI DSS 10.5.1']),
    ],
  },
  sox: {
    type: 'sox',
    title: 'SOX IT general controls — Financial data and privilege changes',
    framework: 'Sarbanes-Oxley Act §404, IT general controls (COBIT 2019 mapping)',
    sections: [
      {
        id: 'financial_data_changes',
        title: 'Changes to financial data',
        controls: ['SOX §404 ITGC: access to programs and data', 'COBIT DSS06.02'],
        description: 'Statements that change data (INSERT, UPDATE, DELETE, MERGE, TRUNCATE) per database user.',
        kind: 'by_user',
        filter: { operations: ['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE'] },
      },
      {
        id: 'privilege_changes',
        title: 'Changes to privileges',
        controls: ['SOX §404 ITGC: logical access', 'COBIT DSS05.04'],
        description: 'Privilege escalations and GRANT / REVOKE statements.',
        kind: 'list',
        filter: { types: ['security.privilege_escalation'], operations: ['GRANT', 'REVOKE'] },
      },
      {
        id: 'schema_changes',
        title: 'Changes to database structure',
        controls: ['SOX §404 ITGC: program change', 'COBIT BAI06.01'],
        description: 'CREATE, ALTER and DROP statements.',
        kind: 'list',
        filter: { operations: ['CREATE', 'ALTER', 'DROP'] },
      },
      failedLogins(['SOX §404 ITGC: logical access', 'COBIT DSS05.04']),
      violations(['SOX §404 ITGC: monitoring', 'COBIT MEA01']),
      alerts(['SOX §404 ITGC: monitoring', 'COBIT DSS02.01'], 'incidents on the financial databases in scope and how they were handled.'),
      coverage(['SOX §404 ITGC: audit trail', 'COBIT DSS06.05']),
    ],
  },
  hipaa: {
    type: 'hipaa',
    title: 'HIPAA Security Rule — Audit controls and activity review',
    framework: 'HIPAA Security Rule, 45 CFR Part 164 Subpart C',
    sections: [
      {
        id: 'phi_access',
        title: 'Access to electronic protected health information',
        controls: ['45 CFR 164.312(b)', '45 CFR 164.308(a)(1)(ii)(D)'],
        description: 'Every database user who read or exported sensitive (ePHI) data: data.sensitive_access and data.export events per user.',
        kind: 'by_user',
        filter: { types: SENSITIVE },
      },
      failedLogins(['45 CFR 164.308(a)(5)(ii)(C)']),
      {
        id: 'security_incidents',
        title: 'Security incidents',
        controls: ['45 CFR 164.308(a)(6)(ii)'],
        description: 'Threats, anomalies, privilege escalations and policy violations per type and severity.',
        kind: 'by_type',
        filter: { types: SECURITY },
      },
      {
        id: 'access_control_changes',
        title: 'Changes to access rights',
        controls: ['45 CFR 164.312(a)(1)', '45 CFR 164.308(a)(4)(ii)(C)'],
        description: 'Privilege escalations and GRANT / REVOKE statements.',
        kind: 'list',
        filter: { types: ['security.privilege_escalation'], operations: ['GRANT', 'REVOKE'] },
      },
      violations(['45 CFR 164.308(a)(1)(ii)(D)']),
      alerts(['45 CFR 164.308(a)(6)(ii)'], 'security incidents identified and responded to, and their outcome.'),
      coverage(['45 CFR 164.312(b)']),
    ],
  },
  gdpr: {
    type: 'gdpr',
    title: 'GDPR — Access to and export of personal data',
    framework: 'Regulation (EU) 2016/679 (GDPR)',
    sections: [
      {
        id: 'personal_data_access',
        title: 'Access to personal data',
        controls: ['GDPR Art. 5(1)(f)', 'GDPR Art. 30', 'GDPR Art. 32(1)(b)'],
        description: 'Every database user who read sensitive (personal) data: data.sensitive_access events per user.',
        kind: 'by_user',
        filter: { types: ['data.sensitive_access'] },
      },
      {
        id: 'personal_data_exports',
        title: 'Exports of personal data',
        controls: ['GDPR Art. 5(1)(f)', 'GDPR Art. 32', 'GDPR Art. 44'],
        description: 'Large data exports (data.export events) per user.',
        kind: 'by_user',
        filter: { types: ['data.export'] },
      },
      {
        id: 'breach_indicators',
        title: 'Indicators of personal data breaches',
        controls: ['GDPR Art. 33', 'GDPR Art. 34'],
        description: 'Threats, anomalies and privilege escalations per type and severity.',
        kind: 'by_type',
        filter: { types: ['security.threat_detected', 'security.anomaly', 'security.privilege_escalation'] },
      },
      violations(['GDPR Art. 24', 'GDPR Art. 32(1)(d)']),
      alerts(['GDPR Art. 33', 'GDPR Art. 33(5)'], 'when possible personal data breaches were detected and acted on (the start of the 72-hour notification clock), documented.'),
      coverage(['GDPR Art. 30', 'GDPR Art. 32(1)(d)']),
    ],
  },
};

export function describeReportTypes(): ReportTypeDescription[] {
  return Object.values(ReportDefinitions).map((d) => ({
    type: d.type,
    title: d.title,
    framework: d.framework,
    sections: d.sections.map((s) => ({ id: s.id, title: s.title, controls: s.controls, description: s.description })),
  }));
}

/** Every event type and operation any section of the report needs: what the one scan keeps. */
export function relevantFilter(definition: ReportDefinition): { types: string[]; operations: string[] } {
  const types = new Set<string>();
  const operations = new Set<string>();
  for (const s of definition.sections) {
    s.filter.types?.forEach((t) => types.add(t));
    s.filter.operations?.forEach((o) => operations.add(o));
  }
  return { types: [...types].sort(), operations: [...operations].sort() };
}
