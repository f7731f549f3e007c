import type { Principal } from '../../auth/principal';
import { expiryEnd, revocationEnds, watchExpiry } from './credential-watch';

const key: Principal = { kind: 'api_key', subject: 'key_a', scopes: ['read:logs'], credentialId: 'key:key_a' };
const user: Principal = { kind: 'user', subject: 'usr_a', scopes: ['read:logs'], credentialId: 'user:usr_a', sessionId: 'sess_a', tokenId: 'jti_a' };
const viaClient: Principal = { ...user, clientId: 'cli_a', sessionId: 'sess_b' };

describe('revocationEnds', () => {
  it('matches an API key by id, a session by sid, a token by jti and a client by client_id', () => {
    expect(revocationEnds(key, { kind: 'api_key', id: 'key_a', expires_at: null })?.reason).toBe('api_key_revoked');
    expect(revocationEnds(user, { kind: 'session', id: 'sess_a', expires_at: null })?.reason).toBe('session_revoked');
    expect(revocationEnds(user, { kind: 'access_token', id: 'jti_a', expires_at: null })?.reason).toBe('token_revoked');
    expect(revocationEnds(viaClient, { kind: 'client', id: 'cli_a', expires_at: null })?.reason).toBe('client_deleted');
    expect(revocationEnds(user, { kind: 'user', id: 'usr_a', expires_at: null, reason: 'user_deleted' })?.reason).toBe('user_deleted');
  });

  it('ignores revocations of other credentials, including an id of another kind', () => {
    expect(revocationEnds(key, { kind: 'api_key', id: 'key_b', expires_at: null })).toBeUndefined();
    expect(revocationEnds(key, { kind: 'session', id: 'key_a', expires_at: null })).toBeUndefined();
    expect(revocationEnds(user, { kind: 'api_key', id: 'usr_a', expires_at: null })).toBeUndefined();
    expect(revocationEnds(user, { kind: 'client', id: 'cli_a', expires_at: null })).toBeUndefined();
    expect(revocationEnds(key, { kind: 'user', id: 'key_a', expires_at: null })).toBeUndefined();
  });

  it('names the reason the revocation gives', () => {
    expect(revocationEnds(user, { kind: 'session', id: 'sess_a', expires_at: null, reason: 'user_disabled' })).toEqual({
      reason: 'user_disabled',
      detail: 'The user of this stream was disabled.',
    });
    expect(revocationEnds(user, { kind: 'session', id: 'sess_a', expires_at: null, reason: 'logged_out' })?.reason).toBe('logged_out');
    expect(revocationEnds(key, { kind: 'api_key', id: 'key_a', expires_at: null, reason: 'rotated' })?.reason).toBe('api_key_rotated');
  });
});

describe('watchExpiry', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires at the expiry, not before, and never for a credential without one', () => {
    let now = 1_000_000;
    const fired: string[] = [];
    watchExpiry(now + 5000, () => fired.push('token'), () => now);
    watchExpiry(undefined, () => fired.push('never'), () => now);
    now += 4999;
    jest.advanceTimersByTime(4999);
    expect(fired).toEqual([]);
    now += 1;
    jest.advanceTimersByTime(1);
    expect(fired).toEqual(['token']);
  });

  it('fires at once for a credential already expired, and not after being cancelled', () => {
    const now = 1_000_000;
    const fired: string[] = [];
    watchExpiry(now - 1, () => fired.push('expired'), () => now);
    const cancel = watchExpiry(now + 10, () => fired.push('cancelled'), () => now);
    cancel();
    jest.advanceTimersByTime(100);
    expect(fired).toEqual(['expired']);
  });

  it('re-arms past the longest timer delay (an API key expiring in months)', () => {
    let now = 0;
    const fired: string[] = [];
    const expiry = 2 ** 31 + 1000;
    watchExpiry(expiry, () => fired.push('key'), () => now);
    now = 2 ** 31 - 1;
    jest.advanceTimersByTime(2 ** 31 - 1);
    expect(fired).toEqual([]);
    now = expiry;
    jest.advanceTimersByTime(1001);
    expect(fired).toEqual(['key']);
  });

  it('says which credential expired', () => {
    expect(expiryEnd(key).reason).toBe('api_key_expired');
    expect(expiryEnd(user).reason).toBe('token_expired');
  });
});
