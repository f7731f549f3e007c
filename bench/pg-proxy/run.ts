/**
 * pgbench directly against PostgreSQL, through PgBouncer and through the Vigil proxy, in the same
 * run, with auditing (every statement captured) and 20 enabled policies of the database (10
 * query_control with 3 rules each, 5 access_control, 5 data_protection). Targets, each a ratio to
 * PgBouncer's figure from the same run, select-only and TPC-B-like with 8 clients: proxy
 * throughput >= 0.8x PgBouncer's; proxy CPU per transaction <= 2x PgBouncer's; added p50 latency
 * (1 client) <= PgBouncer's + 0.1 ms.
 *
 *   node -r @swc-node/register bench/pg-proxy/run.ts       (npm run bench:pg-proxy)
 *
 * The benchmark starts a PostgreSQL server of its own (the proxy tests' embedded-pg.mjs, with
 * default durability) so that it may move that server's processes between cores. Every path is measured in the same run:
 *   - direct: pgbench to PostgreSQL over TCP;
 *   - C relay: the floor of any relay, a C epoll loop that only copies bytes (relay.c, built with
 *     the system's C compiler; left out, and said so, where there is none);
 *   - Node relay: a Node process that only copies bytes (relay-process.ts);
 *   - PgBouncer: Debian's pgbouncer in session mode over TCP to the server (left out, and said
 *     so, where it is not installed), run as the postgres user when the benchmark runs as root;
 *   - proxy: the Vigil proxy over TCP to the server, capture on the in-process bus;
 *   - proxy (socket): the same through the server's Unix-domain socket (PROXY_UPSTREAM_SOCKET_DIR,
 *     a proxy on the database host);
 *   - proxy (Kafka): the proxy over TCP publishing its capture to the real broker (KAFKA_BROKERS,
 *     default 127.0.0.1:9092) through KafkaBus, as deployed; at the end the records on the topic
 *     are counted against those captured.
 * Latency: one client, select-only, p50 and p99 from pgbench's per-transaction log; the difference
 * of the p50s is what a path adds. Throughput: 8 clients on 2 threads, select-only and TPC-B-like.
 * For relays, PgBouncer and proxies, the CPU time their process spent per transaction (utime +
 * stime from /proc/<pid>/stat) is printed too: it varies much less with the machine's load than
 * transactions per second do.
 *
 * Two placements, one after the other:
 *   - shared cores: everything (pgbench, PostgreSQL, the relay, pooler or proxy) on every core, as
 *     when the proxy is deployed on the database's or the clients' machine without cores of its own;
 *   - own core (machines with 2 cores or more): PostgreSQL and pgbench confined to every core but
 *     the last, the relay, pooler or proxy to the last (taskset), as when it runs on its own node
 *     or has CPU reserved for it. Direct runs get the same cores for PostgreSQL and pgbench.
 * PGBENCH_SECONDS (default 10) sets each run's length; BENCH_PATHS (e.g. `PgBouncer,proxy (Kafka)`)
 * measures only those paths besides direct; BENCH_PLACEMENTS=shared or own only that placement;
 * BENCH_CPU_PROF=<dir> runs the Node processes under --cpu-prof.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@vigil/testing';
import { cpuSeconds } from '../lib/proc';
import { formatLoadAverage, percentile } from '../lib/stats';

const run = promisify(execFile);
const seconds = Number(process.env.PGBENCH_SECONDS ?? 10);
const say = (line: string) => process.stdout.write(`${line}\n`);

interface Started {
  child: ChildProcess;
  output: () => string;
  match: RegExpExecArray;
}

/** Every process this run started, ready or not, with a name: all are stopped at the end. */
const spawned: { name: string; child: ChildProcess; output: () => string }[] = [];

function start(name: string, command: string, args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Started> {
  return started(name, spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: resolve(__dirname, '../..'), env: { ...process.env, ...env } }), ready);
}

async function started(name: string, child: ChildProcess, ready: RegExp): Promise<Started> {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  spawned.push({ name, child, output: () => out });
  const started = Date.now();
  while (!ready.test(out)) {
    if (Date.now() - started > 120_000 || child.exitCode !== null) throw new Error(`${name} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => out, match: ready.exec(out)! };
}

/** A TypeScript process of this folder, with the node flags of the service images (apps/*\/Dockerfile). */
const startNode = (name: string, script: string, args: string[], env: Record<string, string> = {}) =>
  start(name, process.execPath, ['--max-semi-space-size=32', '-r', '@swc-node/register', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), resolve(__dirname, script), ...args], /LISTENING (\d+)(?: (\d+))?/, env);

/**
 * Debian's PgBouncer (session pooling, the mode that keeps every session's semantics, as the proxy
 * does) toward the server over TCP, as the postgres user when run as root (it refuses root). Clients
 * are trusted; PgBouncer logs in to the server with the benchmark's password (SCRAM). Returns its
 * port and pid, or why it is left out.
 */
async function startPgBouncer(pgPort: number): Promise<{ port: number; pid: number; stop: () => void } | { missing: string }> {
  const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((b) => existsSync(b));
  if (!binary) return { missing: 'no pgbouncer on this machine (Debian: apt-get install pgbouncer)' };
  const dir = mkdtempSync(join(tmpdir(), 'bench-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), '"postgres" "admin-pass"\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `postgres = host=127.0.0.1 port=${pgPort} dbname=postgres user=postgres`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = session',
      'default_pool_size = 20',
      'max_client_conn = 100',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  );
  const root = process.getuid?.() === 0;
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    for (const f of [dir, ini, join(dir, 'users.txt')]) chownSync(f, uid, -1);
  }
  chmodSync(dir, 0o700);
  try {
    if (root) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', `${binary} -d ${ini}`], { stdio: 'ignore' });
    else execFileSync(binary, ['-d', ini], { stdio: 'ignore' });
  } catch (error) {
    return { missing: `pgbouncer did not start: ${(error as Error).message}` };
  }
  const pidFile = join(dir, 'pgbouncer.pid');
  const since = Date.now();
  while (!existsSync(pidFile) || !readFileSync(pidFile, 'utf8').trim()) {
    if (Date.now() - since > 10_000) return { missing: `pgbouncer wrote no pid file: ${existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : ''}` };
    await new Promise((r) => setTimeout(r, 50));
  }
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return {
    port,
    pid,
    stop: () => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The proxy tests' PostgreSQL (SCRAM for TCP clients, a socket in `dir`), with fsync on. */
function startPostgres(dir: string, port: number): Promise<Started> {
  const script = resolve(__dirname, '../../apps/pg-proxy/src/testing/embedded-pg.mjs');
  const child = spawn(process.execPath, [script, dir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, EMBEDDED_PG_DURABLE: '1' } });
  return started('PostgreSQL', child, /READY (\d+) (\d+)/);
}

/** Builds relay.c with the system's C compiler, or says why not. */
function buildCRelay(): string | { missing: string } {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-relay-')), 'relay');
  for (const cc of ['cc', 'gcc', 'clang']) {
    try {
      execFileSync(cc, ['-O2', '-o', out, resolve(__dirname, 'relay.c')], { stdio: 'ignore' });
      return out;
    } catch {
      /* next compiler */
    }
  }
  return { missing: 'no C compiler (cc, gcc, clang) on this machine' };
}

/** Moves a process and all its threads, and optionally its children, to these cores. */
function pin(pid: number, cores: string, children = false) {
  const pids = [pid];
  if (children) {
    try {
      pids.push(...execFileSync('pgrep', ['-P', String(pid)]).toString().split('\n').filter(Boolean).map(Number));
    } catch {
      /* no children */
    }
  }
  for (const p of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', cores, String(p)], { stdio: 'ignore' });
    } catch {
      /* the process ended meanwhile */
    }
  }
}

async function pgbench(url: string, args: string[], cores?: string): Promise<{ tps: number; transactions: number; latencies: number[] }> {
  const logDir = mkdtempSync(join(tmpdir(), 'pgbench-log-'));
  const argv = [...args, '-n', '-T', String(seconds), '-l', '--log-prefix', join(logDir, 'tx'), url];
  const { stdout } = cores ? await run('taskset', ['-c', cores, 'pgbench', ...argv], { maxBuffer: 1 << 24 }) : await run('pgbench', argv, { maxBuffer: 1 << 24 });
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)![1]);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)![1]);
  const latencies: number[] = [];
  for (const file of readdirSync(logDir)) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const parts = line.split(' ');
      if (parts.length > 3) latencies.push(Number(parts[2]) / 1000);
    }
  }
  rmSync(logDir, { recursive: true, force: true });
  return { tps, transactions, latencies: latencies.sort((a, b) => a - b) };
}

interface Path {
  label: string;
  url: string;
  pid?: number;
}

/** The proxy paths, each compared with PgBouncer. */
const PROXIES = ['proxy', 'proxy (socket)', 'proxy (Kafka)'];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  const pgPort = await freePort();
  const direct = `postgres://postgres:admin-pass@127.0.0.1:${pgPort}/postgres`;
  const via = (port: string | number) => direct.replace(`:${pgPort}/`, `:${port}/`);
  const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
  /** BENCH_PATHS=direct,PgBouncer,proxy (Kafka): only these paths (direct is always measured). */
  const only = process.env.BENCH_PATHS ? new Set(['direct', ...process.env.BENCH_PATHS.split(',').map((p) => p.trim())]) : undefined;
  const wanted = (label: string) => !only || only.has(label);
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | undefined;
  try {
    const postgres = await startPostgres(dir, pgPort);
    const postmaster = Number(postgres.match[2]);
    await run('pgbench', ['-i', '-s', '10', '-q', direct]);
    const paths: Path[] = [{ label: 'direct', url: direct }];
    const left: string[] = [];
    if (wanted('C relay')) {
      const cBinary = buildCRelay();
      if (typeof cBinary === 'string') {
        const cRelay = await start('C relay', cBinary, ['0', String(pgPort)], /LISTENING (\d+)/);
        paths.push({ label: 'C relay', url: via(cRelay.match[1]!), pid: cRelay.child.pid });
      } else left.push(`C relay left out: ${cBinary.missing}`);
    }
    if (wanted('Node relay')) {
      const nodeRelay = await startNode('Node relay', 'relay-process.ts', [direct]);
      paths.push({ label: 'Node relay', url: via(nodeRelay.match[1]!), pid: nodeRelay.child.pid });
    }
    if (wanted('PgBouncer')) {
      bouncer = await startPgBouncer(pgPort);
      if ('missing' in bouncer) left.push(`PgBouncer left out: ${bouncer.missing}`);
      else paths.push({ label: 'PgBouncer', url: via(bouncer.port), pid: bouncer.pid });
    }
    let policies = '';
    for (const [label, args, env] of [
      ['proxy', [direct, 'postgres'], {}],
      ['proxy (socket)', [direct, 'postgres', dir], {}],
      ['proxy (Kafka)', [direct, 'postgres'], { BENCH_KAFKA_BROKERS: brokers }],
    ] as const) {
      if (!wanted(label)) continue;
      const proxy = await startNode(label, 'proxy-process.ts', [...args], { ...env });
      policies = proxy.match[2]!;
      paths.push({ label, url: via(proxy.match[1]!), pid: proxy.child.pid });
    }
    // Warm every path (caches, JIT, PgBouncer's server connections).
    for (const { url } of paths) await run('pgbench', ['-S', '-n', '-T', '2', '-c', '8', url]);

    say(`pg-proxy benchmark: pgbench scale 10, ${seconds} s per run, ${policies} enabled policies, every statement captured (proxy (Kafka): published to ${brokers}); ${cpus().length} cores; load average (1/5/15 min) at start ${formatLoadAverage()}`);
    for (const line of left) say(line);
    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
    /** One pgbench run through a path, with the CPU time its process spent per transaction. */
    const measured = async (path: Path, args: string[], cores?: string) => {
      const before = cpuSeconds(path.pid);
      const result = await pgbench(path.url, args, cores);
      return { ...result, usPerTx: ((cpuSeconds(path.pid) - before) * 1e6) / result.transactions };
    };
    const hasBouncer = paths.some((p) => p.label === 'PgBouncer');

    const placement = async (name: string, clientCores?: string) => {
      say(`-- ${name}`);
      const ms = (v: number) => `${v.toFixed(3)} ms`;
      const latency: string[] = [];
      const added = new Map<string, number>();
      let directP50 = 0;
      for (const path of paths) {
        const r = await measured(path, ['-S', '-c', '1'], clientCores);
        const p50 = percentile(r.latencies, 50);
        if (path.label === 'direct') directP50 = p50;
        added.set(path.label, p50 - directP50);
        latency.push(`${path.label} p50 ${ms(p50)} p99 ${ms(percentile(r.latencies, 99))}${path.label === 'direct' ? '' : ` (adds ${ms(p50 - directP50)})`}`);
      }
      say(`latency, select-only, 1 client: ${latency.join('; ')}`);
      if (hasBouncer) {
        const bouncerAdds = added.get('PgBouncer')!;
        const vs = PROXIES.filter((l) => added.has(l)).map((l) => `${l} ${added.get(l)! - bouncerAdds >= 0 ? '+' : ''}${ms(added.get(l)! - bouncerAdds)}`);
        say(`  added p50 latency beyond PgBouncer's (${ms(bouncerAdds)}): ${vs.join('; ')}; target <= +0.100 ms`);
      }
      for (const [label, args] of [
        ['select-only', ['-S', '-c', '8', '-j', '2']],
        ['TPC-B-like', ['-c', '8', '-j', '2']],
      ] as const) {
        const figures: string[] = [];
        const results = new Map<string, { tps: number; usPerTx: number }>();
        let base = 0;
        for (const path of paths) {
          const r = await measured(path, [...args], clientCores);
          results.set(path.label, r);
          if (path.label === 'direct') {
            base = r.tps;
            figures.push(`direct ${r.tps.toFixed(0)} tps`);
          } else {
            figures.push(`${path.label} ${r.tps.toFixed(0)} tps (${pct(r.tps, base)} of direct${Number.isNaN(r.usPerTx) ? '' : `, ${r.usPerTx.toFixed(0)} us CPU/tx`})`);
          }
        }
        say(`throughput, ${label}, 8 clients: ${figures.join('; ')}`);
        const b = results.get('PgBouncer');
        if (b) {
          const vs = PROXIES.filter((l) => results.has(l)).map((l) => {
            const r = results.get(l)!;
            return `${l} ${(r.tps / b.tps).toFixed(2)}x throughput, ${(r.usPerTx / b.usPerTx).toFixed(2)}x CPU/tx`;
          });
          say(`  against PgBouncer (${b.tps.toFixed(0)} tps, ${b.usPerTx.toFixed(0)} us CPU/tx): ${vs.join('; ')}; targets >= 0.80x throughput, <= 2.00x CPU/tx`);
        }
      }
      say(`load average (1/5/15 min) ${formatLoadAverage()}`);
    };

    if (process.env.BENCH_PLACEMENTS !== 'own') await placement('shared cores: pgbench, PostgreSQL and the relay, pooler or proxy on all cores');
    const n = cpus().length;
    if (process.env.BENCH_PLACEMENTS === 'shared') {
      say('own core: left out (BENCH_PLACEMENTS=shared)');
    } else if (n >= 2) {
      const own = String(n - 1);
      const rest = n === 2 ? '0' : `0-${n - 2}`;
      pin(postmaster, rest, true);
      for (const path of paths) if (path.pid) pin(path.pid, own);
      await placement(`own core: PostgreSQL and pgbench on core(s) ${rest}, the relay, pooler or proxy on core ${own}`, rest);
    } else {
      say('own core: left out, this machine has one core');
    }
  } finally {
    if (bouncer && !('missing' in bouncer)) bouncer.stop();
    // Newest first: PostgreSQL, started first, stops last.
    for (const { child } of [...spawned].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    }
    for (const s of spawned) {
      const captured = /CAPTURED (\d+) DROPPED (\d+)(?: MALFORMED (\S+))?(?: ON_TOPIC (\d+))?/.exec(s.output());
      if (captured) say(`captured records, ${s.name}: ${captured[1]}, dropped: ${captured[2]}, malformed: ${captured[3] ?? 'n/a'}${captured[4] ? `, on the Kafka topic: ${captured[4]}` : ''}`);
    }
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
