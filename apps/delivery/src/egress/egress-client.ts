import { promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { isPublicAddress } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the default asks the system resolver). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface EgressOptions {
  /** DELIVERY_ALLOW_INSECURE_TARGETS, for local and test use only. */
  allowInsecureTargets: boolean;
  resolver?: HostResolver;
  /** Connections kept open per origin (keep-alive pool). */
  maxSocketsPerOrigin?: number;
  /** How long an idle pooled connection is kept when the server does not say (default 30 s). */
  keepAliveMs?: number;
}

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string; code: 'invalid_url' | 'insecure_scheme' | 'credentials_in_url' | 'private_address' | 'unresolvable' };

export interface EgressRequest {
  url: string;
  method?: 'POST' | 'PUT' | 'PATCH';
  headers: Record<string, string>;
  body: string | Buffer;
  /** The whole exchange (connect, send, response headers and body) must finish within this. */
  timeoutMs: number;
  /** Response body bytes kept for the caller (the rest is read and dropped). */
  keepResponseBytes?: number;
}

export interface EgressResult {
  /** Set when a response arrived in time. */
  statusCode: number | null;
  latencyMs: number;
  /** Why there is no usable response: refused target, connection error, timeout. */
  error: string | null;
  /** The request never left because the target is not allowed. */
  refused: boolean;
  responseBody: string;
}

/** The target is not allowed: raised inside the connection path, so nothing is sent. */
export class EgressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefusedError';
  }
}

/**
 * Outgoing HTTP for webhooks and alert destinations, safe against SSRF while the guard is on:
 * - only `https://` URLs without credentials;
 * - the host must resolve to public addresses only, checked when the target is saved (checkTarget)
 *   and again when connecting: the socket connects to an address our own lookup vetted in that very
 *   call, so a DNS answer that changes between the checks (rebinding) is caught; literal addresses
 *   (in any encoding the URL parser accepts: `2130706433`, `0x7f000001`, `[::ffff:127.0.0.1]`) are
 *   checked the same way; the connected socket's peer address is verified once more;
 * - redirects are never followed (a 3xx is just a non-2xx answer).
 */
export class EgressClient {
  private readonly resolver: HostResolver;
  /** One keep-alive connection pool per origin (undici), every new connection through `connect`. */
  private readonly agent: Agent;

  constructor(private readonly options: EgressOptions) {
    this.resolver = options.resolver ?? systemResolver;
    const baseConnect = buildConnector({ lookup: this.lookup });
    // Every new connection: the address comes from our vetted lookup, and the connected peer is checked once more.
    const connect: buildConnector.connector = (connectOptions, callback) =>
      baseConnect(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('connection failed'), null);
        const peer = socket.remoteAddress;
        if (this.guardOn && (!peer || !isPublicAddress(peer))) {
          socket.destroy();
          return callback(new EgressRefusedError(`connected to non-public address ${peer ?? 'unknown'}`), null);
        }
        this.connectionsOpened++;
        callback(null, socket);
      });
    this.agent = new Agent({
      connect,
      connections: options.maxSocketsPerOrigin ?? 64,
      keepAliveTimeout: options.keepAliveMs ?? 30_000,
      keepAliveMaxTimeout: 600_000,
    });
  }

  /** New connections opened so far (each one resolved, vetted and peer-checked); reused ones are not counted. */
  connectionsOpened = 0;

  get guardOn(): boolean {
    return !this.options.allowInsecureTargets;
  }

  /** Save-time check of a target URL (also run before every send). */
  async checkTarget(raw: string): Promise<TargetCheck> {
    const syntax = this.checkSyntax(raw);
    if (!syntax.ok || !this.guardOn) return syntax;
    const host = syntax.url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      return isPublicAddress(host)
        ? syntax
        : { ok: false, code: 'private_address', reason: `${syntax.url.hostname} is not a public address` };
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolver(host);
    } catch (error) {
      return { ok: false, code: 'unresolvable', reason: `${host} does not resolve (${(error as Error).message})` };
    }
    if (!addresses.length) return { ok: false, code: 'unresolvable', reason: `${host} does not resolve` };
    const bad = addresses.filter((a) => !isPublicAddress(a.address));
    if (bad.length) {
      return { ok: false, code: 'private_address', reason: `${host} resolves to non-public address ${bad[0]!.address}` };
    }
    return syntax;
  }

  private checkSyntax(raw: string): TargetCheck {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, code: 'invalid_url', reason: 'is not a valid absolute URL' };
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      return { ok: false, code: 'insecure_scheme', reason: `scheme ${url.protocol} is not allowed` };
    }
    if (url.username || url.password) return { ok: false, code: 'credentials_in_url', reason: 'must not carry credentials' };
    if (this.guardOn && url.protocol !== 'https:') {
      return { ok: false, code: 'insecure_scheme', reason: 'must use https://' };
    }
    return { ok: true, url };
  }

  /**
   * The connection-time check: every socket the agents open resolves through here, and only
   * public addresses are handed to `connect`.
   */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    const all = (options as { all?: boolean }).all === true;
    this.resolver(hostname).then(
      (addresses) => {
        const usable = this.guardOn ? addresses.filter((a) => isPublicAddress(a.address)) : addresses;
        if (!usable.length) {
          const error = new EgressRefusedError(`${hostname} resolves to no public address (${addresses.map((a) => a.address).join(', ') || 'none'})`);
          return (callback as (e: Error) => void)(error);
        }
        if (all) return (callback as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        (callback as (e: null, a: string, f: number) => void)(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => (callback as (e: Error) => void)(error),
    );
  };

  async send(request: EgressRequest): Promise<EgressResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const check = this.checkSyntax(request.url);
    if (!check.ok) return { statusCode: null, latencyMs: 0, error: `target refused: ${check.reason}`, refused: true, responseBody: '' };
    const url = check.url;
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (this.guardOn && isIP(literal) && !isPublicAddress(literal)) {
      return { statusCode: null, latencyMs: 0, error: `target refused: ${url.hostname} is not a public address`, refused: true, responseBody: '' };
    }
    const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no complete answer within ${request.timeoutMs} ms`)), request.timeoutMs);
    try {
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method ?? 'POST',
        headers: { ...request.headers, 'content-length': String(body.length) },
        body,
        signal: controller.signal,
      });
      // The answer counts only once its body is complete (within the same deadline); bytes past `keep` are read and dropped.
      const keep = request.keepResponseBytes ?? 1024;
      const chunks: Buffer[] = [];
      let kept = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (kept < keep) {
          const part = chunk.subarray(0, keep - kept);
          chunks.push(part);
          kept += part.length;
        }
      }
      return { statusCode: response.statusCode, latencyMs: elapsed(), error: null, refused: false, responseBody: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      const refused = findRefusal(error);
      if (refused) return { statusCode: null, latencyMs: elapsed(), error: `target refused: ${refused.message}`, refused: true, responseBody: '' };
      const message = controller.signal.aborted ? `no complete answer within ${request.timeoutMs} ms` : errorText(error);
      return { statusCode: null, latencyMs: elapsed(), error: message, refused: false, responseBody: '' };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    void this.agent.destroy().catch(() => undefined);
  }
}

/** The refusal raised in the connection path, wherever the HTTP client wrapped it. */
function findRefusal(error: unknown): EgressRefusedError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof EgressRefusedError) return e;
    if (e instanceof AggregateError) {
      const inner = e.errors.find((x) => x instanceof EgressRefusedError) as EgressRefusedError | undefined;
      if (inner) return inner;
    }
  }
  return undefined;
}

function errorText(error: unknown): string {
  const e = error as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const message = e?.message || e?.code || String(error);
  const cause = e?.cause?.message || e?.cause?.code;
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
