import { auditEventValidator } from './audit-event';

const stored = (details: Record<string, unknown>, type = 'vigil.signing_key.rotated', database_id = 'vigil') => ({
  id: 'evt_01J00000000000000000000000',
  type,
  severity: 'info',
  database_id,
  timestamp: '2026-11-28T08:00:00.000Z',
  processed_at: '2026-11-28T08:00:00.010Z',
  details,
  context: { policy_id: null, rule_id: null, risk_score: 0 },
  producer_id: null,
  ingested_by: { kind: 'system', id: 'auth' },
});

describe('stored audit event contract (audit.events.v1)', () => {
  it('accepts a vigil.* event made without a client: null source address, user agent and correlation id', () => {
    const result = auditEventValidator.validate(
      stored({ actor: { kind: 'system', id: 'auth' }, source_ip: null, user_agent: null, correlation_id: null, service: 'auth', target: { type: 'signing_key', id: 'sk_1' } }),
    );
    expect(result).toMatchObject({ ok: true });
  });

  it('still refuses a source address of the wrong type or length', () => {
    expect(auditEventValidator.validate(stored({ source_ip: 42 }, 'database.query', 'db_orders'))).toMatchObject({ ok: false, errors: [{ field: 'details.source_ip' }] });
    expect(auditEventValidator.validate(stored({ source_ip: 'x'.repeat(65) }, 'database.query', 'db_orders'))).toMatchObject({ ok: false });
    expect(auditEventValidator.validate(stored({ source_ip: '10.0.0.1', user: 'alice' }, 'database.query', 'db_orders'))).toMatchObject({ ok: true });
  });
});
