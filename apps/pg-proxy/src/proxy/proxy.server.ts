import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { createSecureContext } from 'node:tls';
import type { Logger } from '@vigil/platform';
import type { CaptureBuffer } from '../capture/capture-buffer';
import type { Enforcer } from '../enforcement/enforcer';
import type { Catalog } from '../masking/catalog';
import { encodeCancel } from '../protocol/messages';
import type { SqlAnalyzer } from '../sql/sql-analyzer';
import type { ProxyMetrics } from './proxy.metrics';
import { type ProxyConfigView, Session } from './session';
import { openUpstream } from './upstream';

export interface ProxyServerOptions {
  host: string;
  port: number;
  config: ProxyConfigView;
  enforcer: Enforcer;
  analyzer: SqlAnalyzer;
  catalog: Catalog;
  capture: CaptureBuffer;
  metrics: ProxyMetrics;
  logger: Logger;
  policiesReady(): Promise<boolean>;
}

/** TLS settings toward clients, read from files at start (a missing file fails the start). */
export function loadTls(certFile: string | undefined, keyFile: string | undefined) {
  if (!certFile || !keyFile) return undefined;
  return createSecureContext({ cert: readFileSync(certFile), key: readFileSync(keyFile) });
}

/**
 * The listening side: accepts client connections, gives each a Session, and routes cancel
 * requests by the key this proxy handed out to the server backend it stands for.
 */
export class ProxyServer {
  private server: Server | undefined;
  private readonly sessions = new Set<Session>();
  private readonly byKey = new Map<string, Session>();
  readonly instance = `${hostname()}:${process.pid}`;

  constructor(private readonly options: ProxyServerOptions) {}

  get sessionCount(): number {
    return this.sessions.size;
  }

  get address(): { host: string; port: number } {
    const a = this.server?.address();
    return typeof a === 'object' && a ? { host: a.address, port: a.port } : { host: this.options.host, port: this.options.port };
  }

  async listen(): Promise<void> {
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port, this.options.host, () => resolve());
    });
    this.options.logger.info({ ...this.address, upstream: this.options.config.upstreamSocket ?? `${this.options.config.upstreamHost}:${this.options.config.upstreamPort}` }, 'proxy listening');
  }

  private accept(socket: Socket) {
    const session = new Session(socket, {
      config: this.options.config,
      enforcer: this.options.enforcer,
      analyzer: this.options.analyzer,
      catalog: this.options.catalog,
      capture: this.options.capture,
      metrics: this.options.metrics,
      logger: this.options.logger,
      policiesReady: this.options.policiesReady,
      instance: this.instance,
      registerCancelKey: (s) => this.byKey.set(key(s.proxyPid, s.proxySecret), s),
      unregister: (s) => {
        this.sessions.delete(s);
        this.byKey.delete(key(s.proxyPid, s.proxySecret));
      },
    });
    session.onCancel = (pid, secret) => void this.cancel(pid, secret);
    this.sessions.add(session);
  }

  /** Forwards a cancel to the server backend behind the proxy key; unknown keys are ignored, as the server does. */
  async cancel(pid: number, secret: Buffer): Promise<void> {
    const session = this.byKey.get(key(pid, secret));
    if (!session?.serverKey) return;
    const packet = encodeCancel(session.serverKey.pid, session.serverKey.secret);
    await openUpstream(this.options.config).then(
      (socket) =>
        new Promise<void>((resolve) => {
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.end(packet);
        }),
      () => undefined,
    );
  }

  /**
   * Graceful stop: no new connections; sessions get `graceMs` to finish (idle ones are closed at
   * once, sessions inside a transaction or a statement are left to complete), then the rest are
   * terminated with 57P01.
   */
  async stop(graceMs: number): Promise<void> {
    const closing = new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    const deadline = Date.now() + graceMs;
    while (this.sessions.size && Date.now() < deadline) {
      for (const s of this.sessions) if (s.isIdle) s.terminate();
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const s of this.sessions) s.terminate();
    await closing;
  }
}

function key(pid: number, secret: Buffer): string {
  return `${pid}:${secret.toString('hex')}`;
}
