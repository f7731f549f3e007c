import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions, PeerCertificate, TlsOptions } from 'node:tls';
import type { RpcCredentials } from '@vigil/contracts';
import { ConfigError } from '../config/config';

/**
 * How a service proves who it is on RPC, and checks who calls it: mutual TLS with certificates from
 * one CA, the identity being the certificate's common name (a service name). Why TLS rather than
 * signed tokens, and how to issue the certificates: docs/architecture.md#internal-calls.
 */
export type { RpcCredentials } from '@vigil/contracts';


interface RpcSecurityConfig {
  RPC_HOST: string;
  RPC_TLS_CA_FILE?: string;
  RPC_TLS_CERT_FILE?: string;
  RPC_TLS_KEY_FILE?: string;
  RPC_INSECURE: boolean;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * The RPC credentials of `service` from its configuration, checked: all three files or none, the
 * certificate issued to `service` by the CA, the key its own, the certificate valid now. Without
 * them the service refuses to start unless RPC_INSECURE=true (then: null, plain TCP, no identity).
 * `given`: credentials the launcher made (the standalone process), used instead of files.
 */
export function rpcCredentialsFromConfig(service: string, config: RpcSecurityConfig, given?: RpcCredentials | null): RpcCredentials | null {
  const problems: { variable: string; message: string }[] = [];
  if (!isIP(config.RPC_HOST) && !HOST_NAME.test(config.RPC_HOST)) {
    problems.push({ variable: 'RPC_HOST', message: `must be an IP address or a host name (got "${config.RPC_HOST.slice(0, 60)}")` });
  }
  const files = { RPC_TLS_CA_FILE: config.RPC_TLS_CA_FILE, RPC_TLS_CERT_FILE: config.RPC_TLS_CERT_FILE, RPC_TLS_KEY_FILE: config.RPC_TLS_KEY_FILE };
  const set = Object.entries(files).filter(([, v]) => v);
  let credentials: RpcCredentials | null = given ?? null;
  if (!credentials && set.length > 0 && set.length < 3) {
    for (const [variable, value] of Object.entries(files)) {
      if (!value) problems.push({ variable, message: 'is required when any RPC_TLS_*_FILE is set' });
    }
  } else if (!credentials && set.length === 3) {
    const read: Record<string, string> = {};
    for (const [variable, path] of set) {
      try {
        read[variable] = readFileSync(path!, 'utf8');
      } catch (error) {
        problems.push({ variable, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
      }
    }
    if (Object.keys(read).length === 3) {
      credentials = { identity: service, ca: read.RPC_TLS_CA_FILE!, cert: read.RPC_TLS_CERT_FILE!, key: read.RPC_TLS_KEY_FILE! };
    }
  } else if (!credentials && !config.RPC_INSECURE) {
    problems.push({
      variable: 'RPC_TLS_CERT_FILE',
      message:
        'is required with RPC_TLS_CA_FILE and RPC_TLS_KEY_FILE: services authenticate each other on RPC with certificates (docs/operations.md#rpc-certificates); RPC_INSECURE=true turns this off for local development only',
    });
  }
  if (credentials && problems.length === 0) {
    const wrong = checkRpcCredentials(service, credentials);
    if (wrong) problems.push({ variable: given ? 'RPC_TLS_CERT_FILE' : 'RPC_TLS_CERT_FILE', message: wrong });
  }
  if (problems.length > 0) throw new ConfigError(service, problems);
  return credentials;
}

/** Why these credentials cannot serve as `service`'s, or undefined when they can. */
export function checkRpcCredentials(service: string, credentials: RpcCredentials, now = new Date()): string | undefined {
  let cert: X509Certificate;
  let ca: X509Certificate;
  try {
    cert = new X509Certificate(credentials.cert);
  } catch {
    return 'is not a PEM certificate';
  }
  try {
    ca = new X509Certificate(credentials.ca);
  } catch {
    return 'RPC_TLS_CA_FILE is not a PEM certificate';
  }
  const name = commonName(cert.subject);
  if (name !== service) return `is issued to "${name ?? cert.subject}", not to this service ("${service}"): each service has its own certificate`;
  if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) return 'is not signed by the CA of RPC_TLS_CA_FILE';
  if (new Date(cert.validTo) <= now || new Date(cert.validFrom) > now) return `is not valid now (valid from ${cert.validFrom} to ${cert.validTo})`;
  try {
    if (!cert.checkPrivateKey(createPrivateKey(credentials.key))) return 'does not belong to the key in RPC_TLS_KEY_FILE';
  } catch {
    return 'RPC_TLS_KEY_FILE is not a PEM private key';
  }
  return undefined;
}

function commonName(subject: string): string | undefined {
  return /(?:^|\n)CN=([^\n]*)/.exec(subject)?.[1];
}

/**
 * TLS options of an RPC listener: TLS 1.3, a client certificate from the CA required. `noDelay` on
 * both ends: one connection carries every concurrent call of a client, so frames are small writes
 * pipelined on one socket, which Nagle's algorithm would hold back until the previous one is
 * acknowledged.
 */
export function rpcServerTls(credentials: RpcCredentials): TlsOptions {
  return { ca: credentials.ca, cert: credentials.cert, key: credentials.key, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3', noDelay: true };
}

/**
 * TLS options of an RPC client of `service`: the server's certificate must chain to the CA and be
 * issued to `service` (not merely any service: a compromised pg-proxy listening on auth's address
 * cannot answer as auth). (`noDelay` is an option of socket.connect that tls.connect passes on.)
 */
export function rpcClientTls(credentials: RpcCredentials, service: string): ConnectionOptions & { noDelay: boolean } {
  return {
    ca: credentials.ca,
    cert: credentials.cert,
    key: credentials.key,
    minVersion: 'TLSv1.3',
    noDelay: true,
    checkServerIdentity: (_host: string, cert: PeerCertificate) =>
      cert.subject?.CN === service
        ? undefined
        : Object.assign(new Error(`the RPC server is "${cert.subject?.CN ?? 'unknown'}", not "${service}"`), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }),
  };
}

/** The identity (certificate common name) of an authenticated TLS peer, or undefined. */
export function peerIdentity(socket: unknown): string | undefined {
  const tls = socket as { authorized?: boolean; getPeerCertificate?(): PeerCertificate } | undefined;
  if (!tls?.getPeerCertificate || tls.authorized !== true) return undefined;
  const cn = tls.getPeerCertificate()?.subject?.CN;
  return typeof cn === 'string' ? cn : undefined;
}
