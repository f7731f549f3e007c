import type { AuditEvent } from '@vigil/contracts';
import { alertFromAuditEvent } from './alert-sources';

const access = (details: Record<string, unknown>): AuditEvent => ({
  id: 'evt_1',
  type: 'data.sensitive_access',
  severity: 'warning',
  database_id: 'db_main',
  timestamp: '2026-11-21T10:00:00.000Z',
  processed_at: '2026-11-21T10:00:00.001Z',
  details: { user: 'bob', ...details } as AuditEvent['details'],
  context: { policy_id: 'pol_1', rule_id: null, risk_score: 50 },
  producer_id: null,
});

describe('alerts raised from audit events', () => {
  it('raise a classification alert for sensitive data that was masked, or read by an exempt user', () => {
    expect(alertFromAuditEvent(access({ masked: true, masking: [{ column: 'ssn', shadow: false }] }))?.type).toBe('classification_alert');
    expect(alertFromAuditEvent(access({ masked: false, masking: [{ column: 'ssn', shadow: false }] }))?.type).toBe('classification_alert');
    expect(alertFromAuditEvent(access({ columns: ['ssn'] }))?.type).toBe('classification_alert');
  });

  it('raise nothing when only shadow-mode policies cover the access (recorded, not enforced, nobody paged)', () => {
    expect(alertFromAuditEvent(access({ masked: false, masking: [{ column: 'ssn', shadow: true }, { column: 'card', shadow: true }] }))).toBeNull();
    // One enforced rule among shadow ones still alerts.
    expect(alertFromAuditEvent(access({ masked: true, masking: [{ column: 'ssn', shadow: true }, { column: 'card', shadow: false }] }))).not.toBeNull();
  });
});
