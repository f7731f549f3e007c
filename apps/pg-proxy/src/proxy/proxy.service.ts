import { readFileSync } from 'node:fs';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus } from '@vigil/messaging';
import { CONFIG, type ConfigOf, LOGGER, type Logger, Readiness, Registry } from '@vigil/platform';
import { CaptureBuffer } from '../capture/capture-buffer';
import type { pgProxyConfigSpec } from '../config/pg-proxy.config';
import { Enforcer } from '../enforcement/enforcer';
import { Catalog } from '../masking/catalog';
import { PolicyCache } from '../policies/policy-cache';
import { compileRedactionPattern, Redactor } from '../sql/redaction';
import { loadSqlParser, SqlAnalyzer } from '../sql/sql-analyzer';
import { createProxyMetrics } from './proxy.metrics';
import { loadTls, ProxyServer } from './proxy.server';
import type { ProxyConfigView } from './session';
import { socketPath } from './upstream';

type ProxyConfig = ConfigOf<typeof pgProxyConfigSpec>;

/** `name` -> `db_<name>` with characters a database id cannot hold replaced. */
export function defaultDatabaseId(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[^A-Za-z0-9]+/, '');
  return `db_${cleaned || 'unnamed'}`.slice(0, 131);
}

export function proxyConfigView(config: ProxyConfig): ProxyConfigView {
  const [host, port] = splitAddress(config.PROXY_UPSTREAM);
  const ids = new Map(config.PROXY_DATABASE_IDS.map((item) => item.split(':') as [string, string]));
  if (config.PROXY_TLS_MODE !== 'disabled' && (!config.PROXY_TLS_CERT_FILE || !config.PROXY_TLS_KEY_FILE)) {
    throw new Error(`PROXY_TLS_MODE=${config.PROXY_TLS_MODE} needs PROXY_TLS_CERT_FILE and PROXY_TLS_KEY_FILE`);
  }
  if (config.PROXY_UPSTREAM_SOCKET_DIR && (config.PROXY_UPSTREAM_TLS === 'require' || config.PROXY_UPSTREAM_TLS === 'verify-full')) {
    throw new Error(`PROXY_UPSTREAM_TLS=${config.PROXY_UPSTREAM_TLS} cannot be honoured through PROXY_UPSTREAM_SOCKET_DIR (PostgreSQL offers no TLS on its Unix-domain socket); unset one of them`);
  }
  return {
    upstreamHost: host,
    upstreamPort: port,
    upstreamSocket: config.PROXY_UPSTREAM_SOCKET_DIR ? socketPath(config.PROXY_UPSTREAM_SOCKET_DIR, port) : undefined,
    upstreamTls: config.PROXY_UPSTREAM_TLS,
    upstreamCa: config.PROXY_UPSTREAM_TLS_CA_FILE ? readFileSync(config.PROXY_UPSTREAM_TLS_CA_FILE) : undefined,
    tlsMode: config.PROXY_TLS_MODE,
    tlsContext: config.PROXY_TLS_MODE === 'disabled' ? undefined : loadTls(config.PROXY_TLS_CERT_FILE, config.PROXY_TLS_KEY_FILE),
    captureParameters: config.PROXY_CAPTURE_PARAMETERS,
    maskComputed: config.PROXY_MASK_COMPUTED,
    functionCalls: config.PROXY_FUNCTION_CALLS,
    redactor: new Redactor(config.PROXY_REDACT_PATTERNS.map(compileRedactionPattern)),
    databaseId: (name) => ids.get(name) ?? defaultDatabaseId(name),
  };
}

function splitAddress(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i).replace(/^\[|\]$/g, ''), Number(address.slice(i + 1))];
}

/** Wires the proxy: listener, enforcement, masking catalog, capture buffer; drains them at shutdown. */
@Injectable()
export class ProxyService implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  readonly capture: CaptureBuffer;
  readonly server: ProxyServer;
  private readonly catalog: Catalog;

  constructor(
    @Inject(CONFIG) private readonly config: ProxyConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(PolicyCache) policies: PolicyCache,
    @Inject(Readiness) readiness: Readiness,
    @Inject(Registry) registry: Registry,
  ) {
    const view = proxyConfigView(config);
    const overrides = new Map(config.PROXY_FAIL_MODE_OVERRIDES.map((item) => item.split(':') as [string, 'open' | 'closed']));
    // The metrics read the buffer's depth and the buffer counts losses into the metrics.
    const holder: { metrics?: ReturnType<typeof createProxyMetrics> } = {};
    this.capture = new CaptureBuffer({
      sink: bus,
      logger: logger.child({ component: 'capture' }),
      maxRecords: config.PROXY_BUFFER_MAX_RECORDS,
      spillDir: config.PROXY_SPILL_DIR,
      maxSpillBytes: config.PROXY_SPILL_MAX_BYTES,
      publishTimeoutMs: config.PROXY_PUBLISH_TIMEOUT_MS,
      failMode: (db) => overrides.get(db) ?? config.PROXY_FAIL_MODE,
      onDropped: (n) => holder.metrics?.dropped.inc(n),
    });
    const metrics = (holder.metrics = createProxyMetrics(registry, () => this.capture.depth));
    this.catalog = new Catalog({ host: config.PROXY_UPSTREAM_SOCKET_DIR ?? view.upstreamHost, port: view.upstreamPort, user: config.PROXY_CATALOG_USER, password: config.PROXY_CATALOG_PASSWORD, ssl: view.upstreamTls === 'require' || view.upstreamTls === 'verify-full' });
    this.server = new ProxyServer({
      host: config.PROXY_LISTEN_HOST,
      port: config.PROXY_LISTEN_PORT,
      config: view,
      enforcer: new Enforcer(policies.store),
      analyzer: new SqlAnalyzer(),
      catalog: this.catalog,
      capture: this.capture,
      metrics,
      logger: logger.child({ component: 'proxy' }),
      policiesReady: () => policies.whenReady(),
    });
    readiness.register('proxy', async () => this.listening);
  }

  private listening = false;

  async onApplicationBootstrap() {
    await loadSqlParser();
    this.capture.start();
    await this.server.listen();
    this.listening = true;
  }

  async onModuleDestroy() {
    this.listening = false;
    await this.server.stop(this.config.PROXY_SHUTDOWN_GRACE_MS);
    await this.catalog.close();
  }

  async beforeApplicationShutdown() {
    await this.capture.stop(this.config.PROXY_PUBLISH_TIMEOUT_MS);
    this.logger.info({ published: this.capture.published, left_on_disk: this.capture.spilled }, 'capture drained');
  }
}
