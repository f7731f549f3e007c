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
import { Worker } from 'node:worker_threads';
import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import { createRpcAuthority, issueRpcCertificate } from '@vigil/contracts';
import { Public, startService, type ServiceDefinition } from '@vigil/platform';
import { gatewayService } from '@vigil/service/gateway';
import { type ChildService, createTestDatabase, freePort, spawnTs, type TestDatabase, waitFor } from '@vigil/testing';
import { RequireScope } from '../../apps/gateway/src/auth/auth.guard';
import { startSystem } from '../../apps/standalone/src/standalone';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

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
const { port, path, token, seconds, connections } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
let done = 0, failed = 0;
const end = Date.now() + seconds * 1000;
function one() {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers: token ? { authorization: 'Bearer ' + token } : {} }, (res) => {
      res.resume();
      res.on('end', () => { if (res.statusCode === 200) done++; else failed++; resolve(); });
    });
    req.on('error', () => { failed++; resolve(); });
    req.end();
  });
}
async function loop() { while (Date.now() < end) await one(); }
Promise.all(Array.from({ length: connections }, loop)).then(() => { agent.destroy(); parentPort.postMessage({ done, failed }); });
`;

function load(port: number, path: string, token?: string): Promise<{ rps: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD, { eval: true, workerData: { port, path, token, seconds: SECONDS, connections: CONNECTIONS } });
    worker.once('message', (m: { done: number; failed: number }) => resolve({ rps: m.done / SECONDS, failed: m.failed }));
    worker.once('error', reject);
  });
}

/** A standalone system in its own process (RPC on or off), on a fresh database and free ports. */
async function spawnSystem(rpc: 'tls' | 'insecure'): Promise<{ base: string; child: ChildService; db: TestDatabase; token: string }> {
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
    ...(rpc === 'insecure' ? { RPC_INSECURE: 'true' } : {}),
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  const child = spawnTs('apps/standalone/src/main.ts', env);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/health/ready`).catch(() => undefined))?.ok, 120_000, `the ${rpc} system`).catch((error) => {
    throw new Error(`${error.message}\n${child.output()}`);
  });
  const login = (await (await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'bench-admin-password' }) })).json()) as { access_token: string };
  return { base, child, db, token: login.access_token };
}

/** Typical reads through the gateway with RPC over mutual TLS against RPC_INSECURE, same rounds. */
async function rpcOverhead(loadAverage: string) {
  const tls = await spawnSystem('tls');
  const insecure = await spawnSystem('insecure');
  try {
    const port = (base: string) => Number(new URL(base).port);
    const reads = ['/v1/policies', '/v1/events?limit=20'];
    for (const path of reads) {
      await load(port(tls.base), path, tls.token); // warm-up
      await load(port(insecure.base), path, insecure.token);
    }
    const lines: string[] = [];
    let failed = 0;
    for (const path of reads) {
      const ratios: number[] = [];
      const on: number[] = [];
      const off: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // off, on, off: each TLS run is compared with the insecure runs around it.
        const a = await load(port(insecure.base), path, insecure.token);
        const t = await load(port(tls.base), path, tls.token);
        const b = await load(port(insecure.base), path, insecure.token);
        failed += a.failed + t.failed + b.failed;
        ratios.push(t.rps / ((a.rps + b.rps) / 2));
        on.push(t.rps);
        off.push((a.rps + b.rps) / 2);
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      const ratio = median(ratios);
      lines.push(
        `  GET ${path.padEnd(22)} RPC_INSECURE ${median(off).toFixed(0).padStart(6)} req/s   mutual TLS ${median(on).toFixed(0).padStart(6)} req/s   ratio ${ratio.toFixed(3)}   cost ${(100 * (1 - ratio)).toFixed(1)} %`,
      );
    }
    process.stdout.write(
      [
        `rpc-overhead: two systems in their own processes, ${ROUNDS} rounds x 3 runs x ${SECONDS} s per read, ${CONNECTIONS} keep-alive connections, JWT; medians`,
        ...lines,
        `  non-200 answers: ${failed}   target: cost <= 5 %   (load average at start: ${loadAverage})`,
      ].join('\n') + '\n',
    );
  } finally {
    for (const system of [tls, insecure]) {
      await system.child.stop();
      await system.db.drop();
    }
  }
}

async function main() {
  const loadAverage = (await import('node:os')).loadavg()[0]!.toFixed(1);
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
    const login = (await (await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'bench-admin-password' }) })).json()) as { access_token: string };
    const jwt = login.access_token as string;
    const key = ((await (await fetch(`${base}/v1/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` }, body: JSON.stringify({ name: 'bench', scopes: ['read:logs'] }) })).json()) as { key: string }).key;

    await load(gateway.httpPort, '/bench/public'); // warm-up
    // Each round measures the open route before and after the authenticated ones and compares
    // within the round: on a shared machine, load drifts between rounds more than within one.
    const rounds: { public: number; jwt: number; apiKey: number }[] = [];
    let failed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const p1 = await load(gateway.httpPort, '/bench/public');
      const j = await load(gateway.httpPort, '/bench/scoped', jwt);
      const k = await load(gateway.httpPort, '/bench/scoped', key);
      const p2 = await load(gateway.httpPort, '/bench/public');
      failed += p1.failed + j.failed + k.failed + p2.failed;
      rounds.push({ public: (p1.rps + p2.rps) / 2, jwt: j.rps, apiKey: k.rps });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = { jwt: median(rounds.map((r) => r.jwt / r.public)), apiKey: median(rounds.map((r) => r.apiKey / r.public)) };
    const rps = { public: median(rounds.map((r) => r.public)), jwt: median(rounds.map((r) => r.jwt)), apiKey: median(rounds.map((r) => r.apiKey)) };
    const cost = (r: number) => `${(100 * (1 - r)).toFixed(1)} %`;
    const lines = [
      `auth-overhead: ${ROUNDS} rounds x 4 runs x ${SECONDS} s, ${CONNECTIONS} keep-alive connections; medians`,
      `  unauthenticated (@Public)   ${rps.public.toFixed(0).padStart(7)} req/s   1.00`,
      `  JWT (ES256)                 ${rps.jwt.toFixed(0).padStart(7)} req/s   ${ratio.jwt.toFixed(2)}   auth cost ${cost(ratio.jwt)}`,
      `  API key (cached)            ${rps.apiKey.toFixed(0).padStart(7)} req/s   ${ratio.apiKey.toFixed(2)}   auth cost ${cost(ratio.apiKey)}`,
      `  non-200 answers: ${failed}   target: auth cost < 10 %   (load average at start: ${loadAverage})`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gateway.stop();
    await system.stop();
    await db.drop();
  }
  await rpcOverhead(loadAverage);
  process.exit(0);
}

void main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
