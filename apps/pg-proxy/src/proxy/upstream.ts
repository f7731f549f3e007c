import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { encodeSslRequest } from '../protocol/messages';
import type { ProxyConfigView } from './session';

/** The socket file of a PostgreSQL server listening in `directory` on `port` (libpq's `host=/dir`). */
export function socketPath(directory: string, port: number): string {
  return `${directory.replace(/\/+$/, '')}/.s.PGSQL.${port}`;
}

/**
 * Opens a connection to the real server, negotiated as PROXY_UPSTREAM_TLS says, and resolves once
 * it can carry the startup packet. Through a Unix-domain socket (PROXY_UPSTREAM_SOCKET_DIR) there
 * is no TLS: PostgreSQL does not offer it there, and the traffic never leaves the host.
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
        if (answer[0] === 0x4e /* N */) {
          if (upstreamTls === 'prefer') {
            socket.off('error', reject);
            return resolve(socket);
          }
          socket.destroy();
          return reject(new Error('the server refused TLS'));
        }
        const secure = tlsConnect({
          socket,
          servername: /^[\d.]+$|:/.test(host) ? undefined : host,
          rejectUnauthorized: upstreamTls === 'verify-full',
          ca: config.upstreamCa,
        });
        secure.once('secureConnect', () => {
          socket.off('error', reject);
          resolve(secure);
        });
        secure.once('error', reject);
      });
    });
  });
}
