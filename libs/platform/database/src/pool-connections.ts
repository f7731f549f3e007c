import type { DataSource } from 'typeorm';
import { quoteIdent } from './data-source';

/** What a channel listener uses of a pg client. */
interface PoolClientLike {
  on(event: 'notification' | 'error', listener: (arg?: unknown) => void): unknown;
  removeListener(event: string, listener: (arg?: unknown) => void): unknown;
  query(sql: string): Promise<unknown>;
}

/** pg-pool's bookkeeping, read (never changed) to tell a pool that can close from one held up. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  _clients?: PgClientState[];
}

interface PgClientState {
  _ended?: boolean;
  connection?: { stream?: { destroyed?: boolean } };
}

export interface PoolFigures {
  connections: number;
  idle: number;
  waiting_for_a_connection: number;
}

function poolOf(dataSource: DataSource): PgPool | undefined {
  return (dataSource.driver as unknown as { master?: PgPool }).master;
}

/** The pool's counts, for shutdown reports and tests. */
export function poolFigures(dataSource: DataSource): PoolFigures | undefined {
  const pool = poolOf(dataSource);
  return pool && { connections: pool.totalCount, idle: pool.idleCount, waiting_for_a_connection: pool.waitingCount };
}

export interface ChannelListenerHandlers {
  onNotification: () => void;
  /**
   * The listening connection broke after LISTEN succeeded: it is already given back (and
   * discarded); the owner polls meanwhile and opens a new listener when it likes.
   */
  onLost: (error: unknown) => void;
}

/**
 * A connection taken from the service's pool to LISTEN on one channel, held until `close()` or
 * until it breaks. Every path gives it back to the pool: LISTEN failing after the connection was
 * taken (its socket gone meanwhile, the database restarting), the connection breaking while it
 * listens, and `close()`. A connection kept out of the pool is never reused, and pg's pool waits
 * for it at close: one lost this way held a service's stop until SHUTDOWN_TIMEOUT_MS.
 */
export class ChannelListener {
  private held = true;
  private listening = false;
  private readonly notified = () => this.handlers.onNotification();
  private readonly failed = (error: unknown) => {
    const wasListening = this.listening;
    this.giveBack(error ?? new Error('listening connection lost'));
    if (wasListening) this.handlers.onLost(error);
  };

  private constructor(
    private readonly client: PoolClientLike,
    private readonly release: (error?: unknown) => void,
    private readonly handlers: ChannelListenerHandlers,
  ) {
    client.on('notification', this.notified);
    client.on('error', this.failed);
  }

  /** Takes a connection from the pool and listens on `channel`; fails with the connection given back. */
  static async open(dataSource: DataSource, channel: string, handlers: ChannelListenerHandlers): Promise<ChannelListener> {
    const driver = dataSource.driver as unknown as { obtainMasterConnection(): Promise<[PoolClientLike, (error?: unknown) => void]> };
    const [client, release] = await driver.obtainMasterConnection();
    const listener = new ChannelListener(client, release, handlers);
    try {
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (error) {
      listener.giveBack(error);
      throw error;
    }
    if (!listener.held) throw new Error(`LISTEN ${channel}: the connection was lost`);
    listener.listening = true;
    return listener;
  }

  /** Still holding a working listening connection. */
  get active(): boolean {
    return this.held && this.listening;
  }

  /** Gives the connection back; it is discarded rather than handed to others still listening. */
  close(): void {
    this.giveBack(new Error('listener closed'));
  }

  private giveBack(error: unknown) {
    if (!this.held) return;
    this.held = false;
    this.listening = false;
    this.client.removeListener('notification', this.notified);
    this.client.removeListener('error', this.failed);
    // A broken client may emit once more after it is given back; the pool's own listener takes it
    // from there, this one only keeps a late error from being unhandled.
    this.client.on('error', () => undefined);
    this.release(error);
  }
}

/**
 * Closes the data source's pool, the last step of a stop. pg's pool closes only once every
 * connection taken from it is given back; a connection whose socket is already closed, lost while
 * out of the pool and never given back, would hold the close forever. The close is over once every
 * connection still out has its socket closed (nothing is left open on either side); it answers how
 * many were abandoned that way, for the stop to report. Connections still open are waited for (a
 * stop bounded by SHUTDOWN_TIMEOUT_MS names them).
 */
export async function closeDataSource(dataSource: DataSource, checkEveryMs = 100): Promise<{ abandoned: number }> {
  if (!dataSource.isInitialized) return { abandoned: 0 };
  const pool = poolOf(dataSource);
  const closed = dataSource.destroy().then(() => ({ abandoned: 0 }));
  // Once abandoned, the pool's own close never finishes; a late failure of it is of no interest.
  closed.catch(() => undefined);
  if (!pool?._clients) return closed;
  let timer: NodeJS.Timeout | undefined;
  const onlyDeadLeft = new Promise<{ abandoned: number }>((resolve) => {
    const check = () => {
      const out = pool._clients ?? [];
      if (out.length > 0 && pool.idleCount === 0 && out.every(socketGone)) resolve({ abandoned: out.length });
      else timer = setTimeout(check, checkEveryMs);
    };
    timer = setTimeout(check, checkEveryMs);
  });
  try {
    return await Promise.race([closed, onlyDeadLeft]);
  } finally {
    clearTimeout(timer);
  }
}

function socketGone(client: PgClientState): boolean {
  return client._ended === true || client.connection?.stream?.destroyed === true;
}
