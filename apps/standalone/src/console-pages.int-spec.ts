import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const ROOT = resolve(__dirname, '../../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function buildConsole(outDir: string): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/console/vite.config.ts', '--outDir', outDir, '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
}

async function accessibilityFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}

/**
 * The console's working pages end to end, in a real browser against a real standalone system: a
 * blocking query policy made with the form, its violation seen live and on the policy, the alert
 * acknowledged and resolved, a webhook delivering to a local receiver and redelivered, a report
 * generated and downloaded, and a reader of logs kept away from policy editing. Every page is
 * checked with axe-core in the light and the dark scheme.
 */
describe('the web console pages', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'vigil-console-pages-'));
  let system: TestSystem;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
  const db = `db_pages_${Date.now()}`;
  const findings: Record<string, string[]> = {};

  async function signIn(context: BrowserContext, path: string, email: string, password: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${system.gatewayUrl}${path}`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    return page;
  }
  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

  beforeAll(async () => {
    buildConsole(outDir);
    receiver = await startWebhookReceiver();
    system = await startTestSystem({ bus: 'memory', env: { CONSOLE_DIR: outDir, DELIVERY_ALLOW_INSECURE_TARGETS: 'true' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await receiver?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it('creates a blocking policy with the form, sees its violation live and on the policy, handles the alert, delivers a webhook and a report', async () => {
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    const page = await signIn(context, '/', 'admin@example.com', system.adminPassword);

    // A blocking query policy, made with the form; the pattern tester runs RE2 in the browser.
    await nav(page, 'Policies');
    await page.getByRole('heading', { name: 'Policies', exact: true }).waitFor();
    findings['policies empty'] = await accessibilityFindings(page);
    await page.getByRole('link', { name: 'New policy' }).click();
    await page.getByRole('heading', { name: 'New policy' }).waitFor();
    // Saving an empty form marks the fields it needs.
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.locator('#policy-name[aria-invalid="true"]').waitFor();
    findings['policy form errors'] = await accessibilityFindings(page);
    await page.getByLabel('Name', { exact: true }).fill(`block drops on ${db}`);
    await page.getByLabel('Databases').fill(db);
    await page.getByLabel('Rule name').fill('drops');
    await page.getByLabel('Pattern', { exact: true }).fill('\\bDROP\\s+TABLE\\b');
    await page.getByLabel('Try the pattern on a query').fill('drop   table users');
    await page.getByText('Matches the sample.').waitFor();
    await page.locator('#rule-0-action').selectOption('block');
    await page.locator('#rule-0-severity').selectOption('critical');
    // Blocking raises no alert by itself: a second rule alerts on the same statements.
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.locator('#rule-1-name').fill('alert on drops');
    await page.locator('#rule-1-pattern').fill('\\bDROP\\s+TABLE\\b');
    await page.locator('#rule-1-severity').selectOption('critical');
    // A pattern RE2 cannot run: the tester says so, and the API's field error marks the field.
    await page.locator('#rule-1-pattern').fill('(?<=DROP)\\s+TABLE');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.locator('#rule-1-pattern[aria-invalid="true"]').waitFor();
    expect(await page.locator('#rule-0-pattern').getAttribute('aria-invalid')).toBeNull();
    await page.locator('#rule-1-pattern').fill('\\bDROP\\s+TABLE\\b');
    await page.getByRole('button', { name: 'Create policy' }).click();
    await page.getByRole('heading', { name: `block drops on ${db}` }).waitFor();
    const policyId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
    expect((await api('GET', `/v1/policies/${policyId}`)).body).toMatchObject({ type: 'query_control', databases: [db], config: { rules: [{ name: 'drops', action: 'block', severity: 'critical' }, { name: 'alert on drops', action: 'alert', severity: 'critical' }] } });
    // The simulator explains the decision.
    await page.getByLabel('Query').fill('DROP TABLE accounts');
    await page.getByRole('button', { name: 'Test the policy' }).click();
    await page.getByText('The policy would trigger.').waitFor();
    findings['policy'] = await accessibilityFindings(page);

    // The policy reaches event-ingest through the bus: ingest until it is enforced.
    await waitFor(
      async () => {
        await api('POST', '/v1/events/ingest', { events: [{ type: 'database.query', database_id: db, details: { user: 'warmup', query: 'DROP TABLE warmup' } }] });
        return waitFor(async () => (await api('GET', `/v1/alerts?database_id=${db}`)).body.data[0], 2_000, 'alert').catch(() => undefined);
      },
      30_000,
      'policy enforced',
    );

    // Live: a matching record ingested through the API shows within 2 s.
    await nav(page, 'Live');
    await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
    const query = `DROP TABLE live_${Date.now()}`;
    const sentAt = Date.now();
    expect((await api('POST', '/v1/events/ingest', { events: [{ type: 'database.query', database_id: db, details: { user: 'eve', query } }] })).status).toBe(202);
    await page.getByRole('region', { name: 'Events, newest first' }).getByText(query).first().waitFor({ timeout: 2_000 });
    expect(Date.now() - sentAt).toBeLessThan(2_000);
    findings['live'] = await accessibilityFindings(page);
    // Pausing and resuming loses nothing: an event ingested while paused arrives after resuming.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('status').filter({ hasText: /^Paused$/ }).waitFor();
    const pausedQuery = `DROP TABLE paused_${Date.now()}`;
    await api('POST', '/v1/events/ingest', { events: [{ type: 'database.query', database_id: db, details: { user: 'eve', query: pausedQuery } }] });
    await new Promise((done) => setTimeout(done, 500));
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('region', { name: 'Events, newest first' }).getByText(pausedQuery).first().waitFor({ timeout: 5_000 });

    // Events: filtered by database, with the detail panel.
    await nav(page, 'Events');
    await page.getByLabel('Database').fill(db);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'policy.violation' }).first().click();
    const panel = page.getByRole('complementary', { name: 'Event details' });
    await panel.getByText('Related events').waitFor();
    findings['events'] = await accessibilityFindings(page);
    // Its inclusion in the signed event log, verified in the browser (WebCrypto SHA-256 and
    // Ed25519). A checkpoint is signed within seconds: until then the page says the event is newer.
    const verified = panel.getByTestId('inclusion-verified');
    const failed = panel.getByTestId('inclusion-failed');
    const outcome = await waitFor(
      async () => {
        await verified.or(failed).or(panel.getByText('newer than the latest signed checkpoint')).first().waitFor({ timeout: 10_000 });
        if (await verified.count()) return (await verified.textContent()) ?? '';
        if (await failed.count()) return `failed: ${await failed.textContent()}`;
        await new Promise((done) => setTimeout(done, 1_000));
        await panel.getByRole('button', { name: 'Check again' }).click();
        return undefined;
      },
      40_000,
      'the inclusion check',
    );
    expect(outcome).toMatch(/^✓ Verified in this browser against checkpoint \d+ signed by key \S+ \(leaf \d+, root [0-9a-f]{16}…\)\.$/);
    // The same event served altered (a detail changed on its way to the browser) fails the check.
    const eventId = (await panel.locator('dd code').first().textContent())!;
    await page.route(`**/v1/events/${eventId}`, async (route) => {
      const response = await route.fetch();
      const event = await response.json();
      await route.fulfill({ response, json: { ...event, details: { ...event.details, user: 'someone else' } } });
    });
    await page.goto(`${system.gatewayUrl}/events/${eventId}`);
    await page.getByTestId('inclusion-failed').getByText(/Not verified \(leaf mismatch\): the event as served hashes to [0-9a-f]{64}, but the log holds [0-9a-f]{64}/).waitFor({ timeout: 20_000 });
    await page.unroute(`**/v1/events/${eventId}`);
    await nav(page, 'Events');

    // The violation on the policy's page.
    await nav(page, 'Policies');
    await page.getByRole('link', { name: `block drops on ${db}` }).click();
    await page.getByRole('table').filter({ hasText: 'Violations, newest first' }).getByText(query).waitFor({ timeout: 10_000 });

    // Overview: the most violated policies, and the last 24 hours by hour beside the last hour.
    await nav(page, 'Overview');
    await page.getByRole('region', { name: 'Most violated policies' }).getByRole('link', { name: `block drops on ${db}` }).waitFor();
    await page.getByRole('button', { name: 'Last 24 hours' }).click();
    await page.getByRole('heading', { name: 'Events per minute, last 24 hours' }).waitFor();
    expect(await page.getByRole('button', { name: 'Last 24 hours' }).getAttribute('aria-pressed')).toBe('true');
    const daySummary = await page.locator('#event-rate-summary').textContent();
    expect(daySummary).toMatch(/^\d+ events in the last 24 hours: \d+ critical, \d+ warning, \d+ info; at most [\d.]+ per minute \(hourly average\)\.$/);
    expect(Number(daySummary!.split(' ')[0])).toBeGreaterThan(0);
    findings['overview day'] = await accessibilityFindings(page);

    // The alert: open it from its link, acknowledge, escalate, resolve.
    const alert = (await api('GET', `/v1/alerts?database_id=${db}`)).body.data[0];
    await nav(page, 'Alerts');
    await page.getByRole('link', { name: alert.title }).first().click();
    await page.getByRole('heading', { name: alert.title }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/alerts/${alert.id}`);
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('Alert acknowledged.').waitFor();
    findings['alert'] = await accessibilityFindings(page);
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('Alert resolved.').waitFor();
    expect((await api('GET', `/v1/alerts/${alert.id}`)).body.status).toBe('resolved');

    // A webhook to a local receiver: created (secret shown once), delivered to, redelivered.
    await nav(page, 'Webhooks');
    await page.getByText('No webhook subscriptions yet.').waitFor();
    await page.getByLabel('URL').fill(`${receiver.url}/console-hook`);
    await page.getByLabel('Event types').fill('policy.violation');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Signing secret of the new webhook, shown only now').waitFor();
    findings['webhooks'] = await accessibilityFindings(page);
    await page.getByRole('link', { name: `${receiver.url}/console-hook` }).click();
    await page.getByRole('heading', { name: `Webhook ${receiver.url}/console-hook` }).waitFor();
    await api('POST', '/v1/events/ingest', { events: [{ type: 'database.query', database_id: db, details: { user: 'eve', query: 'DROP TABLE hooked' } }] });
    await waitFor(() => receiver.on('/console-hook').length >= 1, 15_000, 'webhook delivery');
    await waitFor(
      async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        return (await page.getByRole('cell', { name: 'HTTP 200' }).count()) > 0;
      },
      10_000,
      'delivery shown',
    );
    findings['webhook'] = await accessibilityFindings(page);
    await page.getByRole('button', { name: 'Redeliver' }).first().click();
    await page.getByText('Redelivery queued.').waitFor();
    await waitFor(() => receiver.on('/console-hook').length >= 2, 15_000, 'redelivery');

    // A report: generated with its progress, then downloaded.
    await nav(page, 'Reports');
    await page.getByRole('button', { name: 'Generate report' }).click();
    await page.getByText('Report requested.').waitFor();
    const downloadButton = page.getByRole('button', { name: 'Download CSV' }).first();
    await downloadButton.waitFor({ timeout: 30_000 });
    findings['reports'] = await accessibilityFindings(page);
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    expect(readFileSync((await download.path())!, 'utf8').length).toBeGreaterThan(0);

    // Access: an API key, its value shown once.
    const member = (await api('POST', '/v1/users', { email: 'member@example.com', password: 'member-password-1', scopes: ['read:logs'] })).body;
    await nav(page, 'Access');
    await page.getByLabel('Name', { exact: true }).fill('console key');
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByText('The new API key, shown only now').waitFor();
    const key = await page.locator('.secret-value').textContent();
    expect((await http(system.gatewayUrl, 'GET', '/v1/events?limit=1', { token: key!.trim() })).status).toBe(200);
    await page.getByRole('cell', { name: 'console key', exact: true }).waitFor();
    // Access: disabling a user (confirmed) keeps them from signing in.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Disable member@example.com' }).click();
    await page.getByText('member@example.com disabled.').waitFor();
    await page.getByRole('button', { name: 'Enable member@example.com' }).waitFor();
    expect((await api('GET', `/v1/users/${member.id}`)).body.disabled_at).toEqual(expect.any(String));
    expect((await http(system.gatewayUrl, 'POST', '/v1/auth/login', { body: { email: 'member@example.com', password: 'member-password-1' } })).status).toBe(401);
    findings['access after disabling'] = await accessibilityFindings(page);
    await context.close();
  }, 420_000);

  it('keeps a reader of logs away from policy editing', async () => {
    expect((await api('POST', '/v1/users', { email: 'logs@example.com', password: 'logs-reader-password', scopes: ['read:logs'] })).status).toBe(201);
    const context = await browser.newContext();
    const page = await signIn(context, '/', 'logs@example.com', 'logs-reader-password');
    const links = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Overview', 'Live', 'Events']);
    await context.close();
    // Reaching the editor by its address shows that it needs a scope the user does not have.
    const direct = await signIn(await browser.newContext(), '/policies/new', 'logs@example.com', 'logs-reader-password');
    await direct.getByRole('heading', { name: 'Not available' }).waitFor();
    expect(await direct.getByRole('button', { name: 'Create policy' }).count()).toBe(0);
    await direct.context().close();
  }, 60_000);

  it('has no serious accessibility finding on any page, light or dark, 390 px wide', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 390, height: 844 } });
      const page = await signIn(context, '/', 'admin@example.com', system.adminPassword);
      for (const [link, heading] of [
        ['Overview', 'Overview'],
        ['Live', 'Live'],
        ['Events', 'Events'],
        ['Alerts', 'Alerts'],
        ['Policies', 'Policies'],
        ['Webhooks', 'Webhooks'],
        ['Destinations', 'Alert destinations'],
        ['Databases', 'Databases'],
        ['Reports', 'Reports'],
        ['Access', 'Access'],
      ] as const) {
        await nav(page, link);
        await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor({ timeout: 15_000 });
        await page.getByRole('status').filter({ hasText: /^Loading/ }).waitFor({ state: 'detached' }).catch(() => undefined);
        findings[`${colorScheme} ${link}`] = await accessibilityFindings(page);
      }
      await nav(page, 'Policies');
      await page.getByRole('link', { name: 'New policy' }).click();
      for (const type of ['query_control', 'access_control', 'data_protection', 'alerting']) {
        await page.getByLabel('Type', { exact: true }).selectOption(type);
        findings[`${colorScheme} new ${type}`] = await accessibilityFindings(page);
      }
      await context.close();
    }
    expect(Object.entries(findings).filter(([, list]) => list.length > 0)).toEqual([]);
  }, 700_000);
});
