import { generateKeyPairSync } from 'node:crypto';
import type { JsonWebKeySet } from '@vigil/contracts';
import type { RpcClients } from '../rpc/rpc-clients';
import { JwksCache } from './jwks.cache';

const jwk = (kid: string) => ({ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' });

describe('JwksCache', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  function cache(sets: JsonWebKeySet[]) {
    let calls = 0;
    const rpc = { auth: { call: async () => sets[Math.min(calls++, sets.length - 1)] } } as unknown as RpcClients;
    return { jwks: new JwksCache(rpc), calls: () => calls };
  }

  it('drops a key that left the JWKS at the background refresh, and not before', async () => {
    const old = jwk('old');
    const current = jwk('new');
    const { jwks, calls } = cache([{ keys: [old, current] }, { keys: [current] }]);
    expect(await jwks.get('old')).toBeDefined();
    expect(calls()).toBe(1);
    jest.setSystemTime(1_000_000 + 9 * 60_000);
    expect(await jwks.get('old')).toBeDefined();
    expect(calls()).toBe(1);

    jest.setSystemTime(1_000_000 + 11 * 60_000);
    // The known key still answers this request; the refresh runs behind it.
    expect(await jwks.get('old')).toBeDefined();
    expect(calls()).toBe(2);
    await Promise.resolve();
    await Promise.resolve();
    expect(await jwks.get('old')).toBeUndefined();
    expect(await jwks.get('new')).toBeDefined();
  });

  it('keeps the keys it holds when a background refresh fails', async () => {
    const key = jwk('k');
    let calls = 0;
    const rpc = {
      auth: {
        call: async () => {
          if (calls++ > 0) throw new Error('auth unreachable');
          return { keys: [key] };
        },
      },
    } as unknown as RpcClients;
    const jwks = new JwksCache(rpc);
    expect(await jwks.get('k')).toBeDefined();
    jest.setSystemTime(1_000_000 + 11 * 60_000);
    expect(await jwks.get('k')).toBeDefined();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toBe(2);
    expect(await jwks.get('k')).toBeDefined();
  });
});
