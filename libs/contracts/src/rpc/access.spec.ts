import { RpcAllowList, rpcCallAllowed } from './access';
import { RpcPatterns } from './patterns';

describe('rpcCallAllowed', () => {
  it('lets pg-proxy read policy snapshots and signing keys, and nothing else anywhere', () => {
    expect(rpcCallAllowed('policy', 'pg-proxy', RpcPatterns.policies.snapshots)).toEqual({ ok: true });
    expect(rpcCallAllowed('policy', 'pg-proxy', RpcPatterns.policies.signingKeys)).toEqual({ ok: true });
    expect(rpcCallAllowed('policy', 'pg-proxy', RpcPatterns.policies.create)).toEqual({ ok: false, reason: 'pattern_not_allowed' });
    for (const receiver of ['auth', 'event-ingest', 'delivery']) {
      expect(rpcCallAllowed(receiver, 'pg-proxy', RpcPatterns.auth.apiKeysCreate)).toEqual({ ok: false, reason: 'unknown_caller' });
    }
  });

  it('refuses a caller without identity, an unknown identity and inherited property names', () => {
    expect(rpcCallAllowed('auth', undefined, RpcPatterns.auth.login)).toEqual({ ok: false, reason: 'unauthenticated' });
    expect(rpcCallAllowed('auth', 'mallory', RpcPatterns.auth.login)).toEqual({ ok: false, reason: 'unknown_caller' });
    expect(rpcCallAllowed('auth', '__proto__', RpcPatterns.auth.login)).toEqual({ ok: false, reason: 'unknown_caller' });
    expect(rpcCallAllowed('auth', 'constructor', 'toString')).toEqual({ ok: false, reason: 'unknown_caller' });
    expect(rpcCallAllowed('nobody', 'gateway', RpcPatterns.auth.login)).toEqual({ ok: false, reason: 'unknown_caller' });
  });

  it('matches whole pattern names only: no prefix, suffix or wildcard', () => {
    expect(rpcCallAllowed('delivery', 'event-ingest', RpcPatterns.alerts.report)).toEqual({ ok: true });
    expect(rpcCallAllowed('delivery', 'event-ingest', `${RpcPatterns.alerts.report}x`)).toEqual({ ok: false, reason: 'pattern_not_allowed' });
    expect(rpcCallAllowed('delivery', 'event-ingest', 'delivery.alerts.*')).toEqual({ ok: false, reason: 'pattern_not_allowed' });
    expect(rpcCallAllowed('delivery', 'event-ingest', RpcPatterns.alerts.acknowledge)).toEqual({ ok: false, reason: 'pattern_not_allowed' });
  });

  it("gives the gateway every pattern of each service except the enforcement points' and reports' own", () => {
    expect(rpcCallAllowed('auth', 'gateway', RpcPatterns.auth.apiKeysCreate)).toEqual({ ok: true });
    expect(rpcCallAllowed('policy', 'gateway', RpcPatterns.policies.snapshots)).toEqual({ ok: false, reason: 'pattern_not_allowed' });
    expect(rpcCallAllowed('delivery', 'gateway', RpcPatterns.alerts.report)).toEqual({ ok: false, reason: 'pattern_not_allowed' });
    // Every allowed pattern belongs to the receiving service.
    for (const [receiver, callers] of Object.entries(RpcAllowList)) {
      for (const patterns of Object.values(callers)) for (const p of patterns!) expect(p.startsWith(`${receiver}.`)).toBe(true);
    }
  });
});
