import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus } from '@vigil/messaging';
import { CONFIG, type ConfigOf, LOGGER, type Logger, Readiness, Registry, StartRefused } from '@vigil/platform';
import { CaptureBuffer } from '../capture/capture-buffer';
import type { pgProxyConfigSpec } from '../config/pg-proxy.config';
import { Enforcer } from '../enforcement/enforcer';
import { Catalog, type CatalogRoleReport } from '../masking/catalog';
import { PolicyCache } from '../policies/policy-cache';
import { compileRedactionPattern, Redactor } from '../sql/redaction';
import { loadSqlParser, SqlAnalyzer } from '../sql/sql-analyzer';
import { createProxyMetrics } from './proxy.metrics';
import { loadTls, ProxyServer } from './proxy.server';
import type { ProxyConfigView } from './session';
import { socketPath } from './upstream';
import { isLoopback, resolveUpstreamTls } from './upstream-tls';

type ProxyConfig = ConfigOf<typeof pgProxyConfigSpec>;

const CHOSEN = {
  explicit: 'set',
  'ca-file': 'verify-full: PROXY_UPSTREAM_TLS_CA_FILE is set',
  'default-remote': 'the default toward a server on another host',
  'default-local': 'the default toward a server on this host',
  socket: 'no TLS on the Unix-domain socket',
} as const;

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
  const tls = resolveUpstreamTls(config, host);
  return {
    upstreamHost: host,
    upstreamPort: port,
    upstreamSocket: config.PROXY_UPSTREAM_SOCKET_DIR ? socketPath(config.PROXY_UPSTREAM_SOCKET_DIR, port) : undefined,
    upstreamTls: tls.mode,
    upstreamTlsChosen: tls.chosen,
    upstreamCa: tls.ca,
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
    this.view = view;
    // The catalog connection reaches the same server the same way as the sessions: same TLS checks.
    this.catalog = new Catalog({
      host: config.PROXY_UPSTREAM_SOCKET_DIR ?? view.upstreamHost,
      port: view.upstreamPort,
      user: config.PROXY_CATALOG_USER,
      password: config.PROXY_CATALOG_PASSWORD,
      tls: { mode: view.upstreamTls, ca: view.upstreamCa },
    });
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
  private readonly view: ProxyConfigView;
  /** What the start-up check found of the catalog role (docs/proxy.md#catalog-role). */
  catalogRole?: CatalogRoleReport;

  async onApplicationBootstrap() {
    await loadSqlParser();
    await this.checkCatalogRole();
    this.capture.start();
    await this.server.listen();
    this.listening = true;
  }

  /**
   * Before any client is served: the catalog connection opens (its TLS checked as the sessions'
   * is), and its role is refused if it can do more than read the catalog, unless
   * PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE=true; a role that cannot read the catalogs masking needs is
   * refused whatever that setting. What was found is logged either way.
   */
  private async checkCatalogRole(): Promise<void> {
    const { config, view } = this;
    const where = view.upstreamSocket ?? `${view.upstreamHost}:${view.upstreamPort}`;
    const tls = { upstream_tls: view.upstreamTls, upstream_tls_chosen: view.upstreamTlsChosen, upstream_tls_ca: Boolean(view.upstreamCa) };
    let report: CatalogRoleReport;
    try {
      report = await this.catalog.checkRole(config.PROXY_CATALOG_DATABASE);
    } catch (error) {
      const e = error as { message?: string; code?: string };
      throw new StartRefused(
        `the catalog connection (PROXY_CATALOG_USER "${config.PROXY_CATALOG_USER}" to ${where}, database "${config.PROXY_CATALOG_DATABASE}", ` +
          `PROXY_UPSTREAM_TLS=${view.upstreamTls}${view.upstreamTlsChosen === 'explicit' ? '' : ` (${CHOSEN[view.upstreamTlsChosen ?? 'explicit']})`}) failed: ${e.message ?? String(error)}${e.code ? ` [${e.code}]` : ''}`,
      );
    }
    this.catalogRole = report;
    const found = { role: report.role, server_version: report.serverVersion, catalog_tls: report.tls, privileged: report.privileged, unreadable_catalogs: report.unreadable, ...tls };
    if (report.unreadable.length) {
      throw new StartRefused(
        `the catalog role "${report.role}" may not read ${report.unreadable.map((t) => `pg_catalog.${t}`).join(', ')}, which masking needs: ` +
          `GRANT SELECT ON ${report.unreadable.map((t) => `pg_catalog.${t}`).join(', ')} TO ${report.role} (docs/proxy.md#catalog-role)`,
      );
    }
    if (report.privileged.length && !config.PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE) {
      this.logger.error(found, 'catalog role refused');
      throw new StartRefused(
        `PROXY_CATALOG_USER connects as the PostgreSQL role "${report.role}", which ${report.privileged.join(', ')}. The catalog connection needs only ` +
          'CONNECT and reads of pg_catalog (docs/proxy.md#catalog-role): give it a role of its own with those, or set PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE=true to run as this role anyway.',
      );
    }
    if (report.privileged.length) this.logger.warn(found, 'catalog role is privileged: allowed by PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE');
    else this.logger.info(found, 'catalog role checked');
    if (view.upstreamTls !== 'verify-full' && !view.upstreamSocket && !isLoopback(view.upstreamHost)) {
      this.logger.warn(
        { upstream: where, upstream_tls: view.upstreamTls },
        view.upstreamTls === 'disable' ? 'sessions and catalog reads reach the server in plaintext (PROXY_UPSTREAM_TLS=disable)' : "the server's certificate is not checked (PROXY_UPSTREAM_TLS=require)",
      );
    }
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
