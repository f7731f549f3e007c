import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { waitFor } from '@vigil/testing';
import { gatewayOpenApiDocument } from './console-client/openapi-document';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const ROOT = resolve(__dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The console as `npm run build` makes it, built from the current sources into a folder of its own. */
function buildConsole(outDir: string): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/console/vite.config.ts', '--outDir', outDir, '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
}

/** Serious and critical accessibility findings of axe-core on the page as it is now. */
async function accessibilityFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * The web console end to end: the gateway of a real standalone system serves the built console; a
 * headless Chromium signs in, lists alerts, opens an alert raised by an ingested event that breaks a
 * policy, acknowledges and resolves it. Every page is checked with axe-core in both colour schemes.
 */
describe('the web console', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'vigil-console-build-'));
  let system: TestSystem;
  let browser: Browser;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });

  beforeAll(async () => {
    buildConsole(outDir);
    system = await startTestSystem({ bus: 'memory', env: { CONSOLE_DIR: outDir } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('is announced in the start-up banner and served with its security and caching headers', async () => {
    expect(system.banner.sections[0]).toContainEqual({ label: 'Console', value: expect.stringMatching(/^http:\/\/localhost:\d+\/$/), field: 'console_url' });
    const index = await fetch(`${system.gatewayUrl}/alerts/alt_from_a_link`, { headers: { accept: 'text/html' } });
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${system.gatewayUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Budget: the JavaScript a first visit loads (the entry script and the modules it preloads, which
    // it imports at once) stays within 250 kB gzipped.
    const initialFiles = [...html.matchAll(/<script[^>]*\bsrc="(\/assets\/[^"]+\.js)"|<link[^>]*rel="modulepreload"[^>]*\bhref="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? match[2]!);
    expect(initialFiles.length).toBeGreaterThan(1);
    const initialScripts = initialFiles.map((file) => readFileSync(join(outDir, file)));
    expect(initialScripts.reduce((total, file) => total + gzipSync(file).length, 0)).toBeLessThanOrEqual(250 * 1024);
    expect(readFileSync(join(outDir, 'index.html'), 'utf8')).toBe(html);
  });

  it("generates its client from the same document the gateway serves at /v1/openapi.json", async () => {
    const served = (await http(system.gatewayUrl, 'GET', '/v1/openapi.json')).body;
    expect(await gatewayOpenApiDocument()).toEqual(served);
  });

  it('signs in, lists alerts, opens an alert raised by a policy violation, acknowledges and resolves it; no serious accessibility finding on any page, light or dark', async () => {
    const db = `db_console_${Date.now()}`;
    const policy = await api('POST', '/v1/policies', {
      name: `console drops ${db}`, type: 'query_control', databases: [db], enabled: true,
      config: { rules: [{ name: 'drops', pattern: '\\bDROP\\s+TABLE\\b', action: 'alert', severity: 'critical', message: 'DROP TABLE seen' }] },
    });
    expect(policy.status).toBe(201);
    // The policy reaches event-ingest through the bus: ingest until the event is evaluated against it
    // (later events fold into the same alert).
    const alert = await waitFor(
      async () => {
        expect((await api('POST', '/v1/events/ingest', { events: [{ type: 'database.query', database_id: db, details: { user: 'eve', query: 'DROP TABLE users' } }] })).status).toBe(202);
        return waitFor(async () => (await api('GET', `/v1/alerts?database_id=${db}`)).body.data[0], 2_000, 'alert').catch(() => undefined);
      },
      30_000,
      'policy alert',
    );
    expect(alert).toMatchObject({ type: 'policy_violation', status: 'open', severity: 'critical' });

    const findings: Record<string, string[]> = {};
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      // The link an alert notification carries opens the sign-in page first, then the alert.
      await page.goto(`${system.gatewayUrl}/alerts/${alert.id}`);
      await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
      findings[`${colorScheme} sign-in`] = await accessibilityFindings(page);
      await page.getByLabel('E-mail').fill('admin@example.com');
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      findings[`${colorScheme} sign-in error`] = await accessibilityFindings(page);
      await page.getByLabel('Password').fill(system.adminPassword);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('heading', { name: alert.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/alerts/${alert.id}`);
      findings[`${colorScheme} alert`] = await accessibilityFindings(page);

      await page.getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('heading', { name: 'Open alerts' }).waitFor();
      // The chart of the last hour counts the event ingested above.
      await page.getByRole('img', { name: /^[1-9]\d* events in the last hour/ }).waitFor();
      findings[`${colorScheme} overview`] = await accessibilityFindings(page);

      await page.getByRole('link', { name: 'Alerts', exact: true }).click();
      await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
      await page.getByRole('link', { name: alert.title }).first().waitFor();
      findings[`${colorScheme} alerts`] = await accessibilityFindings(page);
      // A filter with no match shows the empty state, and lives in the address.
      await page.getByRole('group', { name: 'Severity' }).getByLabel('info').check();
      await page.getByText('No alert matches these filters.').waitFor();
      expect(new URL(page.url()).search).toBe('?severity=info');
      findings[`${colorScheme} alerts empty`] = await accessibilityFindings(page);
      await page.getByRole('group', { name: 'Severity' }).getByLabel('info').uncheck();

      if (colorScheme === 'light') {
        // Keyboard only: from the list to the alert, then acknowledge and resolve.
        const link = page.getByRole('link', { name: alert.title }).first();
        await link.focus();
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { name: alert.title }).waitFor();
        const acknowledge = page.getByRole('button', { name: 'Acknowledge' });
        await acknowledge.focus();
        await page.keyboard.press('Enter');
        await page.getByText('Alert acknowledged.').waitFor();
        await waitFor(async () => (await api('GET', `/v1/alerts/${alert.id}`)).body.status === 'acknowledged', 5_000, 'acknowledged');
        await page.getByRole('button', { name: 'Resolve' }).click();
        await page.getByText('Alert resolved.').waitFor();
        expect((await api('GET', `/v1/alerts/${alert.id}`)).body.status).toBe('resolved');
        await page.getByRole('button', { name: 'Resolve' }).waitFor({ state: 'detached' });
        findings[`${colorScheme} resolved alert`] = await accessibilityFindings(page);
      }

      // The refresh token is in an httpOnly cookie no script can read, sent only to the refresh path.
      const [refresh] = (await context.cookies()).filter((cookie) => cookie.name === 'vigil_refresh');
      expect(refresh).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/auth/refresh' });
      expect(String(await page.evaluate('document.cookie'))).not.toContain('vigil_refresh');
      // A reload stays signed in (through the cookie); an unknown alert then shows the API's problem.
      await page.goto(`${system.gatewayUrl}/alerts/alt_does_not_exist`);
      await page.getByRole('alert').filter({ hasText: /not found|no alert/i }).waitFor();
      findings[`${colorScheme} alert not found`] = await accessibilityFindings(page);
      // Sign-out revokes the session and clears the cookie: a reload then asks to sign in again.
      const loggedOut = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/auth/logout');
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect((await loggedOut).status()).toBe(200);
      await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
      expect((await context.cookies()).filter((cookie) => cookie.name === 'vigil_refresh')).toEqual([]);
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in to Vigil' }).waitFor();
      expect((await http(system.gatewayUrl, 'POST', '/v1/auth/refresh', { body: {}, headers: { 'X-Vigil-Refresh': 'cookie', cookie: `vigil_refresh=${refresh!.value}` } })).status).toBe(401);
      expect(blocked).toEqual([]);
      await context.close();
    }
    expect(Object.entries(findings).filter(([, list]) => list.length > 0)).toEqual([]);
  }, 240_000);

  it('shows a user only what their scopes allow: a reader of alerts sees no databases and no alert actions', async () => {
    expect((await api('POST', '/v1/users', { email: 'reader@example.com', password: 'reader-password-1', scopes: ['read:alerts'] })).status).toBe(201);
    const [event] = (await api('POST', '/v1/events/ingest', { events: [{ type: 'security.anomaly', database_id: `db_reader_${Date.now()}`, details: { user: 'mallory' } }] })).body.ids;
    const alert = await waitFor(async () => (await api('GET', '/v1/alerts?status=open&type=anomaly_detection')).body.data.find((a: { event_ids: string[] }) => a.event_ids.includes(event)), 15_000, 'anomaly alert');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}/`);
    await page.getByLabel('E-mail').fill('reader@example.com');
    await page.getByLabel('Password').fill('reader-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Open alerts' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Databases' }).count()).toBe(0);
    await page.goto(`${system.gatewayUrl}/alerts/${alert.id}`);
    await page.getByRole('heading', { name: alert.title }).waitFor();
    await page.getByText('Acknowledging and resolving alerts needs the write:alerts scope.').waitFor();
    expect(await page.getByRole('button', { name: /Acknowledge|Resolve/ }).count()).toBe(0);
    await context.close();
  }, 60_000);

  it('keeps two tabs signed in when both refresh at the same moment (the refresh cookie rotates once per tab, in turn)', async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await first.goto(`${system.gatewayUrl}/`);
    await first.getByLabel('E-mail').fill('admin@example.com');
    await first.getByLabel('Password').fill(system.adminPassword);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('navigation', { name: 'Console' }).waitFor();
    const second = await context.newPage();
    await second.goto(`${system.gatewayUrl}/`);
    await second.getByRole('navigation', { name: 'Console' }).waitFor();

    // Both tabs reload together and refresh on start. Every refresh is held for a second on its way
    // to the gateway: tabs that did not take turns would both send the cookie they started with,
    // and the second use of a rotated refresh token revokes the session (reuse detection).
    const sent: number[] = [];
    await context.route('**/v1/auth/refresh', async (route) => {
      sent.push(Date.now());
      await new Promise((done) => setTimeout(done, 1_000));
      await route.continue();
    });
    await Promise.all([first.reload(), second.reload()]);
    for (const page of [first, second]) await page.getByRole('navigation', { name: 'Console' }).waitFor({ timeout: 15_000 });
    expect(sent).toHaveLength(2);
    // One after the other: the second left only after the first had come back with its cookie.
    expect(Math.abs(sent[1]! - sent[0]!)).toBeGreaterThanOrEqual(1_000);
    await context.unroute('**/v1/auth/refresh');

    // The session is intact: each tab reloads signed in again, and its calls are answered.
    for (const page of [first, second]) {
      await page.reload();
      await page.getByRole('navigation', { name: 'Console' }).waitFor();
      await page.getByRole('heading', { name: 'Open alerts' }).waitFor();
    }
    await context.close();
  }, 60_000);
});
