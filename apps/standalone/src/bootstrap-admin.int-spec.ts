import { rmSync } from 'node:fs';
import { ConfigError, loadServiceConfig, StartRefused } from '@vigil/platform';
import { authService } from '@vigil/service/auth';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * The bootstrap administrator (AUDIT_ADMIN_EMAIL/AUDIT_ADMIN_PASSWORD) across restarts on one
 * database: it may be created and updated, but an account someone else made is never taken over.
 */
describe('bootstrap administrator', () => {
  let first: TestSystem | undefined;
  let last: TestSystem | undefined;

  afterAll(async () => {
    if (last) await last.close();
    else if (first) {
      await first.db.drop();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start rather than promote or reset an account it did not create, and still updates its own', async () => {
    first = await startTestSystem({ bus: 'memory' });
    const admin = await login(first.gatewayUrl, 'admin@example.com', first.adminPassword);
    const created = await http(first.gatewayUrl, 'POST', '/v1/users', {
      token: admin,
      body: { email: 'eve@example.com', password: 'eve-own-password', scopes: ['read:logs'] },
    });
    expect(created.status).toBe(201);
    const rowOf = async (email: string) =>
      (await first!.db.query<{ scopes: string[]; password_hash: string; bootstrap: boolean; updated_at: Date }>(
        `SELECT scopes, password_hash, bootstrap, updated_at FROM auth.users WHERE email = $1`,
        [email],
      ))[0]!;
    const before = await rowOf('eve@example.com');
    expect(before.bootstrap).toBe(false);
    expect((await rowOf('admin@example.com')).bootstrap).toBe(true);
    await first.stop();

    // An operator points AUDIT_ADMIN_EMAIL at Eve's account (in another case).
    await expect(
      startTestSystem({ bus: 'memory', restartOf: first, env: { AUDIT_ADMIN_EMAIL: 'EVE@example.com', AUDIT_ADMIN_PASSWORD: 'attacker-chosen-password' } }),
    ).rejects.toThrow(StartRefused);
    await expect(
      startTestSystem({ bus: 'memory', restartOf: first, env: { AUDIT_ADMIN_EMAIL: 'eve@example.com', AUDIT_ADMIN_PASSWORD: 'attacker-chosen-password' } }),
    ).rejects.toThrow(/AUDIT_ADMIN_EMAIL \(eve@example\.com\) belongs to an existing account that was not created as the bootstrap administrator/);
    expect(await rowOf('eve@example.com')).toEqual(before);

    // The bootstrap account itself is still updated from the configuration at a restart.
    last = await startTestSystem({ bus: 'memory', restartOf: first, env: { AUDIT_ADMIN_PASSWORD: 'a-new-admin-password' } });
    expect((await http(last.gatewayUrl, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: first.adminPassword } })).status).toBe(401);
    await login(last.gatewayUrl, 'admin@example.com', 'a-new-admin-password');
    await login(last.gatewayUrl, 'eve@example.com', 'eve-own-password');
  }, 180_000);

  it('refuses a weak AUDIT_ADMIN_PASSWORD at start, without echoing it', () => {
    const load = (password: string) => () =>
      loadServiceConfig(authService, { AUDIT_ADMIN_PASSWORD: password, DATABASE_URL: 'postgres://x@localhost/x', VIGIL_ENCRYPTION_KEYS: `${'A'.repeat(43)}=` });
    expect(load('short-pw')).toThrow(ConfigError);
    expect(load('short-pw')).toThrow(/AUDIT_ADMIN_PASSWORD is too weak: it must be at least 12 characters long/);
    expect(load('Password1234')).toThrow(/AUDIT_ADMIN_PASSWORD is too weak: it is on the list of commonly used passwords/);
    try {
      load('Password1234')();
    } catch (error) {
      expect((error as Error).message).not.toContain('Password1234');
    }
    expect(loadServiceConfig(authService, { AUDIT_ADMIN_PASSWORD: 'long-and-uncommon', DATABASE_URL: 'postgres://x@localhost/x', VIGIL_ENCRYPTION_KEYS: `${'A'.repeat(43)}=` }).AUDIT_ADMIN_PASSWORD).toBe('long-and-uncommon');
  });
});
