import type { Server as NetServer, Socket } from 'node:net';
import { ServerTCP, type TcpSocket } from '@nestjs/microservices';

interface Connection {
  /** Request-response calls received on it and not answered yet. */
  inFlight: number;
  /** Ended by the drain: nothing more is read from it or answered on it. */
  ended: boolean;
}

export interface RpcDrainResult {
  /** Connections still open when the bound ran out, destroyed (their callers get "connection closed"). */
  connectionsCut: number;
  /** Calls in flight on them: their callers get a retryable answer (503) and may call again. */
  callsCut: number;
}

/**
 * The RPC listener (Nest's TCP/TLS transport) with a graceful stop, which Nest's own lacks: its
 * close destroys every connection at once, cutting calls in flight, and it runs only after the
 * module shutdown hooks, so until then a client that keeps its connection open (every caller
 * does: the gateway keeps one connection per service for its lifetime) goes on calling into a
 * service that is closing its consumers, outbox and pool.
 *
 * `drain` stops accepting connections, answers the calls in flight (and the calls that arrive
 * meanwhile on a connection that is still busy), then ends each connection as soon as it has no
 * call in flight: the caller's client sees the connection close with nothing pending and connects
 * again on its next call (another replica, behind a Service). A connection still busy when the
 * bound runs out is destroyed.
 */
export class DrainingRpcServer extends ServerTCP {
  private readonly connections = new Map<Socket, Connection>();
  private draining = false;
  private changed: (() => void) | undefined;

  override bindHandler(socket: Socket): void {
    if (this.draining) {
      // Accepted just before the listener closed: nothing will be answered on it.
      socket.destroy();
      return;
    }
    this.connections.set(socket, { inFlight: 0, ended: false });
    socket.on('close', () => {
      this.connections.delete(socket);
      this.changed?.();
    });
    super.bindHandler(socket);
  }

  override async handleMessage(socket: TcpSocket, rawMessage: unknown): Promise<unknown> {
    const connection = this.connections.get(socket.netSocket as Socket);
    // A message read after the drain ended the connection: its caller sees the connection close
    // without an answer and may call again elsewhere, so it must not run here.
    if (connection?.ended) return undefined;
    const id = (rawMessage as { id?: unknown } | null)?.id;
    if (!connection || id === undefined) return super.handleMessage(socket, rawMessage);
    connection.inFlight++;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      connection.inFlight--;
      if (this.draining) this.endIfIdle(socket.netSocket as Socket, connection);
    };
    // The last packet of a call's answer is the one that ends it (`isDisposed`, or an error).
    const tracked = Object.create(socket, {
      sendMessage: {
        value: (message: { isDisposed?: boolean; err?: unknown }, callback?: (error?: unknown) => void) => {
          socket.sendMessage(message, callback);
          if (message?.isDisposed || message?.err !== undefined) settle();
        },
      },
    }) as TcpSocket;
    try {
      return await super.handleMessage(tracked, rawMessage);
    } catch (error) {
      settle();
      throw error;
    }
  }

  /**
   * Nest first tries `JSON.parse` on every incoming pattern (object patterns arrive as JSON), and
   * Vigil's patterns are dotted names (`policies.list`), so that parse threw and was caught once
   * per message: a few percent of the RPC layer's CPU. A text that starts with a letter is JSON
   * only when it is `true`, `false` or `null`; every other such pattern is routed as it is, which
   * is what Nest does after the failed parse.
   */
  override getRouteFromPattern(pattern: string): string {
    if (typeof pattern === 'string' && /^[A-Za-z]/.test(pattern) && !/^(?:true|false|null)\s*$/.test(pattern)) {
      return this.normalizePattern(pattern);
    }
    return super.getRouteFromPattern(pattern);
  }

  /** Open connections and the calls in flight on them (for the shutdown's report). */
  state(): { connections: number; callsInFlight: number } {
    let callsInFlight = 0;
    for (const connection of this.connections.values()) callsInFlight += connection.inFlight;
    return { connections: this.connections.size, callsInFlight };
  }

  /**
   * Stops accepting, lets the calls in flight finish, and closes every connection once it is idle;
   * after `timeoutMs`, destroys what is still open.
   */
  async drain(timeoutMs: number): Promise<RpcDrainResult> {
    this.draining = true;
    (this.server as NetServer | undefined)?.close();
    for (const [socket, connection] of this.connections) this.endIfIdle(socket, connection);
    const deadline = Date.now() + timeoutMs;
    while (this.connections.size > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now())));
        this.changed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.changed = undefined;
    }
    const result: RpcDrainResult = { connectionsCut: this.connections.size, callsCut: this.state().callsInFlight };
    for (const socket of this.connections.keys()) socket.destroy();
    return result;
  }

  private endIfIdle(socket: Socket, connection: Connection) {
    if (connection.inFlight > 0 || connection.ended) return;
    connection.ended = true;
    // end(), not destroy(): the answer just written is flushed before the FIN.
    socket.end();
    // A caller that never closes its side does not hold the drain.
    setTimeout(() => socket.destroy(), 2000).unref();
  }
}
