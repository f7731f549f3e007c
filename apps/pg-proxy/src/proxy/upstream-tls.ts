import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { ConfigError } from '@vigil/platform';

/**
 * TLS toward the PostgreSQL server, for the sessions and for the catalog connection alike:
 * - `verify-full`: TLS, the certificate chain checked against PROXY_UPSTREAM_TLS_CA_FILE (or, without
 *   one, Node's bundled public CAs) and the certificate's names against the host of PROXY_UPSTREAM;
 * - `require`: TLS without any check of the certificate (encrypts, but anyone on the path can
 *   answer in the server's place);
 * - `disable`: plaintext.
 * There is no `prefer`: a server (or anyone in between) answering "no TLS" would turn it into
 * plaintext without a word.
 */
export type UpstreamTlsMode = 'disable' | 'require' | 'verify-full';

export interface UpstreamTls {
  mode: UpstreamTlsMode;
  /** PEM CA certificates the server's chain must end in (verify-full); unset: Node's bundled CAs. */
  ca?: Buffer;
  /** Why this mode: set explicitly, implied by a CA file, or the default for where the server is. */
  chosen: 'explicit' | 'ca-file' | 'default-remote' | 'default-local' | 'socket';
}

/** 127.0.0.0/8, ::1 and localhost: traffic to them never leaves the host. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export interface UpstreamTlsSettings {
  PROXY_UPSTREAM_TLS?: UpstreamTlsMode;
  PROXY_UPSTREAM_TLS_CA_FILE?: string;
  PROXY_UPSTREAM_SOCKET_DIR?: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;

/**
 * The upstream TLS of a configuration, checked as a whole; every contradiction is named and the
 * proxy refuses to start (ConfigError):
 * - a CA file makes `verify-full` the mode; `disable` or `require` with one is refused (a CA that
 *   nothing checks against is a mistake, not a choice);
 * - unset, the mode is `verify-full` toward a server on another host, `disable` toward one on this
 *   host (loopback) or through its Unix-domain socket, where PostgreSQL offers no TLS;
 * - the Unix-domain socket with `require`, `verify-full` or a CA file is refused;
 * - the CA file must be readable and hold PEM certificates.
 */
export function resolveUpstreamTls(settings: UpstreamTlsSettings, host: string, read: (path: string) => Buffer = readFileSync): UpstreamTls {
  const problems: { variable: string; message: string }[] = [];
  const explicit = settings.PROXY_UPSTREAM_TLS;
  const caFile = settings.PROXY_UPSTREAM_TLS_CA_FILE;
  const socket = settings.PROXY_UPSTREAM_SOCKET_DIR;
  if (socket && (explicit === 'require' || explicit === 'verify-full')) {
    problems.push({
      variable: 'PROXY_UPSTREAM_TLS',
      message: `is ${explicit}, which cannot be honoured through PROXY_UPSTREAM_SOCKET_DIR (PostgreSQL offers no TLS on its Unix-domain socket); unset one of them`,
    });
  }
  if (socket && caFile) {
    problems.push({
      variable: 'PROXY_UPSTREAM_TLS_CA_FILE',
      message: 'is set, but PROXY_UPSTREAM_SOCKET_DIR reaches the server through its Unix-domain socket, where PostgreSQL offers no TLS; unset one of them',
    });
  }
  if (caFile && (explicit === 'disable' || explicit === 'require')) {
    problems.push({
      variable: 'PROXY_UPSTREAM_TLS',
      message:
        `is ${explicit}, which ${explicit === 'disable' ? 'sends everything in plaintext' : 'does not check the server certificate'}, but PROXY_UPSTREAM_TLS_CA_FILE is set: ` +
        'unset PROXY_UPSTREAM_TLS (verify-full is the mode with a CA file) or unset PROXY_UPSTREAM_TLS_CA_FILE',
    });
  }
  let ca: Buffer | undefined;
  if (caFile && !socket) {
    try {
      ca = read(caFile);
      if (!PEM_CERTIFICATE.test(ca.toString('latin1'))) problems.push({ variable: 'PROXY_UPSTREAM_TLS_CA_FILE', message: `is not a PEM certificate file (${caFile})` });
    } catch (error) {
      problems.push({ variable: 'PROXY_UPSTREAM_TLS_CA_FILE', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${caFile})` });
    }
  }
  if (problems.length) throw new ConfigError('pg-proxy', problems);
  if (socket) return { mode: 'disable', chosen: explicit ? 'explicit' : 'socket' };
  if (explicit) return { mode: explicit, ...(ca ? { ca } : {}), chosen: 'explicit' };
  if (ca) return { mode: 'verify-full', ca, chosen: 'ca-file' };
  return isLoopback(host) ? { mode: 'disable', chosen: 'default-local' } : { mode: 'verify-full', chosen: 'default-remote' };
}

/** Node's TLS options for a connection to `host` in this mode (undefined: plaintext). */
export function tlsOptions(tls: Pick<UpstreamTls, 'mode' | 'ca'>, host: string): ConnectionOptions | undefined {
  if (tls.mode === 'disable') return undefined;
  const bare = host.replace(/^\[|\]$/g, '');
  return {
    // The name the certificate must carry: a DNS name (sent as SNI too) or an IP address (checked
    // against the certificate's IP addresses; RFC 6066 forbids an address as SNI).
    host: bare,
    ...(isIP(bare) ? {} : { servername: bare }),
    rejectUnauthorized: tls.mode === 'verify-full',
    ...(tls.mode === 'verify-full' && tls.ca ? { ca: tls.ca } : {}),
  };
}

/** node-postgres' `ssl` option for the catalog connection: the same checks as the sessions' leg. */
export function pgSslOption(tls: Pick<UpstreamTls, 'mode' | 'ca'>): false | ConnectionOptions {
  if (tls.mode === 'disable') return false;
  // node-postgres passes the host it connects to, and the server name for DNS names, itself.
  return { rejectUnauthorized: tls.mode === 'verify-full', ...(tls.mode === 'verify-full' && tls.ca ? { ca: tls.ca } : {}) };
}

/** A TLS failure toward the server, told apart from an unreachable one in logs and records. */
export class UpstreamTlsError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UpstreamTlsError';
  }
}
