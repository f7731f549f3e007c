/**
 * The RPC layer alone: CPU time per call of one client calling one listener in this process (both
 * ends of the connection), over plain TCP (RPC_INSECURE) and over mutual TLS, alternately in the
 * same rounds. The listener has the services' guard (caller identity, allow-list, payload schema)
 * and the client is the services' RpcClient, BENCH_CONCURRENCY calls at a time on its one
 * connection, like a gateway under load. CPU time per call holds up on a busy machine much better
 * than calls per second, so this is the figure to read when bench:auth-overhead's throughput
 * ratio drowns in the load of other work.
 *
 *   node -r @swc-node/register bench/auth-overhead/rpc-calls.ts   (npm run bench:rpc-calls)
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { createRpcAuthority, issueRpcCertificate, type RpcCredentials, RpcPatterns } from '@vigil/contracts';
import { createLogger, RpcCallerGuard, RpcClient, rpcServerTls } from '@vigil/platform';
import { freePort } from '@vigil/testing';
import { Registry } from 'prom-client';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/** Policies in the answer (about 100 bytes each; 0: the empty first page of a new installation). */
const ITEMS = Number(process.env.BENCH_ITEMS ?? 0);

const answer = { items: Array.from({ length: ITEMS }, (_, i) => ({ id: `pol_${String(i).padStart(20, '0')}`, name: `policy ${i}`, enabled: true, severity: 'high', version: 1 })), total: ITEMS };
// What the gateway asks for GET /v1/policies (RpcClient adds the correlation id around it).
const request = { page: 1, per_page: 20 };

@Controller()
class PoliciesHandler {
  @MessagePattern(RpcPatterns.policies.list)
  list() {
    return answer;
  }
}

@Module({ controllers: [PoliciesHandler] })
class PoliciesModule {}

const authority = createRpcAuthority('bench-rpc-calls');
const credentials = (identity: string): RpcCredentials => ({ identity, ca: authority.cert, ...issueRpcCertificate(authority, identity) });

async function measure(secure: boolean): Promise<{ perSecond: number; cpuUs: number }> {
  const port = await freePort();
  const listener = await NestFactory.createMicroservice<MicroserviceOptions>(PoliciesModule, {
    transport: Transport.TCP,
    options: { host: '127.0.0.1', port, ...(secure ? { tlsOptions: rpcServerTls(credentials('policy')) } : {}) },
    logger: false,
  });
  listener.useGlobalGuards(new RpcCallerGuard('policy', secure, createLogger('bench', 'error', 'json'), new Registry()));
  await listener.listen();
  const client = new RpcClient('policy', `127.0.0.1:${port}`, 10_000, secure ? credentials('gateway') : null);
  try {
    for (let i = 0; i < 1_000; i++) await client.call(RpcPatterns.policies.list, request); // connect, warm up
    let done = 0;
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (done < CALLS) {
          done++;
          await client.call(RpcPatterns.policies.list, request);
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    return { perSecond: done / seconds, cpuUs: (used.user + used.system) / done };
  } finally {
    await client.close();
    await listener.close();
  }
}

async function main() {
  const before = loadavg()[0]!.toFixed(1);
  const ratios: number[] = [];
  const plain: number[] = [];
  const tls: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // plain, TLS, plain: each TLS run is compared with the plain runs around it.
    const a = await measure(false);
    const t = await measure(true);
    const b = await measure(false);
    const between = (a.cpuUs + b.cpuUs) / 2;
    plain.push(between);
    tls.push(t.cpuUs);
    ratios.push(t.cpuUs / between);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  process.stdout.write(
    [
      `rpc-calls: ${ROUNDS} rounds x 3 runs x ${CALLS} calls, ${CONCURRENCY} at a time on one connection, answer of ${JSON.stringify(answer).length} bytes; CPU time of both ends per call, medians`,
      `  RPC_INSECURE ${median(plain).toFixed(1).padStart(7)} us   mutual TLS ${median(tls).toFixed(1).padStart(7)} us   TLS adds ${(median(tls) - median(plain)).toFixed(1)} us per call (ratio ${median(ratios).toFixed(2)}; rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
      `  load average ${before} -> ${loadavg()[0]!.toFixed(1)}`,
    ].join('\n') + '\n',
  );
  process.exit(0);
}

void main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
