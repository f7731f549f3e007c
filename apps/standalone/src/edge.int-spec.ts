import { loadServiceConfig } from '@vigil/platform';
import { gatewayService } from '@vigil/service/gateway';
import { startEarlyInWindow } from '@vigil/testing';
import { apiKey } from './testing/access';
import { http, login } from './testing/http';
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
    system = await startTestSystem({ bus: 'memory', env: { ...limits, RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1/32' } });
  }, 120_000);
  afterAll(async () => {
    await system?.close();
  });

  it('counts each client address (the right-most untrusted X-Forwarded-For entry) on its own', async () => {
    // The per-address limit counts in fixed one-minute windows: all attempts must fall into one.
    await startEarlyInWindow();
    const statuses: number[] = [];
    // A forged left part is the client's own claim: only the entry the proxy appended counts.
    for (let i = 0; i < 4; i++) statuses.push((await attempt(system, `10.9.9.${i}, 203.0.113.10`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client behind the same proxy has its own budget.
    expect((await attempt(system, '203.0.113.11')).status).toBe(401);
  }, 60_000);

  let from = 0;
  /** A login from a new client address each time, so only the per-account back-off can refuse it. */
  const loginAs = (email: string, password: string) =>
    http(system.gatewayUrl, 'POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': `198.51.100.${++from}` } });

  it('backs off per account after 5 consecutive failures from any address, the same for unknown e-mails, and resets on success', async () => {
    const admin = 'admin@example.com';
    const unknown = `nobody-${Date.now()}@example.com`;
    const locked: Awaited<ReturnType<typeof loginAs>>[] = [];
    for (const email of [admin, unknown]) {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await loginAs(email, `wrong-${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      // Locked for 1 s: even the right password is not checked.
      locked.push(await loginAs(email, system.adminPassword));
    }
    for (const response of locked) {
      expect(response.status).toBe(429);
      expect(response.body).toMatchObject({ status: 429, code: 'rate_limited', retry_after: 1 });
      expect(response.headers.get('retry-after')).toBe('1');
    }
    // Nothing tells the existing account from the unknown one.
    expect(locked[1]!.body.detail).toBe(locked[0]!.body.detail);

    await new Promise((r) => setTimeout(r, 1100));
    expect((await loginAs(admin, system.adminPassword)).status).toBe(200);
    // The success reset the count: a failure now is just a failure again.
    expect((await loginAs(admin, 'wrong-again')).status).toBe(401);
    expect((await loginAs(admin, system.adminPassword)).status).toBe(200);
    // The unknown e-mail's next failure doubles its lock to 2 s.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await loginAs(unknown, 'wrong-5')).status).toBe(401);
    const doubled = await loginAs(unknown, 'wrong-6');
    expect(doubled.status).toBe(429);
    expect(doubled.body.retry_after).toBe(2);
  }, 60_000);

  it('turns an address past its failed-authentication limit away before looking at its credential', async () => {
    const admin = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    const { key } = await apiKey(system.gatewayUrl, admin, ['read:logs']);
    const probe = (token: string, address: string) =>
      http(system.gatewayUrl, 'GET', '/v1/events/evt_00000000000000000000000000', { token, headers: { 'x-forwarded-for': address } });
    await startEarlyInWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await probe(`vigil_ak_guess${i}`, '203.0.113.60')).status);
    expect(statuses).toEqual([401, 401, 401]);
    // A valid key from that address is refused unseen (auth would have accepted it) ...
    const refused = await probe(key, '203.0.113.60');
    expect(refused.status).toBe(429);
    expect(refused.body.retry_after).toBeGreaterThan(0);
    // ... and accepted from any other.
    expect((await probe(key, '203.0.113.61')).status).toBe(404);
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
    await startEarlyInWindow();
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
