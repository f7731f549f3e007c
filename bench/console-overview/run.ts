/**
 * The console's Overview against a large event store, in headless Chromium (Debian's,
 * /usr/bin/chromium or CHROMIUM_PATH), on this machine, traffic on 127.0.0.1 only.
 *
 * Loads BENCH_ROWS events (default 1,000,000) spread over BENCH_DAYS days (default 10, so the last
 * hour holds about 4,200 and the last day about 100,000) with bench/lib/load-events.ts, then runs
 * the whole system (in-process bus, INTEGRITY_LOG=false: the loaded events bypass ingest and are
 * not in the event log) serving the console built from the current sources. A browser context
 * signs in once; then BENCH_ROUNDS times (default 20) a fresh page opens `/` as a returning user
 * does: the page loads, resumes the session from the refresh cookie and reads the Overview.
 *
 * Figures (p50 / p95 / max over the rounds, from the navigation's start, measured in the page):
 *   - first contentful paint (the browser's `paint` entry: the "Loading your session" text);
 *   - Overview complete: the first frame in which the chart's summary, the most violated policies,
 *     the open alerts and the databases are all drawn with data (no section still loading) — the
 *     first meaningful paint, target < 1 s;
 *   - baseline from the same run: "Page not found" drawn at /no-such-page (the same start, the same
 *     session resume, no data read), and the Overview's extra time over it.
 * Where the Overview's time goes, from the page's resource timing: index.html received, scripts
 * loaded, the session refresh sent and answered, the first data call sent and the last answered.
 * And the API calls behind the Overview (the session refresh among them), timed over HTTP (p50 / p95
 * of BENCH_ROUNDS each).
 *
 * BENCH_KEEP=1 keeps the loaded database (and its data folder); BENCH_DATABASE_URL=<it> measures it
 * again without loading.
 *
 * Run: npm run bench:console-overview
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http, login } from '../../apps/standalone/src/testing/http';
import { eventIngestMigrations } from '../../apps/event-ingest/src/database/migrations';
import { createServiceDataSource, runMigrations } from '../../libs/platform/database/src';
import { createTestDatabase, freePort } from '../../libs/platform/testing/src';
import { benchDataDir, benchKeep, benchReuseUrl } from '../lib/keep';
import { loadSyntheticEvents } from '../lib/load-events';
import { formatLoadAverage, percentile } from '../lib/stats';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const ROOT = resolve(__dirname, '../..');

/** Times in one page, from the navigation's start (ms); NaN where the page made no such request. */
interface Marks {
  fcp: number;
  done: number;
  /** index.html received; the console's scripts loaded (from the browser's cache for a returning user). */
  html: number;
  script: number;
  /** POST /v1/auth/refresh sent and answered (the session resume). */
  refreshStart: number;
  refreshEnd: number;
  /** The first data call sent, the last one answered, and how many there were. */
  dataStart: number;
  dataEnd: number;
  calls: number;
}

// Runs in the page before the console (a string: this file is compiled without the DOM's types).
// Records the first frame in which the Overview shows every section with data, or the not-found page.
const OBSERVE = `(() => {
  window.__marks = {};
  const ready = () => {
    const loading = [...document.querySelectorAll('[role=status]')].some((el) => /^Loading/.test(el.textContent || ''));
    if (loading) return;
    if (!window.__marks.overview && document.querySelector('#event-rate-summary') && document.querySelector('#most-violated') && document.querySelector('#open-alerts') && document.querySelector('#databases'))
      window.__marks.overview = performance.now();
    if (!window.__marks.notFound && [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Page not found')) window.__marks.notFound = performance.now();
  };
  new MutationObserver(() => requestAnimationFrame(ready)).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

async function main() {
  const consoleDir = mkdtempSync(join(tmpdir(), 'vigil-bench-console-'));
  const built = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/console/vite.config.ts', '--outDir', consoleDir, '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`);

  const reuse = benchReuseUrl();
  const db = reuse ? { url: reuse, drop: async () => undefined } : await createTestDatabase();
  if (!reuse) {
    const dataSource = createServiceDataSource({ url: db.url, schema: 'event_ingest', migrations: eventIngestMigrations, poolSize: 2, applicationName: 'bench' });
    await dataSource.initialize();
    await runMigrations(dataSource, 'event_ingest');
    process.stdout.write(`loading ${ROWS.toLocaleString('en-US')} events over ${DAYS} days ...\n`);
    const loadStart = performance.now();
    await loadSyntheticEvents(dataSource, { rows: ROWS, days: DAYS });
    await dataSource.destroy();
    const seconds = (performance.now() - loadStart) / 1000;
    process.stdout.write(`loaded in ${seconds.toFixed(0)} s (${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s)\n`);
    if (benchKeep()) process.stdout.write(`kept for BENCH_DATABASE_URL: ${db.url}\n`);
  }

  const keep = benchKeep();
  const dataDir = benchDataDir(db.url, keep);
  const env: Record<string, string> = {
    LOG_LEVEL: 'error', VIGIL_DATA_DIR: dataDir.dir, DATABASE_URL: db.url, AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: 'bench-password',
    PORT: String(await freePort()), METRICS_PORT: '0', CONSOLE_DIR: consoleDir, INTEGRITY_LOG: 'false',
    // Every page load resumes the session (POST /v1/auth/refresh, limited to 60 a minute per address
    // by default), and the refresh is also timed alone below.
    RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  const system = await startSystem(env);
  const token = await login(system.gatewayUrl, 'admin@example.com', 'bench-password');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(OBSERVE);
    const signIn = await context.newPage();
    await signIn.goto(`${system.gatewayUrl}/`);
    await signIn.getByLabel('E-mail').fill('admin@example.com');
    await signIn.getByLabel('Password').fill('bench-password');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.getByRole('heading', { name: 'Most violated policies' }).waitFor();
    await signIn.close();

    const open = async (path: string, mark: 'overview' | 'notFound'): Promise<Marks> => {
      const page: Page = await context.newPage();
      await page.goto(`${system.gatewayUrl}${path}`);
      // Polled with evaluate (the page's Content-Security-Policy refuses waitForFunction's eval);
      // the time itself was taken in the page.
      const deadline = Date.now() + 30_000;
      while (!(await page.evaluate<boolean>(`Boolean(window.__marks && window.__marks.${mark})`))) {
        if (Date.now() > deadline) throw new Error(`${path}: not drawn within 30 s`);
        await new Promise((done) => setTimeout(done, 25));
      }
      const marks = await page.evaluate<Marks>(`(() => {
        const nav = performance.getEntriesByType('navigation')[0] || {};
        const resources = performance.getEntriesByType('resource');
        const scripts = resources.filter((r) => /\\/assets\\/.*\\.js$/.test(r.name));
        const refresh = resources.find((r) => r.name.endsWith('/v1/auth/refresh')) || {};
        const data = resources.filter((r) => /\\/v1\\//.test(r.name) && !r.name.endsWith('/v1/auth/refresh'));
        return {
          fcp: (performance.getEntriesByName('first-contentful-paint')[0] || { startTime: NaN }).startTime,
          done: window.__marks.${mark},
          html: nav.responseEnd ?? NaN,
          script: scripts.length ? Math.max(...scripts.map((r) => r.responseEnd)) : NaN,
          refreshStart: refresh.startTime ?? NaN,
          refreshEnd: refresh.responseEnd ?? NaN,
          dataStart: data.length ? Math.min(...data.map((r) => r.startTime)) : NaN,
          dataEnd: data.length ? Math.max(...data.map((r) => r.responseEnd)) : NaN,
          calls: data.length,
        };
      })()`);
      await page.close();
      return marks;
    };
    for (let i = 0; i < 3; i++) await open('/', 'overview'); // warm-up: caches, JIT, connection pools
    const overview: Marks[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      overview.push(await open('/', 'overview'));
      baseline.push((await open('/no-such-page', 'notFound')).done);
    }

    // The Overview's API calls on their own, over HTTP.
    const hourStart = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 - 59 * 60_000).toISOString();
    const dayStart = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 23 * 3_600_000).toISOString();
    // The session resume's call on its own: a refresh token rotated at each call, as the console's is.
    let refreshToken: string = (await http(system.gatewayUrl, 'POST', '/v1/auth/login', { body: { email: 'admin@example.com', password: 'bench-password' } })).body.refresh_token;
    const refresh = async () => {
      const answer = await http(system.gatewayUrl, 'POST', '/v1/auth/refresh', { body: { refresh_token: refreshToken } });
      refreshToken = answer.body.refresh_token;
      return answer;
    };
    const calls: [string, () => Promise<{ status: number }>][] = [
      ['session refresh (POST /v1/auth/refresh)', refresh],
      ['aggregate, last hour by minute', () => http(system.gatewayUrl, 'POST', '/v1/events/aggregate', { token, body: { metrics: ['count'], filters: { time_range: { start: hourStart() } }, group_by: ['severity', 'minute'], limit: 1000 } })],
      ['aggregate, last day by hour', () => http(system.gatewayUrl, 'POST', '/v1/events/aggregate', { token, body: { metrics: ['count'], filters: { time_range: { start: dayStart() } }, group_by: ['severity', 'hour'], limit: 1000 } })],
      ['most violated policies', () => http(system.gatewayUrl, 'GET', '/v1/policies?sort=violation_count&per_page=5', { token })],
      ['open alerts by severity (counts)', () => http(system.gatewayUrl, 'GET', '/v1/alerts/counts?status=open', { token })],
      ['databases (100)', () => http(system.gatewayUrl, 'GET', '/v1/databases?page=1&per_page=100', { token })],
      ['HTTP floor: GET /health/live', () => http(system.gatewayUrl, 'GET', '/health/live')],
    ];
    const lines: string[] = [];
    for (const [label, call] of calls) {
      for (let i = 0; i < 3; i++) await call();
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const t = performance.now();
        const { status } = await call();
        times.push(performance.now() - t);
        if (status !== 200) throw new Error(`${label}: status ${status}`);
      }
      times.sort((a, b) => a - b);
      lines.push(`  ${label.padEnd(40)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms`);
    }

    const stats = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 50).toFixed(0).padStart(5)} ms  p95 ${percentile(sorted, 95).toFixed(0).padStart(5)} ms  max ${sorted[sorted.length - 1]!.toFixed(0).padStart(5)} ms`;
    };
    const extra = overview.map((o, i) => o.done - baseline[i]!);
    const p95 = percentile([...overview.map((o) => o.done)].sort((a, b) => a - b), 95);
    process.stdout.write(
      `Overview against ${ROWS.toLocaleString('en-US')} stored events over ${DAYS} days, ${ROUNDS} rounds, load ${formatLoadAverage()}\n` +
        `  first contentful paint           ${stats(overview.map((o) => o.fcp))}\n` +
        `  Overview complete (FMP)          ${stats(overview.map((o) => o.done))}   target < 1000 ms: ${p95 < 1000 ? 'met' : 'NOT met'} at p95\n` +
        `  baseline: "Page not found" drawn ${stats(baseline)}\n` +
        `  Overview minus baseline          ${stats(extra)}\n` +
        `Where the Overview's time goes (p50 / p95 / max, from the navigation's start; ${overview[0]?.calls ?? 0} data calls):\n` +
        `  index.html received              ${stats(overview.map((o) => o.html))}\n` +
        `  scripts loaded                   ${stats(overview.map((o) => o.script))}\n` +
        `  session refresh sent             ${stats(overview.map((o) => o.refreshStart))}\n` +
        `  session refresh answered         ${stats(overview.map((o) => o.refreshEnd))}\n` +
        `  first data call sent             ${stats(overview.map((o) => o.dataStart))}\n` +
        `  last data call answered          ${stats(overview.map((o) => o.dataEnd))}\n` +
        `  drawn after the last answer      ${stats(overview.map((o) => o.done - o.dataEnd))}\n` +
        `API calls behind it (HTTP, ${ROUNDS} each):\n${lines.join('\n')}\n`,
    );
  } finally {
    await browser.close();
    await system.stop();
    if (!keep) await db.drop();
    dataDir.done();
    rmSync(consoleDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
