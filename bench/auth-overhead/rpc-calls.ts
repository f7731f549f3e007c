/**
 * The RPC layer alone: CPU time per call of one client calling one listener in this process (both
 * ends of the connection), over plain TCP (RPC_INSECURE) and over mutual TLS, alternately in the
 * same rounds. The listener has the services' guard (caller identity, allow-list, payload schema)
 * and the client is the services' RpcClient, BENCH_CONCURRENCY calls at a time on its one
 * connection, like a gateway under load. CPU time per call holds up on a busy machine much better
 * than calls per second, so this is the figure to read when bench:auth-overhead's throughput
 * ratio drowns in the load of other work.
 *
 * Both listeners and both clients are started once and kept (one handshake, like a service), and
 * each round runs plain, TLS, plain (or the reverse) back to back for every answer size in
 * BENCH_ITEMS (a comma-separated list of policy counts, about 100 bytes each), so a burst of other
 * work on the machine lands on both sides of a comparison. Each TLS run is compared with the two
 * plain runs around it; the figures are medians over the rounds, with the spread of the ratios.
 *
 *   node -r @swc-node/register bench/auth-overhead/rpc-calls.ts   (npm run bench:rpc-calls)
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { createRpcAuthority, issueRpcCertificate, type RpcCredentials, RpcPatterns } from '@vigil/contracts';
import { createLogger, RpcCallerGuard, RpcClient, rpcServerTls } from '@vigil/platform';
import { freePort } from '@vigil/testing';
import { Registry } from 'prom-client';
import { median } from '../lib/stats';

const CALLS = Number(process.env.BENCH_CALLS ?? 4_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/** Policies in the answer, one measurement each (0: the empty first page of a new installation; 50: about an events page). */
const SIZES = (process.env.BENCH_ITEMS ?? '0,50,200').split(',').map(Number);

const makeAnswer = (items: number) => ({
  items: Array.from({ length: items }, (_, i) => ({ id: `pol_${String(i).padStart(20, '0')}`, name: `policy ${i}`, enabled: true, severity: 'high', version: 1 })),
  total: items,
});
let answer = makeAnswer(0);
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

interface Side {
  run(): Promise<number>;
  close(): Promise<void>;
  cipher?: string;
}

/** A listener and a client kept for the whole bench; run() makes BENCH_CALLS calls and returns the CPU microseconds per call. */
async function side(secure: boolean): Promise<Side> {
  const port = await freePort();
  const listener = await NestFactory.createMicroservice<MicroserviceOptions>(PoliciesModule, {
    transport: Transport.TCP,
    options: { host: '127.0.0.1', port, ...(secure ? { tlsOptions: rpcServerTls(credentials('policy')) } : {}) },
    logger: false,
  });
  listener.useGlobalGuards(new RpcCallerGuard('policy', secure, createLogger('bench', 'error', 'json'), new Registry()));
  await listener.listen();
  const client = new RpcClient('policy', `127.0.0.1:${port}`, 10_000, secure ? credentials('gateway') : null);
  for (let i = 0; i < 1_000; i++) await client.call(RpcPatterns.policies.list, request); // connect, warm up
  const socket = (client as unknown as { proxy: { socket?: { netSocket?: TLSSocket } } }).proxy.socket?.netSocket;
  const cipher = secure ? `${socket?.getProtocol?.()} ${socket?.getCipher?.()?.standardName}` : undefined;
  return {
    cipher,
    async run() {
      let done = 0;
      const cpu = process.cpuUsage();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (done < CALLS) {
            done++;
            await client.call(RpcPatterns.policies.list, request);
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / done;
    },
    async close() {
      await client.close();
      await listener.close();
    },
  };
}

const quartiles = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return `${s[Math.floor((s.length - 1) / 4)]!.toFixed(2)}..${s[Math.ceil((3 * (s.length - 1)) / 4)]!.toFixed(2)}`;
};

/**
 * BENCH_ONLY=plain or tls: only that transport in this process, ROUNDS runs per size, medians. Run
 * both, one process after the other: a process that carries only one socket class keeps the
 * socket code's call sites monomorphic, as a service with RPC_INSECURE does, where the default run
 * mixes the two classes in one process for both of its sides.
 */
async function only(secure: boolean) {
  const before = loadavg()[0]!.toFixed(1);
  const one = await side(secure);
  const lines = [`rpc-calls, ${secure ? 'mutual TLS' : 'RPC_INSECURE'} only in this process: ${ROUNDS} runs x ${CALLS} calls per answer size, ${CONCURRENCY} at a time on one connection${one.cipher ? ` (${one.cipher})` : ''}; CPU time of both ends per call, medians`];
  for (const items of SIZES) {
    answer = makeAnswer(items);
    const runs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await one.run());
    lines.push(`  answer ${String(JSON.stringify(answer).length).padStart(6)} bytes   ${median(runs).toFixed(1).padStart(7)} us   (runs ${runs.map((x) => x.toFixed(1)).join(' ')})`);
  }
  lines.push(`  load average ${before} -> ${loadavg()[0]!.toFixed(1)}`);
  process.stdout.write(lines.join('\n') + '\n');
  await one.close();
  process.exit(0);
}

async function main() {
  if (process.env.BENCH_ONLY) return only(process.env.BENCH_ONLY === 'tls');
  const before = loadavg()[0]!.toFixed(1);
  const plainSide = await side(false);
  const tlsSide = await side(true);
  const results = SIZES.map(() => ({ plain: [] as number[], tls: [] as number[], ratios: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, items] of SIZES.entries()) {
      answer = makeAnswer(items);
      // plain, TLS, plain: each TLS run is compared with the plain runs around it.
      const a = await plainSide.run();
      const t = await tlsSide.run();
      const b = await plainSide.run();
      results[i]!.plain.push((a + b) / 2);
      results[i]!.tls.push(t);
      results[i]!.ratios.push(t / ((a + b) / 2));
    }
  }
  const lines = [
    `rpc-calls: ${ROUNDS} rounds x 3 runs x ${CALLS} calls per answer size, ${CONCURRENCY} at a time on one connection kept open (${tlsSide.cipher}); CPU time of both ends per call, medians`,
  ];
  for (const [i, items] of SIZES.entries()) {
    const r = results[i]!;
    const plain = median(r.plain);
    const tls = median(r.tls);
    const bytes = JSON.stringify(makeAnswer(items)).length;
    lines.push(
      `  answer ${String(bytes).padStart(6)} bytes   RPC_INSECURE ${plain.toFixed(1).padStart(7)} us   mutual TLS ${tls.toFixed(1).padStart(7)} us   TLS adds ${(tls - plain).toFixed(1).padStart(6)} us   ratio ${median(r.ratios).toFixed(2)} (quartiles ${quartiles(r.ratios)}; rounds ${r.ratios.map((x) => x.toFixed(2)).join(' ')})`,
    );
  }
  lines.push(`  load average ${before} -> ${loadavg()[0]!.toFixed(1)}`);
  process.stdout.write(lines.join('\n') + '\n');
  await plainSide.close();
  await tlsSide.close();
  process.exit(0);
}

void main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
