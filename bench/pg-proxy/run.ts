/**
 * pgbench directly against PostgreSQL and through the Vigil proxy, in the same run, with auditing
 * (every statement captured) and 20 enabled policies of the database (10 query_control with 3
 * rules each, 5 access_control, 5 data_protection). Issue 10 targets: through-proxy throughput >= 60 %
 * of direct; added p50 latency <= 0.3 ms (PgBouncer adds about 0.16 ms).
 *
 *   node -r @swc-node/register bench/pg-proxy/run.ts       (npm run bench:pg-proxy)
 *
 * Latency: one client, select-only, per-transaction latencies from pgbench's log, p50 and p99 of
 * each side; the difference of the p50s is what the proxy adds. Throughput: 8 clients on 2 threads,
 * select-only and the TPC-B-like script. PGBENCH_SECONDS (default 10) sets each run's length.
 * Everything runs on 127.0.0.1 on this machine, so the proxy, pgbench and PostgreSQL share its cores.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '@vigil/testing';

const run = promisify(execFile);
const seconds = Number(process.env.PGBENCH_SECONDS ?? 10);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function pgbench(url: string, args: string[]): Promise<{ tps: number; latencies?: number[] }> {
  const logDir = mkdtempSync(join(tmpdir(), 'pgbench-log-'));
  const { stdout } = await run('pgbench', [...args, '-n', '-T', String(seconds), '-l', '--log-prefix', join(logDir, 'tx'), url], { maxBuffer: 1 << 24 });
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)![1]);
  const latencies: number[] = [];
  for (const file of readdirSync(logDir)) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const parts = line.split(' ');
      if (parts.length > 3) latencies.push(Number(parts[2]) / 1000);
    }
  }
  rmSync(logDir, { recursive: true, force: true });
  return { tps, latencies: latencies.sort((a, b) => a - b) };
}

async function main() {
  const db = await createTestDatabase();
  const proxyProcess = spawn(process.execPath, ['-r', '@swc-node/register', resolve(__dirname, 'proxy-process.ts'), db.url, db.name], { stdio: ['ignore', 'pipe', 'inherit'], cwd: resolve(__dirname, '../..') });
  let out = '';
  proxyProcess.stdout.on('data', (d) => (out += d));
  const started = Date.now();
  while (!/LISTENING (\d+) (\d+)/.test(out)) {
    if (Date.now() - started > 60_000) throw new Error(`proxy did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const [, port, enabled] = /LISTENING (\d+) (\d+)/.exec(out)!;
  const direct = db.url;
  const proxied = (() => {
    const u = new URL(db.url);
    u.host = `127.0.0.1:${port}`;
    return u.toString();
  })();
  try {
    await run('pgbench', ['-i', '-s', '10', '-q', direct]);
    // Warm both paths (caches, JIT).
    await run('pgbench', ['-S', '-n', '-T', '2', '-c', '4', direct]);
    await run('pgbench', ['-S', '-n', '-T', '2', '-c', '4', proxied]);

    const lines: string[] = [];
    const say = (line: string) => {
      lines.push(line);
      process.stdout.write(`${line}\n`);
    };
    say(`pg-proxy benchmark: pgbench scale 10, ${seconds} s per run, ${enabled} enabled policies, every statement captured; load average ${loadavg()[0]!.toFixed(2)}`);

    const d1 = await pgbench(direct, ['-S', '-c', '1']);
    const p1 = await pgbench(proxied, ['-S', '-c', '1']);
    const dp50 = percentile(d1.latencies!, 50);
    const pp50 = percentile(p1.latencies!, 50);
    say(`latency, select-only, 1 client: direct p50 ${dp50.toFixed(3)} ms p99 ${percentile(d1.latencies!, 99).toFixed(3)} ms; proxy p50 ${pp50.toFixed(3)} ms p99 ${percentile(p1.latencies!, 99).toFixed(3)} ms; added p50 ${(pp50 - dp50).toFixed(3)} ms (target <= 0.3 ms)`);

    for (const [label, args] of [
      ['select-only', ['-S', '-c', '8', '-j', '2']],
      ['TPC-B-like', ['-c', '8', '-j', '2']],
    ] as const) {
      const d = await pgbench(direct, [...args]);
      const p = await pgbench(proxied, [...args]);
      say(`throughput, ${label}, 8 clients: direct ${d.tps.toFixed(0)} tps, proxy ${p.tps.toFixed(0)} tps, ratio ${((100 * p.tps) / d.tps).toFixed(1)} % (target >= 60 %)`);
    }
  } finally {
    proxyProcess.kill('SIGTERM');
    await new Promise((r) => proxyProcess.on('exit', r));
    const captured = /CAPTURED (\d+) DROPPED (\d+)/.exec(out);
    if (captured) process.stdout.write(`captured records: ${captured[1]}, dropped: ${captured[2]}\n`);
    await db.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
