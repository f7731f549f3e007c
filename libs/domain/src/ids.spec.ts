import { newId, timeOfId, ulid } from './ids';
import { riskScore } from './risk-score';

describe('ids', () => {
  it('carry the kind prefix and 26 lowercase base32 characters', () => {
    expect(newId('event')).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(newId('policy')).toMatch(/^pol_/);
  });

  it('sort by creation time, and within one millisecond by creation order', () => {
    const sameMs = Array.from({ length: 1000 }, () => ulid(1_700_000_000_000));
    expect([...sameMs].sort()).toEqual(sameMs);
    expect(new Set(sameMs).size).toBe(1000);
    expect(ulid(1_700_000_000_001) > sameMs[sameMs.length - 1]!).toBe(true);
  });

  it('give back the time they were made at', () => {
    expect(timeOfId(newId('event', 1_750_000_000_123))?.getTime()).toBe(1_750_000_000_123);
    expect(timeOfId('evt_not-an-id')).toBeNull();
  });
});

describe('risk score', () => {
  it.each([
    ['database.query', 'info', 'SELECT 1', 10],
    ['database.query', 'info', 'DROP TABLE users', 25],
    ['database.query', 'info', 'DELETE FROM accounts', 25],
    ['database.query', 'info', 'DELETE FROM accounts WHERE id = 1', 10],
    ['security.privilege_escalation', 'critical', 'GRANT ALL ON accounts TO bob', 100],
    ['user.login_failed', 'warning', undefined, 45],
  ] as const)('%s/%s "%s" -> %d', (type, severity, query, expected) => {
    expect(riskScore(type, severity, query)).toBe(expected);
  });
});
