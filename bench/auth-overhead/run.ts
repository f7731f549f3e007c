/**
 * Auth overhead of the gateway: requests/s of one GET route unauthenticated (@Public) against the
 * same handler behind @RequireScope with an access token (JWT) and with an API key, in one run.
 * The handlers answer at once, so the figure is the worst case: on a real route the downstream call
 * dwarfs authentication. Both variants are rate-limited (in memory), so the difference is
 * authentication and the scope check. Load comes from a worker thread over keep-alive on 127.0.0.1.
 *
 * Then authenticated RPC (mutual TLS between the services, docs/architecture.md#internal-calls):
 * typical reads (GET /v1/policies, GET /v1/events?limit=20, each one RPC call behind the gateway)
 * against two whole systems started side by side in their own processes, one with RPC over mutual
 * TLS (the default) and one with RPC_INSECURE=true, measured alternately in the same rounds.
 *
 *   node -r @swc-node/register bench/auth-overhead/run.ts   (npm run bench:auth-overhead)
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import { createRpcAuthority, issueRpcCertificate } from '@vigil/contracts';
import { Public, startService, type ServiceDefinition } from '@vigil/platform';
import { gatewayService } from '@vigil/service/gateway';
import { type ChildService, createTestDatabase, freePort, spawnTs, type TestDatabase, waitFor } from '@vigil/testing';
import { RequireScope } from '../../apps/gateway/src/auth/auth.guard';
import { cpuSeconds, ioCalls } from '../lib/proc';
import { median, medianInterval } from '../lib/stats';
import { startSystem } from '../../apps/standalone/src/standalone';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const USERS = Number(process.env.BENCH_USERS ?? 64);
/** `auth` (the gateway's authentication), `rpc` (authenticated RPC) or both (unset). */
const PART = process.env.BENCH_PART ?? 'all';

@Controller('bench')
class BenchController {
  @Public()
  @Get('public')
  open() {
    return { ok: true };
  }

  @RequireScope('read:logs')
  @Get('scoped')
  scoped() {
    return { ok: true };
  }
}

@Module({ controllers: [BenchController] })
class BenchModule {}

const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, path, tokens, seconds, connections } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
let done = 0, failed = 0, next = 0, sample;
const end = Date.now() + seconds * 1000;
function one() {
  // Requests take the credentials in turn: a route limited per credential (GET /v1/events: 1000 a
  // minute) is spread over as many as the caller gave.
  const token = tokens.length ? tokens[next++ % tokens.length] : undefined;
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers: token ? { authorization: 'Bearer ' + token } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { if (res.statusCode !== 200 && body.length < 400) body += chunk; });
      res.on('end', () => {
        if (res.statusCode === 200) done++;
        else { failed++; sample ??= res.statusCode + ' ' + body.slice(0, 400); }
        resolve();
      });
    });
    req.on('error', (error) => { failed++; sample ??= 'error ' + error.message; resolve(); });
    req.end();
  });
}
async function loop() { while (Date.now() < end) await one(); }
Promise.all(Array.from({ length: connections }, loop)).then(() => { agent.destroy(); parentPort.postMessage({ done, failed, sample }); });
`;

interface LoadResult {
  rps: number;
  failed: number;
  /** Status and start of the body of the first answer other than 200. */
  sample?: string;
}

/**
 * Loads `path` for BENCH_SECONDS over BENCH_CONNECTIONS keep-alive connections, taking `tokens` in
 * turn. A run with any answer other than 200 ends the bench with a non-zero exit and a sample of the
 * answer: a figure made of refusals means nothing.
 */
async function load(port: number, path: string, tokens: string | string[] = []): Promise<LoadResult> {
  const result = await new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(LOAD, { eval: true, workerData: { port, path, tokens: typeof tokens === 'string' ? [tokens] : tokens, seconds: SECONDS, connections: CONNECTIONS } });
    worker.once('message', (m: { done: number; failed: number; sample?: string }) => resolve({ rps: m.done / SECONDS, failed: m.failed, sample: m.sample }));
    worker.once('error', reject);
  });
  if (result.failed > 0) {
    throw new Error(`GET ${path} on port ${port}: ${result.failed} answers other than 200 in ${SECONDS} s (${result.rps.toFixed(0)} req/s answered 200); the first: ${result.sample}`);
  }
  return result;
}

interface BenchSystem {
  base: string;
  port: number;
  child: ChildService;
  db: TestDatabase;
  /** Access tokens of BENCH_USERS users, each its own rate-limit credential. */
  tokens: string[];
}

async function json<T>(response: Response, what: string): Promise<T> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${(await response.text()).slice(0, 400)}`);
  return (await response.json()) as T;
}

async function login(base: string, email: string, password: string): Promise<string> {
  const body = JSON.stringify({ email, password });
  return (await json<{ access_token: string }>(await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }), `login of ${email}`)).access_token;
}

/**
 * A standalone system in its own process (RPC on or off), on a fresh database and free ports, with
 * BENCH_USERS users that may read policies and events: `GET /v1/events` is limited to 1000 requests
 * a minute per credential (docs/access.md#rate-limits), far below what one gateway answers, so the
 * load takes their tokens in turn. BENCH_CPU_PROF=<folder> writes a CPU profile of the process.
 */
async function spawnSystem(rpc: 'tls' | 'insecure'): Promise<BenchSystem> {
  const db = await createTestDatabase();
  const port = await freePort();
  const env: Record<string, string> = {
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    VIGIL_DATA_DIR: `tmp/bench-rpc-${rpc}-${process.pid}`,
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: 'bench-admin-password',
    PORT: String(port),
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '10000000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
    ...(rpc === 'insecure' ? { RPC_INSECURE: 'true' } : {}),
    NODE_OPTIONS: [
      // As `npm start` and the service images run Node.
      '--max-semi-space-size=32',
      // BENCH_BASELINE_NOISE=tls|tcp: socket traffic of one class inside the insecure system (socket-noise.cjs).
      ...(rpc === 'insecure' && process.env.BENCH_BASELINE_NOISE ? [`--require ${resolve(__dirname, 'socket-noise.cjs')}`] : []),
      ...(process.env.BENCH_CPU_PROF ? [`--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF} --cpu-prof-name=${rpc}-${process.pid}.cpuprofile`] : []),
    ].join(' '),
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  const child = spawnTs('apps/standalone/src/main.ts', env);
  const base = `http://127.0.0.1:${port}`;
  try {
    // Five minutes: on a machine busy with other work, a start takes far longer than the usual seconds.
    await waitFor(async () => (await fetch(`${base}/health/ready`).catch(() => undefined))?.ok, 300_000, `the ${rpc} system`).catch((error) => {
      throw new Error(`${error.message}\n${child.output()}`);
    });
    const admin = await login(base, 'admin@example.com', 'bench-admin-password');
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `reader-${i}@example.com`;
      const password = `bench-reader-password-${i}`;
      const body = JSON.stringify({ email, password, scopes: ['read:logs', 'read:policies'] });
      await json(await fetch(`${base}/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` }, body }), `creating ${email}`);
      tokens.push(await login(base, email, password));
    }
    return { base, port, child, db, tokens };
  } catch (error) {
    await child.stop();
    await db.drop();
    throw error;
  }
}

/** Typical reads through the gateway with RPC over mutual TLS against RPC_INSECURE, same rounds. */
async function rpcOverhead() {
  const started: BenchSystem[] = [];
  try {
    // BENCH_RPC_CHECK=same starts both systems with RPC over mutual TLS: what the benchmark itself
    // reports between two identical systems (its bias and noise), to read the real figures against.
    const same = process.env.BENCH_RPC_CHECK === 'same';
    const tls = await spawnSystem('tls');
    started.push(tls);
    const insecure = await spawnSystem(same ? 'tls' : 'insecure');
    started.push(insecure);
    const reads = ['/v1/policies', '/v1/events?limit=20'];
    for (const path of reads) {
      await load(tls.port, path, tls.tokens); // warm-up
      await load(insecure.port, path, insecure.tokens);
    }
    // Requests per second depend on what else runs on the machine; the CPU time the system's process
    // spends per answered request much less so (each system is one process: the gateway and the
    // service behind it, both ends of the RPC connection).
    const measure = async (system: BenchSystem, path: string) => {
      const cpu = cpuSeconds(system.child.process.pid);
      const io = ioCalls(system.child.process.pid);
      const result = await load(system.port, path, system.tokens);
      const requests = result.rps * SECONDS;
      const ioAfter = ioCalls(system.child.process.pid);
      return { rps: result.rps, cpuUs: (1e6 * (cpuSeconds(system.child.process.pid) - cpu)) / requests, reads: (ioAfter.reads - io.reads) / requests, writes: (ioAfter.writes - io.writes) / requests };
    };
    // What each system spends with no request at all (timers, pollers, its workers), measured while
    // the other one idles too: every request's CPU figure below carries a share of it.
    const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
    const idleBefore = [cpuSeconds(insecure.child.process.pid), cpuSeconds(tls.child.process.pid)];
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle = { insecure: (1000 * (cpuSeconds(insecure.child.process.pid) - idleBefore[0]!)) / idleSeconds, tls: (1000 * (cpuSeconds(tls.child.process.pid) - idleBefore[1]!)) / idleSeconds };
    const lines: string[] = [`  idle, no requests, ${idleSeconds} s: RPC_INSECURE ${idle.insecure.toFixed(1)} ms of CPU a second, mutual TLS ${idle.tls.toFixed(1)} ms`];
    for (const path of reads) {
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      type Run = { rps: number; cpuUs: number; reads: number; writes: number };
      const on: Run[] = [];
      const off: Run[] = [];
      const before = loadAverage();
      for (let round = 0; round < ROUNDS; round++) {
        // off, on, off: each TLS run is compared with the insecure runs around it.
        const a = await measure(insecure, path);
        const t = await measure(tls, path);
        const b = await measure(insecure, path);
        const between = { rps: (a.rps + b.rps) / 2, cpuUs: (a.cpuUs + b.cpuUs) / 2, reads: (a.reads + b.reads) / 2, writes: (a.writes + b.writes) / 2 };
        ratios.push(t.rps / between.rps);
        cpuRatios.push(t.cpuUs / between.cpuUs);
        on.push(t);
        off.push(between);
      }
      const ratio = median(ratios);
      const cpuRatio = median(cpuRatios);
      lines.push(
        `  GET ${path}   (load average ${before} -> ${loadAverage()})`,
        `    throughput   RPC_INSECURE ${median(off.map((x) => x.rps)).toFixed(0).padStart(6)} req/s   mutual TLS ${median(on.map((x) => x.rps)).toFixed(0).padStart(6)} req/s   ratio ${ratio.toFixed(3)} (95 % interval ${interval(ratios)})   cost ${(100 * (1 - ratio)).toFixed(1)} %   (rounds: ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
        `    system calls/request  RPC_INSECURE ${median(off.map((x) => x.reads)).toFixed(1)} reads, ${median(off.map((x) => x.writes)).toFixed(1)} writes   mutual TLS ${median(on.map((x) => x.reads)).toFixed(1)} reads, ${median(on.map((x) => x.writes)).toFixed(1)} writes (the system's process, /proc/<pid>/io)`,
        `    CPU/request  RPC_INSECURE ${median(off.map((x) => x.cpuUs)).toFixed(0).padStart(6)} us      mutual TLS ${median(on.map((x) => x.cpuUs)).toFixed(0).padStart(6)} us      ratio ${cpuRatio.toFixed(3)} (95 % interval ${interval(cpuRatios)})   cost ${(100 * (cpuRatio - 1)).toFixed(1)} %   (rounds: ${cpuRatios.map((r) => r.toFixed(2)).join(' ')})`,
      );
    }
    process.stdout.write(
      [
        ...(same ? ['BENCH_RPC_CHECK=same: BOTH systems use mutual TLS; the column headed RPC_INSECURE is the second TLS system'] : []),
        ...(process.env.BENCH_BASELINE_NOISE ? [`BENCH_BASELINE_NOISE=${process.env.BENCH_BASELINE_NOISE}: the RPC_INSECURE system also echoes a 200-byte message every 2 ms over ${process.env.BENCH_BASELINE_NOISE === 'tls' ? 'TLS' : 'plain TCP'} inside its process`] : []),
        `rpc-overhead: two systems in their own processes, ${ROUNDS} rounds x 3 runs x ${SECONDS} s per read, ${CONNECTIONS} keep-alive connections, JWTs of ${USERS} users; medians`,
        ...lines,
        `  every answer 200   target: cost <= 5 %`,
      ].join('\n') + '\n',
    );
  } finally {
    for (const system of started) {
      await system.child.stop();
      await system.db.drop();
    }
  }
}

const interval = (xs: number[]) => medianInterval(xs).map((x) => x.toFixed(3)).join(' to ');
const loadAverage = () => loadavg()[0]!.toFixed(1);

/** The gateway's own authentication: an open route against the same route behind a scope. */
async function authOverhead() {
  const startLoad = loadAverage();
  const db = await createTestDatabase();
  const env: Record<string, string> = {
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    VIGIL_DATA_DIR: `tmp/bench-auth-${process.pid}`,
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: 'bench-admin-password',
    PORT: String(await freePort()),
    METRICS_PORT: '0',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '10000000',
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  const authority = createRpcAuthority('bench-rpc-ca');
  const system = await startSystem(env, { rpcAuthority: authority });
  const benchDefinition = {
    ...gatewayService,
    rootModule: (context) => ({ module: class BenchRoot {}, imports: [gatewayService.rootModule(context) as DynamicModule, BenchModule] }),
  } as ServiceDefinition<typeof gatewayService.configSpec>;
  const rpc: Record<string, string> = {};
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) rpc[`${key}_RPC_ADDRESS`] = `127.0.0.1:${env[`${key}_RPC_PORT`]}`;
  const gateway = await startService(
    benchDefinition,
    { ...env, ...rpc, PORT: String(await freePort()), METRICS_PORT: '0', HOST: '127.0.0.1' },
    { rpcCredentials: { identity: 'gateway', ca: authority.cert, ...issueRpcCertificate(authority, 'gateway') } },
  );
  const base = `http://127.0.0.1:${gateway.httpPort}`;
  try {
    const jwt = await login(base, 'admin@example.com', 'bench-admin-password');
    const body = JSON.stringify({ name: 'bench', scopes: ['read:logs'] });
    const key = (await json<{ key: string }>(await fetch(`${base}/v1/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` }, body }), 'creating an API key')).key;

    await load(gateway.httpPort, '/bench/public'); // warm-up
    // Each round measures the open route before and after the authenticated ones and compares
    // within the round: on a shared machine, load drifts between rounds more than within one.
    const rounds: { public: number; jwt: number; apiKey: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const p1 = await load(gateway.httpPort, '/bench/public');
      const j = await load(gateway.httpPort, '/bench/scoped', jwt);
      const k = await load(gateway.httpPort, '/bench/scoped', key);
      const p2 = await load(gateway.httpPort, '/bench/public');
      rounds.push({ public: (p1.rps + p2.rps) / 2, jwt: j.rps, apiKey: k.rps });
    }
    const ratio = { jwt: median(rounds.map((r) => r.jwt / r.public)), apiKey: median(rounds.map((r) => r.apiKey / r.public)) };
    const rps = { public: median(rounds.map((r) => r.public)), jwt: median(rounds.map((r) => r.jwt)), apiKey: median(rounds.map((r) => r.apiKey)) };
    const cost = (r: number) => `${(100 * (1 - r)).toFixed(1)} %`;
    const lines = [
      `auth-overhead: ${ROUNDS} rounds x 4 runs x ${SECONDS} s, ${CONNECTIONS} keep-alive connections; medians`,
      `  unauthenticated (@Public)   ${rps.public.toFixed(0).padStart(7)} req/s   1.00`,
      `  JWT (ES256)                 ${rps.jwt.toFixed(0).padStart(7)} req/s   ${ratio.jwt.toFixed(2)}   auth cost ${cost(ratio.jwt)}`,
      `  API key (cached)            ${rps.apiKey.toFixed(0).padStart(7)} req/s   ${ratio.apiKey.toFixed(2)}   auth cost ${cost(ratio.apiKey)}`,
      `  every answer 200   target: auth cost < 10 %   (load average ${startLoad} -> ${loadAverage()})`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gateway.stop();
    await system.stop();
    await db.drop();
  }
}

async function main() {
  if (PART !== 'rpc') await authOverhead();
  if (PART !== 'auth') await rpcOverhead();
  process.exit(0);
}

void main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
