/**
 * CPU per statement of the proxy's sessions, in one process: 8 sessions (the real Session class
 * with the benchmark's 20 policies, as proxy-process.ts applies them, the masking catalog of a
 * real server and capture on the in-process bus) driven by in-process clients sending pgbench's
 * select-only statement, toward an in-process stand-in server on loopback that answers each query
 * with one row. Nothing waits on another process, so CPU time per statement (process.cpuUsage)
 * moves much less with the machine's load than the end-to-end benchmark; it covers the sessions'
 * work (framing, policies, masking plans, records and their publishing) and the server leg's socket
 * calls, not the client leg's (the clients are not sockets).
 *   node -r @swc-node/register bench/pg-proxy/session-cost.ts [statements per round] [rounds] [catalog url]
 * The catalog url (default postgres://postgres@127.0.0.1:5432/postgres) names a server masking can
 * read its catalog snapshot from; the stand-in's answers name no table, so they are planned as
 * computed values of a protected table's statement.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Topics } from '@vigil/contracts';
import { MemoryBus } from '@vigil/messaging';
import { createLogger, createMetricsRegistry } from '@vigil/platform';
import { CaptureBuffer } from '../../apps/pg-proxy/src/capture/capture-buffer';
import { Enforcer } from '../../apps/pg-proxy/src/enforcement/enforcer';
import { Catalog } from '../../apps/pg-proxy/src/masking/catalog';
import { PolicyStore } from '../../apps/pg-proxy/src/policies/policy-store';
import { encodeStartup, MessageReader, MessageWriter, query } from '../../apps/pg-proxy/src/protocol/messages';
import { createProxyMetrics } from '../../apps/pg-proxy/src/proxy/proxy.metrics';
import { defaultDatabaseId } from '../../apps/pg-proxy/src/proxy/proxy.service';
import { Session } from '../../apps/pg-proxy/src/proxy/session';
import { Redactor } from '../../apps/pg-proxy/src/sql/redaction';
import { loadSqlParser, SqlAnalyzer } from '../../apps/pg-proxy/src/sql/sql-analyzer';
import { applyBenchPolicies } from './bench-policies';

const [count = 20_000, rounds = 5] = process.argv.slice(2, 4).map(Number);
const catalogUrl = new URL(process.argv[4] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const SESSIONS = 8;

/** The stand-in server: trusts the startup, answers each Query with one int4 row. */
function standInServer(): Promise<number> {
  const answer = Buffer.concat([
    new MessageWriter().int16(1).cstring('abalance').int32(0).int16(0).int32(23).int16(4).int32(-1).int16(0).finish('T'),
    new MessageWriter().int16(1).int32(4).bytes(Buffer.from('1234')).finish('D'),
    new MessageWriter().cstring('SELECT 1').finish('C'),
    new MessageWriter().bytes(Buffer.from('I')).finish('Z'),
  ]);
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    const reader = new MessageReader();
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      if (!started) {
        if (!reader.nextStartup()) return;
        started = true;
        socket.write(
          Buffer.concat([
            new MessageWriter().int32(0).finish('R'),
            new MessageWriter().int32(4242).int32(1).finish('K'),
            new MessageWriter().bytes(Buffer.from('I')).finish('Z'),
          ]),
        );
      }
      const out: Buffer[] = [];
      for (let m = reader.next(); m; m = reader.next()) if (m.type === 'Q') out.push(answer);
      if (out.length) socket.write(out.length === 1 ? out[0]! : Buffer.concat(out));
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

/** What a Session uses of its client socket; what it writes back counts ReadyForQuery messages. */
class Client extends EventEmitter {
  remoteAddress = '127.0.0.1';
  destroyed = false;
  writableLength = 0;
  ready = 0;
  onReady: (() => void) | undefined;
  // A client socket's flow control: nothing to do for an in-process client, which reads every answer.
  setNoDelay() {
    /* no socket */
  }
  pause() {
    /* reads every answer as it comes */
  }
  resume() {
    /* as pause */
  }
  end() {
    this.destroyed = true;
  }
  write(data: Buffer | string) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    // ReadyForQuery is the last message of each answer: 'Z', length 5, status.
    if (bytes.length >= 6 && bytes[bytes.length - 6] === 0x5a) {
      this.ready++;
      this.onReady?.();
    }
    return true;
  }
}

async function main() {
  await loadSqlParser();
  const logger = createLogger('pg-proxy', 'warn');
  const bus = new MemoryBus();
  let captured = 0;
  await bus.subscribe({ groupId: 'bench', topics: [Topics.auditIngest], handler: async (messages) => void (captured += messages.length) });
  const capture = new CaptureBuffer({ sink: bus, logger, maxRecords: 100_000, spillDir: mkdtempSync(join(tmpdir(), 'bench-spill-')), maxSpillBytes: 100_000_000, publishTimeoutMs: 5000, failMode: () => 'open' });
  capture.start();
  const store = new PolicyStore();
  const database = catalogUrl.pathname.slice(1) || 'postgres';
  const db = defaultDatabaseId(database);
  applyBenchPolicies(store, db);
  const port = await standInServer();
  const deps = {
    config: { upstreamHost: '127.0.0.1', upstreamPort: port, upstreamTls: 'disable' as const, tlsMode: 'disabled' as const, captureParameters: false, maskComputed: 'mask' as const, redactor: new Redactor(), databaseId: defaultDatabaseId },
    enforcer: new Enforcer(store),
    analyzer: new SqlAnalyzer(),
    catalog: new Catalog({ host: catalogUrl.hostname, port: Number(catalogUrl.port || 5432), user: decodeURIComponent(catalogUrl.username || 'postgres'), password: decodeURIComponent(catalogUrl.password) || undefined }),
    capture,
    metrics: createProxyMetrics(createMetricsRegistry('pg-proxy'), () => capture.depth),
    logger,
    policiesReady: async () => true,
    registerCancelKey: () => undefined,
    unregister: () => undefined,
    instance: 'bench',
  };
  const clients: Client[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const client = new Client();
    new Session(client as unknown as Socket, deps);
    const ready = new Promise<void>((resolve) => (client.onReady = resolve));
    client.emit('data', encodeStartup({ user: 'postgres', database }));
    await ready;
    clients.push(client);
  }
  const random = (max: number) => 1 + Math.floor(Math.random() * max);
  /** Each client sends its next statement once the previous one is answered, `total` in all. */
  const drive = (total: number) =>
    new Promise<void>((resolve) => {
      let sent = 0;
      let done = 0;
      const next = (client: Client) => {
        if (sent >= total) return;
        sent++;
        client.emit('data', query(`SELECT abalance FROM pgbench_accounts WHERE aid = ${random(1_000_000)};`));
      };
      for (const client of clients) {
        client.onReady = () => {
          if (++done === total) return resolve();
          next(client);
        };
      }
      for (const client of clients) next(client);
    });
  await drive(count); // warm-up: JIT, the catalog snapshot
  const perStatement: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const before = process.cpuUsage();
    await drive(count);
    const used = process.cpuUsage(before);
    perStatement.push((used.user + used.system) / count);
  }
  const sorted = [...perStatement].sort((a, b) => a - b);
  process.stdout.write(
    `session CPU per select-only statement, µs: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} (rounds ${perStatement.map((v) => v.toFixed(1)).join(' ')}; ${count} statements per round, ${SESSIONS} sessions); records captured ${captured + capture.depth}; load average ${loadavg().map((v) => v.toFixed(1)).join(' ')}\n`,
  );
  process.exit(0);
}

void main();
