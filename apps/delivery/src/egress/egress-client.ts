import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { isPublicAddress } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the default asks the system resolver). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface EgressOptions {
  /** decisions.md: DELIVERY_ALLOW_INSECURE_TARGETS, for local and test use only. */
  allowInsecureTargets: boolean;
  resolver?: HostResolver;
  /** Sockets kept open per origin (keep-alive). */
  maxSocketsPerOrigin?: number;
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
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: EgressOptions) {
    this.resolver = options.resolver ?? systemResolver;
    const lookup = this.lookup;
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerOrigin ?? 64, lookup, scheduling: 'lifo' as const };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

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
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<EgressResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<EgressResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const req = transport.request(url, {
        method: request.method ?? 'POST',
        agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        headers: { ...request.headers, 'content-length': String(body.length) },
      });
      const timer = setTimeout(() => {
        req.destroy(new Error(`no complete answer within ${request.timeoutMs} ms`));
      }, request.timeoutMs);
      req.on('socket', (socket: Socket) => {
        const verify = () => {
          const peer = socket.remoteAddress;
          if (this.guardOn && peer && !isPublicAddress(peer)) socket.destroy(new EgressRefusedError(`connected to non-public address ${peer}`));
        };
        if (socket.connecting) socket.prependOnceListener('connect', verify);
        else verify();
      });
      req.on('error', (error: Error) => {
        const refused = error instanceof EgressRefusedError;
        finish({ statusCode: null, error: refused ? `target refused: ${error.message}` : error.message, refused, responseBody: '' });
      });
      req.on('response', (res) => {
        const keep = request.keepResponseBytes ?? 1024;
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < keep) {
            chunks.push(chunk.subarray(0, keep - kept));
            kept += Math.min(chunk.length, keep - kept);
          }
        });
        res.on('end', () => finish({ statusCode: res.statusCode ?? null, error: null, refused: false, responseBody: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => finish({ statusCode: null, error: error.message, refused: false, responseBody: '' }));
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
