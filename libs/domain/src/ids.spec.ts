import { encodeUlid, newId, timeOfId, ulid } from './ids';
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

  it('encode time and random bits as big-endian Crockford base32 (the ULID layout)', () => {
    // Reference: the whole 128-bit value in one BigInt, 5 bits per character.
    const reference = (now: number, bytes: Uint8Array) => {
      let value = BigInt(now);
      for (const b of bytes) value = (value << 8n) | BigInt(b);
      let out = '';
      for (let i = 0; i < 26; i++) {
        out = '0123456789abcdefghjkmnpqrstvwxyz'[Number(value & 31n)] + out;
        value >>= 5n;
      }
      return out;
    };
    expect(encodeUlid(1469918176385, new Uint8Array(10)).slice(0, 10)).toBe('01aryz6s41'); // the example time of the ULID specification
    const samples = [new Uint8Array(10), new Uint8Array(10).fill(255), Uint8Array.from([0x80, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 1])];
    for (let i = 0; i < 200; i++) samples.push(Uint8Array.from({ length: 10 }, (_, j) => (i * 37 + j * 101) % 256));
    for (const bytes of samples) {
      for (const now of [0, 1, 1_700_000_000_000, 2 ** 48 - 1]) expect(encodeUlid(now, bytes)).toBe(reference(now, bytes));
    }
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
