import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { encodeSslRequest } from '../protocol/messages';
import type { ProxyConfigView } from './session';
import { tlsOptions, UpstreamTlsError } from './upstream-tls';

/** The socket file of a PostgreSQL server listening in `directory` on `port` (libpq's `host=/dir`). */
export function socketPath(directory: string, port: number): string {
  return `${directory.replace(/\/+$/, '')}/.s.PGSQL.${port}`;
}

/**
 * Opens a connection to the real server, negotiated as PROXY_UPSTREAM_TLS says, and resolves once
 * it can carry the startup packet. A server that declines TLS when it is asked for is never used in
 * plaintext; with `verify-full` a certificate that does not chain to the CA or does not name the
 * host is refused (UpstreamTlsError). Through a Unix-domain socket (PROXY_UPSTREAM_SOCKET_DIR)
 * there is no TLS: PostgreSQL does not offer it there, and the traffic never leaves the host.
 */
export function openUpstream(config: ProxyConfigView): Promise<Socket> {
  const { upstreamHost: host, upstreamPort: port, upstreamTls, upstreamSocket } = config;
  return new Promise((resolve, reject) => {
    const socket = upstreamSocket ? netConnect({ path: upstreamSocket }) : netConnect({ host, port });
    socket.once('error', reject);
    socket.once('connect', () => {
      if (upstreamSocket || upstreamTls === 'disable') {
        socket.off('error', reject);
        return resolve(socket);
      }
      socket.write(encodeSslRequest());
      socket.once('data', (answer: Buffer) => {
        if (answer[0] !== 0x53 /* S */ || answer.length !== 1) {
          socket.destroy();
          return reject(new UpstreamTlsError(answer[0] === 0x4e /* N */ ? `the server refused TLS (PROXY_UPSTREAM_TLS=${upstreamTls})` : 'the server answered the TLS request with something else than S or N'));
        }
        const secure = tlsConnect({ socket, ...tlsOptions({ mode: upstreamTls, ca: config.upstreamCa }, host) });
        secure.once('secureConnect', () => {
          socket.off('error', reject);
          secure.off('error', onTlsError);
          resolve(secure);
        });
        const onTlsError = (error: NodeJS.ErrnoException) => {
          secure.on('error', () => undefined);
          socket.destroy();
          reject(new UpstreamTlsError(`TLS toward the server failed (PROXY_UPSTREAM_TLS=${upstreamTls}): ${error.message}`, error.code));
        };
        secure.once('error', onTlsError);
      });
    });
  });
}
