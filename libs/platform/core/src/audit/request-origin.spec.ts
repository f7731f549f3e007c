import { currentRequestOrigin, sanitizeRequestOrigin, withRequestOrigin } from './request-origin';

describe('request origin', () => {
  it('accepts an origin from RPC meta only in its exact shape, with printable text', () => {
    expect(sanitizeRequestOrigin({ actor: { kind: 'api_key', id: 'key_1' }, source_ip: '10.0.0.1', user_agent: 'cli\n{"forged":1}' })).toEqual({
      actor: { kind: 'api_key', id: 'key_1' },
      source_ip: '10.0.0.1',
      user_agent: 'cli{"forged":1}',
    });
    expect(sanitizeRequestOrigin({ actor: { kind: 'root', id: 'x' } })).toBeUndefined();
    expect(sanitizeRequestOrigin({ source_ip: '10.0.0.1' })).toBeUndefined();
    expect(sanitizeRequestOrigin('user')).toBeUndefined();
    expect(sanitizeRequestOrigin({ actor: { kind: 'anonymous' } })).toEqual({ actor: { kind: 'anonymous', id: null }, source_ip: null, user_agent: null });
  });

  it('scopes the origin to the work it runs', async () => {
    expect(currentRequestOrigin()).toBeUndefined();
    await withRequestOrigin({ actor: { kind: 'user', id: 'usr_1' }, source_ip: null, user_agent: null }, async () => {
      await Promise.resolve();
      expect(currentRequestOrigin()?.actor).toEqual({ kind: 'user', id: 'usr_1' });
    });
    expect(currentRequestOrigin()).toBeUndefined();
  });
});
