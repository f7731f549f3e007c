import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AuditRecord, type PolicySnapshot, Topics } from '@vigil/contracts';
import { MemoryBus } from '@vigil/messaging';
import { createLogger, createMetricsRegistry } from '@vigil/platform';
import { type TestDatabase, testServerUrl, waitFor } from '@vigil/testing';
import type { Client } from 'pg';
import { CaptureBuffer, type RecordSink } from '../capture/capture-buffer';
import { Enforcer } from '../enforcement/enforcer';
import { Catalog } from '../masking/catalog';
import { PolicyStore } from '../policies/policy-store';
import { encodeCancel } from '../protocol/messages';
import { createProxyMetrics } from '../proxy/proxy.metrics';
import { ProxyServer } from '../proxy/proxy.server';
import type { ProxyConfigView } from '../proxy/session';
import { Redactor } from '../sql/redaction';
import { defaultDatabaseId } from '../proxy/proxy.service';
import { socketPath } from '../proxy/upstream';
import { loadSqlParser, SqlAnalyzer } from '../sql/sql-analyzer';

export type CapturedRecord = AuditRecord & { details: Record<string, any> };

export interface TestProxy {
  port: number;
  store: PolicyStore;
  records: CapturedRecord[];
  server: ProxyServer;
  capture: CaptureBuffer;
  /** A connection string through the proxy to a database of the test server. */
  url(database: string, user?: string): string;
  close(): Promise<void>;
}

let version = 0;

/** A policy snapshot as policy.events.v1 carries it. */
export function snapshot(partial: Pick<PolicySnapshot, 'type' | 'databases' | 'config'> & Partial<PolicySnapshot>): PolicySnapshot {
  const now = new Date().toISOString();
  return {
    id: `pol_${Math.random().toString(36).slice(2, 12)}`,
    name: `policy ${++version}`,
    enabled: true,
    description: '',
    version: 1,
    created_at: now,
    updated_at: now,
    deleted: false,
    ...partial,
  };
}

/**
 * The proxy's real parts (sessions, enforcement with the shared engine, catalog, capture buffer)
 * in this process, in front of the test PostgreSQL server, publishing on a real in-process bus
 * whose audit.ingest the test reads. Policies are applied as snapshots, as the bus would deliver them.
 */
export async function startTestProxy(options: { config?: Partial<ProxyConfigView>; sink?: RecordSink; spillDir?: string; maxRecords?: number; maxSpillBytes?: number; failMode?: 'open' | 'closed'; /** Reach the server through its Unix-domain socket in this directory. */ socketDir?: string; /** The catalog connection's role (default: the test server URL's). */ catalogUser?: string; catalogPassword?: string } = {}): Promise<TestProxy> {
  await loadSqlParser();
  const upstream = new URL(testServerUrl());
  const bus = new MemoryBus();
  const records: CapturedRecord[] = [];
  await bus.subscribe({ groupId: 'test-reader', topics: [Topics.auditIngest], handler: async (messages) => void records.push(...messages.map((m) => JSON.parse(m.value) as CapturedRecord)) });
  const logger = createLogger('pg-proxy', process.env.TEST_LOG_LEVEL ?? 'silent');
  const store = new PolicyStore();
  const spillDir = options.spillDir ?? mkdtempSync(join(tmpdir(), 'pg-proxy-spill-'));
  const capture = new CaptureBuffer({
    sink: options.sink ?? bus,
    logger,
    maxRecords: options.maxRecords ?? 10_000,
    spillDir,
    maxSpillBytes: options.maxSpillBytes ?? 10_000_000,
    publishTimeoutMs: 2000,
    failMode: () => options.failMode ?? 'open',
  });
  capture.start();
  const metrics = createProxyMetrics(createMetricsRegistry('pg-proxy'), () => capture.depth);
  const config: ProxyConfigView = {
    upstreamHost: upstream.hostname,
    upstreamPort: Number(upstream.port || 5432),
    upstreamTls: 'disable',
    tlsMode: 'disabled',
    captureParameters: false,
    maskComputed: 'mask',
    redactor: new Redactor(),
    databaseId: defaultDatabaseId,
    ...(options.socketDir ? { upstreamSocket: socketPath(options.socketDir, Number(upstream.port || 5432)) } : {}),
    ...options.config,
  };
  const catalog = new Catalog({
    host: options.socketDir ?? config.upstreamHost,
    port: config.upstreamPort,
    user: options.catalogUser ?? decodeURIComponent(upstream.username || 'postgres'),
    password: options.catalogUser ? options.catalogPassword : decodeURIComponent(upstream.password) || undefined,
    // As the service does: the catalog connection has the sessions' TLS checks.
    tls: { mode: config.upstreamTls, ca: config.upstreamCa },
  });
  const server = new ProxyServer({
    host: '127.0.0.1',
    port: 0,
    config,
    enforcer: new Enforcer(store),
    analyzer: new SqlAnalyzer(),
    catalog,
    capture,
    metrics,
    logger,
    policiesReady: async () => true,
  });
  await server.listen();
  const port = server.address.port;
  return {
    port,
    store,
    records,
    server,
    capture,
    url: (database, user) => {
      const u = new URL(testServerUrl());
      u.host = `127.0.0.1:${port}`;
      u.pathname = `/${database}`;
      if (user) {
        u.username = user;
        u.password = '';
      }
      return u.toString();
    },
    close: async () => {
      await server.stop(0);
      await capture.stop(2000);
      await catalog.close();
      await bus.close();
      if (!options.spillDir) rmSync(spillDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `pg_sleep(30)` on a client connected through the proxy, waits until the server runs it, and
 * sends a CancelRequest to the proxy with the key the client holds. Resolves with the sleep's
 * error code, how long it ran, the server backend's pid and the pid the client was given.
 */
export async function cancelLongSleep(proxyPort: number, client: Client, db: TestDatabase): Promise<{ code: string; ms: number; backend: number; clientPid: number }> {
  const key = client as unknown as { processID: number; secretKey: number };
  const backend = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  const started = Date.now();
  const sleeping = client.query('SELECT pg_sleep(30)').catch((e: { code: string }) => e);
  await waitFor(async () => (await db.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE 'SELECT pg_sleep%' AND state = 'active'`, [backend])).length > 0, 5000, 'the sleep to start');
  const secret = Buffer.alloc(4);
  secret.writeInt32BE(key.secretKey);
  await new Promise<void>((resolve) => {
    const s = connect({ host: '127.0.0.1', port: proxyPort }, () => s.end(encodeCancel(key.processID, secret)));
    s.on('close', () => resolve());
  });
  const { code } = (await sleeping) as { code: string };
  return { code, ms: Date.now() - started, backend, clientPid: key.processID };
}
