/**
 * The console's Live page under load, in headless Chromium (Debian's, /usr/bin/chromium or
 * CHROMIUM_PATH), on this machine, traffic on 127.0.0.1 only.
 *
 * The whole system (in-process bus) on a fresh database serves the console built from the current
 * sources. The browser signs in and opens Live; events are ingested over HTTP at BENCH_RATE/s
 * (default 1000, in batches of 50 every 50 ms) for BENCH_SECONDS (default 60). Figures: events
 * received by the page against events accepted (no gap: equal; no duplicate: the page's duplicate
 * count is 0), the main thread's frame intervals (requestAnimationFrame, p50/p95/max) and its long
 * tasks (PerformanceObserver `longtask`: count, p95, max) during the run.
 *
 * Run: npm run bench:console-live
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startSystem } from '../../apps/standalone/src/standalone';
import { http, login } from '../../apps/standalone/src/testing/http';
import { createTestDatabase, freePort } from '../../libs/platform/testing/src';
import { formatLoadAverage, percentile } from '../lib/stats';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BATCH = 50;
const ROOT = resolve(__dirname, '../..');

async function main() {
  const consoleDir = mkdtempSync(join(tmpdir(), 'vigil-bench-console-'));
  const built = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/console/vite.config.ts', '--outDir', consoleDir, '--logLevel', 'warn'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`);
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  const env: Record<string, string> = {
    LOG_LEVEL: 'error', VIGIL_DATA_DIR: dataDir, DATABASE_URL: db.url, AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: 'bench-password',
    PORT: String(await freePort()), OUTBOX_POLL_MS: '50', CONSOLE_DIR: consoleDir,
    // 1,000 events/s in batches of 50 is 1,200 calls a minute, past the default per-credential limit.
    RATE_LIMIT_DEFAULT_PER_MINUTE: '100000',
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  const system = await startSystem(env);
  const token = await login(system.gatewayUrl, 'admin@example.com', 'bench-password');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${system.gatewayUrl}/live`);
    await page.getByLabel('E-mail').fill('admin@example.com');
    await page.getByLabel('Password').fill('bench-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor();
    // In the page (a string: this file is compiled without the DOM's types).
    await page.evaluate(`(() => {
      window.__frames = [];
      window.__longTasks = [];
      let last = performance.now();
      const tick = (now) => { window.__frames.push(now - last); last = now; requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => window.__longTasks.push(entry.duration))).observe({ type: 'longtask', buffered: false });
    })()`);

    let accepted = 0;
    const started = Date.now();
    let tick = 0;
    const inFlight = new Set<Promise<void>>();
    while (Date.now() - started < SECONDS * 1000) {
      const due = started + tick * (BATCH / RATE) * 1000;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      tick++;
      if (inFlight.size >= 4) await Promise.race(inFlight);
      const call = http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
        token,
        body: { events: Array.from({ length: BATCH }, (_, i) => ({ type: 'database.query', database_id: 'db_live_bench', details: { user: 'bench', query: `SELECT ${tick * BATCH + i}` } })) },
      }).then((response) => {
        if (response.status !== 202) throw new Error(`ingest: ${response.status}`);
        accepted += BATCH;
      });
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
    await Promise.all(inFlight);
    const elapsed = (Date.now() - started) / 1000;
    const count = page.getByTestId('live-count');
    const deadline = Date.now() + 30_000;
    while (Number(await count.getAttribute('data-received')) < accepted && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
    const received = Number(await count.getAttribute('data-received'));
    const duplicates = Number(await count.getAttribute('data-duplicates'));
    const { frames, longTasks } = await page.evaluate<{ frames: number[]; longTasks: number[] }>('({ frames: window.__frames.slice(1), longTasks: window.__longTasks })');
    frames.sort((a, b) => a - b);
    longTasks.sort((a, b) => a - b);
    const f = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(1));
    process.stdout.write(
      `Live page, ${RATE} events/s for ${SECONDS} s (achieved ${(accepted / elapsed).toFixed(0)}/s), load ${formatLoadAverage()}\n` +
        `  events accepted ${accepted}, received by the page ${received} (${received === accepted ? 'no gap' : `${accepted - received} missing`}), duplicates ${duplicates}\n` +
        `  frame interval  : p50 ${f(percentile(frames, 50))} ms  p95 ${f(percentile(frames, 95))} ms  max ${f(frames[frames.length - 1] ?? NaN)} ms (${frames.length} frames)\n` +
        `  long tasks      : ${longTasks.length}, p95 ${f(percentile(longTasks, 95))} ms, max ${f(longTasks[longTasks.length - 1] ?? NaN)} ms\n`,
    );
  } finally {
    await browser.close();
    await system.stop();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(consoleDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
