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
 * Reads into a buffer the caller provides and reuses (net.Socket's `onread`): no buffer is
 * allocated per read and the chunk skips the stream machinery. `callback` gets a view of the bytes
 * read, valid until `buffer` is asked for again; a caller that keeps views past its callback
 * (bytes of an incomplete message, a write not yet done) returns a fresh buffer from then on.
 */
export interface UpstreamRead {
  buffer: () => Uint8Array;
  /** Returns true (false would pause reading). */
  callback: (bytesRead: number, buffer: Uint8Array) => boolean;
}

/** Whether openUpstream reads this configuration's connections through `onread` (plaintext). */
export const readsThroughOnread = (config: Pick<ProxyConfigView, 'upstreamSocket' | 'upstreamTls'>) => !!config.upstreamSocket || config.upstreamTls === 'disable';

/**
 * Opens a connection to the real server, negotiated as PROXY_UPSTREAM_TLS says, and resolves once
 * it can carry the startup packet. A server that declines TLS when it is asked for is never used in
 * plaintext; with `verify-full` a certificate that does not chain to the CA or does not name the
 * host is refused (UpstreamTlsError). Through a Unix-domain socket (PROXY_UPSTREAM_SOCKET_DIR)
 * there is no TLS: PostgreSQL does not offer it there, and the traffic never leaves the host.
 */
export function openUpstream(config: ProxyConfigView, onread?: UpstreamRead): Promise<Socket> {
  const { upstreamHost: host, upstreamPort: port, upstreamTls, upstreamSocket } = config;
  return new Promise((resolve, reject) => {
    // In plaintext the reads go straight to `onread` (no 'data' events); TLS wraps the socket, so there it is not used.
    const plain = readsThroughOnread(config);
    const read = plain && onread ? { onread } : {};
    const socket = upstreamSocket ? netConnect({ path: upstreamSocket, ...read }) : netConnect({ host, port, ...read });
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
