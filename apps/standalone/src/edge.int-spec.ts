import { loadServiceConfig } from '@vigil/platform';
import { gatewayService } from '@vigil/service/gateway';
import { http } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * The edge: which address a request comes from (TRUST_PROXY) for the per-address limits. Tests
 * reach the gateway over loopback, so loopback is the peer: one system trusts it as a proxy, the
 * other trusts nothing.
 */
const limits = { RATE_LIMIT_LOGIN_PER_MINUTE: '3' };
let n = 0;
/** A failed login (an unknown e-mail each time, so no account throttle applies) from `forwardedFor`. */
const attempt = (system: TestSystem, forwardedFor: string) =>
  http(system.gatewayUrl, 'POST', '/v1/auth/login', {
    body: { email: `nobody-${Date.now()}-${n++}@example.com`, password: 'wrong-password' },
    headers: { 'x-forwarded-for': forwardedFor },
  });

// One in-process system at a time (the memory bus is per process): the two run one after the other.
describe('edge: behind a trusted proxy (TRUST_PROXY=127.0.0.1/32)', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { ...limits, TRUST_PROXY: '127.0.0.1/32' } });
  }, 120_000);
  afterAll(async () => {
    await system?.close();
  });

  it('counts each client address (the right-most untrusted X-Forwarded-For entry) on its own', async () => {
    const statuses: number[] = [];
    // A forged left part is the client's own claim: only the entry the proxy appended counts.
    for (let i = 0; i < 4; i++) statuses.push((await attempt(system, `10.9.9.${i}, 203.0.113.10`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client behind the same proxy has its own budget.
    expect((await attempt(system, '203.0.113.11')).status).toBe(401);
  }, 60_000);
});

describe('edge: from an untrusted peer (TRUST_PROXY unset)', () => {
  let system: TestSystem;
  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: limits });
  }, 120_000);
  afterAll(async () => {
    await system?.close();
  });

  it('ignores X-Forwarded-For: every claimed address shares the peer\'s budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt(system, `203.0.113.${20 + i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  }, 60_000);
});

describe('edge: TRUST_PROXY is checked at start', () => {
  it('refuses a bad range, naming it', () => {
    expect(() => loadServiceConfig(gatewayService, { TRUST_PROXY: '10.0.0.0/8,10.0.0.300/32' })).toThrow(
      /TRUST_PROXY has invalid CIDR ranges "10\.0\.0\.300\/32"/,
    );
    expect(loadServiceConfig(gatewayService, { TRUST_PROXY: '2' }).TRUST_PROXY).toEqual({ kind: 'hops', hops: 2 });
  });
});
