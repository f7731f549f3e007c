import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** The port on 127.0.0.1 that forwards to the target. */
  port: number;
  /** Connections refused (accepted and closed at once) while cut. */
  readonly refused: number;
  /** Closes every open connection through the proxy and refuses new ones until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL in the outage suites), so a test can
 * make the server unreachable for one client without touching the server others share.
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let isCut = false;
  let refused = 0;
  const server = createServer((client) => {
    if (isCut) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: targetHost, port: targetPort });
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const cut = () => {
    isCut = true;
    for (const socket of open) socket.destroy();
    open.clear();
  };
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    get refused() {
      return refused;
    },
    cut,
    restore() {
      isCut = false;
    },
    close() {
      cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
