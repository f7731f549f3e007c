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
 *
 * Baseline, in the same run: a minimal pass-through relay (relay-process.ts: a Node process that
 * writes each chunk read on one socket to the other). Its ratio to direct is what any relay in
 * Node costs here; the proxy's ratio to it is Vigil's own work. For both, the CPU time their
 * process spent per transaction (from /proc) is printed: it varies much less with the machine's
 * load than transactions per second do.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '@vigil/testing';
import { cpuSeconds } from '../lib/proc';

const run = promisify(execFile);
const seconds = Number(process.env.PGBENCH_SECONDS ?? 10);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** CPU seconds (user + system) a process has used so far, or NaN where /proc is not available. */

async function startProcess(script: string, args: string[]): Promise<{ child: ReturnType<typeof spawn>; output: () => string; listening: RegExpExecArray }> {
  // The node flags of the service images (apps/*/Dockerfile).
  const child = spawn(process.execPath, ['--max-semi-space-size=32', '-r', '@swc-node/register', resolve(__dirname, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'], cwd: resolve(__dirname, '../..') });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const started = Date.now();
  while (!/LISTENING (\d+)/.test(out)) {
    if (Date.now() - started > 60_000) throw new Error(`${script} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, listening: /LISTENING (\d+)(?: (\d+))?/.exec(out)! };
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
  const proxy = await startProcess('proxy-process.ts', [db.url, db.name]);
  const relay = await startProcess('relay-process.ts', [db.url]);
  const enabled = proxy.listening[2];
  const via = (port: string) => {
    const u = new URL(db.url);
    u.host = `127.0.0.1:${port}`;
    return u.toString();
  };
  const direct = db.url;
  const proxied = via(proxy.listening[1]!);
  const relayed = via(relay.listening[1]!);
  try {
    await run('pgbench', ['-i', '-s', '10', '-q', direct]);
    // Warm every path (caches, JIT).
    for (const url of [direct, relayed, proxied]) await run('pgbench', ['-S', '-n', '-T', '2', '-c', '4', url]);

    const say = (line: string) => process.stdout.write(`${line}\n`);
    const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
    say(`pg-proxy benchmark: pgbench scale 10, ${seconds} s per run, ${enabled} enabled policies, every statement captured; load average (1/5/15 min) at start ${load()}`);
    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
    /** One pgbench run through a process, with the CPU time that process spent per transaction. */
    const measured = async (url: string, pid: number | undefined, args: string[]) => {
      const before = cpuSeconds(pid);
      const result = await pgbench(url, args);
      const usPerTx = ((cpuSeconds(pid) - before) * 1e6) / (result.tps * seconds);
      return { ...result, usPerTx };
    };
    const cpu = (us: number) => (Number.isNaN(us) ? '' : `, ${us.toFixed(0)} us CPU/tx`);

    const d1 = await measured(direct, undefined, ['-S', '-c', '1']);
    const r1 = await measured(relayed, relay.child.pid, ['-S', '-c', '1']);
    const p1 = await measured(proxied, proxy.child.pid, ['-S', '-c', '1']);
    const p50 = (r: { latencies?: number[] }) => percentile(r.latencies!, 50);
    const p99 = (r: { latencies?: number[] }) => percentile(r.latencies!, 99);
    say(`latency, select-only, 1 client: direct p50 ${p50(d1).toFixed(3)} ms p99 ${p99(d1).toFixed(3)} ms; relay p50 ${p50(r1).toFixed(3)} ms p99 ${p99(r1).toFixed(3)} ms (added ${(p50(r1) - p50(d1)).toFixed(3)} ms); proxy p50 ${p50(p1).toFixed(3)} ms p99 ${p99(p1).toFixed(3)} ms; proxy added p50 ${(p50(p1) - p50(d1)).toFixed(3)} ms (target <= 0.3 ms)`);

    for (const [label, args] of [
      ['select-only', ['-S', '-c', '8', '-j', '2']],
      ['TPC-B-like', ['-c', '8', '-j', '2']],
    ] as const) {
      const d = await measured(direct, undefined, [...args]);
      const r = await measured(relayed, relay.child.pid, [...args]);
      const p = await measured(proxied, proxy.child.pid, [...args]);
      say(
        `throughput, ${label}, 8 clients: direct ${d.tps.toFixed(0)} tps; relay ${r.tps.toFixed(0)} tps (${pct(r.tps, d.tps)} of direct${cpu(r.usPerTx)}); ` +
          `proxy ${p.tps.toFixed(0)} tps (${pct(p.tps, d.tps)} of direct, target >= 60 %; ${pct(p.tps, r.tps)} of the relay${cpu(p.usPerTx)})`,
      );
    }
    say(`load average (1/5/15 min) at end ${load()}`);
  } finally {
    for (const { child } of [proxy, relay]) {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    }
    const captured = /CAPTURED (\d+) DROPPED (\d+)(?: MALFORMED (\d+))?/.exec(proxy.output());
    if (captured) process.stdout.write(`captured records: ${captured[1]}, dropped: ${captured[2]}, malformed: ${captured[3] ?? 'n/a'}\n`);
    await db.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
