import { createTestDatabase, startTcpProxy, type TcpProxy, type TestDatabase, waitFor } from '@vigil/testing';
import type { DataSource } from 'typeorm';
import { createServiceDataSource } from './data-source';
import { ChannelListener, closeDataSource, poolFigures } from './pool-connections';

const SCHEMA = 'pool_test';

/** The pool's own events (pg-pool), to act at the moment a connection is taken from it. */
interface PoolEvents {
  once(event: 'acquire', listener: (client: { processID: number }) => void): void;
}

/**
 * Connections taken from a service's pool are given back on every path, including when the
 * connection dies while out of the pool: pg's pool waits for every connection taken from it at
 * close, so one never given back holds the service's stop (seen in the fault suite: a replica
 * waiting on `database pool close` until SHUTDOWN_TIMEOUT_MS, then exiting 1).
 */
describe('pool connections (PostgreSQL)', () => {
  let db: TestDatabase;
  let relay: TcpProxy;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.query(`CREATE SCHEMA ${SCHEMA}`);
    const url = new URL(db.url);
    relay = await startTcpProxy(url.hostname, Number(url.port || 5432));
  });

  afterAll(async () => {
    await relay?.close();
    await db?.drop();
  });

  /** A service's data source, reaching PostgreSQL through the relay when asked (to cut it). */
  async function dataSourceFor(options: { throughRelay?: boolean } = {}): Promise<{ dataSource: DataSource; name: string }> {
    const name = `pool-test-${++n}-${process.pid}`;
    const url = new URL(db.url);
    if (options.throughRelay) {
      url.hostname = '127.0.0.1';
      url.port = String(relay.port);
    }
    const dataSource = createServiceDataSource({ url: url.toString(), schema: SCHEMA, migrations: [], poolSize: 4, applicationName: name });
    await dataSource.initialize();
    return { dataSource, name };
  }

  const pool = (dataSource: DataSource) => (dataSource.driver as unknown as { master: PoolEvents }).master;
  const terminate = (name: string, like = '%') =>
    db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND query LIKE $2`, [name, like]);
  const noop = { onNotification: () => undefined, onLost: () => undefined };

  /** Closes with a bound only so that a close that hangs fails the test instead of timing it out. */
  async function closeWithin(dataSource: DataSource, ms: number): Promise<{ abandoned: number } | 'still waiting'> {
    let timer: NodeJS.Timeout | undefined;
    const waiting = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
    try {
      return await Promise.race([closeDataSource(dataSource), waiting]);
    } finally {
      clearTimeout(timer);
    }
  }

  it('a listener whose connection dies before LISTEN answers fails and gives the connection back', async () => {
    const { dataSource } = await dataSourceFor({ throughRelay: true });
    try {
      // The connection is taken, then every connection through the relay is cut: LISTEN is sent on a
      // socket whose other end is already closed (a database restart at that moment).
      pool(dataSource).once('acquire', () => relay.cut());
      await expect(ChannelListener.open(dataSource, 'pool_test_channel', noop)).rejects.toThrow();
      relay.restore();
      // Given back and discarded: nothing left out of the pool.
      await waitFor(() => poolFigures(dataSource)!.connections === 0, 10_000, 'the connection given back');
      // Without the fix: { connections: 1, idle: 0 } here, for good.
      expect(poolFigures(dataSource)).toEqual({ connections: 0, idle: 0, waiting_for_a_connection: 0 });
      // The pool serves again.
      await expect(dataSource.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    } finally {
      relay.restore();
      await closeWithin(dataSource, 10_000);
    }
  });

  it('a listener whose connection the server terminates reports it lost and gives the connection back; close() gives back a working one', async () => {
    const { dataSource, name } = await dataSourceFor();
    try {
      const lost: unknown[] = [];
      let notified = 0;
      const listener = await ChannelListener.open(dataSource, 'pool_test_channel', { onNotification: () => notified++, onLost: (error) => lost.push(error) });
      expect(listener.active).toBe(true);
      await db.query(`NOTIFY pool_test_channel`);
      await waitFor(() => notified === 1, 10_000, 'the notification');
      await terminate(name, 'LISTEN%');
      await waitFor(() => lost.length === 1, 10_000, 'the listener told of its lost connection');
      expect(listener.active).toBe(false);
      await waitFor(() => poolFigures(dataSource)!.connections === 0, 10_000, 'the broken connection given back');

      const second = await ChannelListener.open(dataSource, 'pool_test_channel', noop);
      expect(poolFigures(dataSource)).toMatchObject({ connections: 1, idle: 0 });
      second.close();
      // Discarded rather than handed to others while still listening.
      await waitFor(() => poolFigures(dataSource)!.connections === 0, 10_000, 'the closed listener given back');
    } finally {
      await closeWithin(dataSource, 10_000);
    }
  });

  it('a transaction whose connection the server terminates fails, and its connection is given back', async () => {
    const { dataSource, name } = await dataSourceFor();
    try {
      await expect(
        dataSource.transaction(async (manager) => {
          await manager.query('SELECT 1');
          await terminate(name, 'SELECT 1');
          await manager.query('SELECT pg_sleep(5)');
        }),
      ).rejects.toThrow();
      await waitFor(() => poolFigures(dataSource)!.connections === 0, 10_000, 'the connection given back');
    } finally {
      expect(await closeWithin(dataSource, 10_000)).toEqual({ abandoned: 0 });
    }
  });

  it('closing the pool does not wait on a connection never given back whose socket is already closed, and waits for one still open', async () => {
    const { dataSource, name } = await dataSourceFor();
    const driver = dataSource.driver as unknown as { obtainMasterConnection(): Promise<[{ on(e: string, l: () => void): void; query(sql: string): Promise<unknown> }, (error?: unknown) => void]> };
    // A holder that never gives its connection back; the server then ends the connection.
    const [lost] = await driver.obtainMasterConnection();
    lost.on('error', () => undefined);
    await lost.query(`SET application_name = '${name}-lost'`);
    await terminate(`${name}-lost`);
    await waitFor(() => (lost as unknown as { _ended: boolean })._ended, 10_000, 'the socket closed');
    // A holder still working, given back a little later.
    const [working, giveBack] = await driver.obtainMasterConnection();
    let givenBackAt = 0;
    setTimeout(() => {
      void working.query('SELECT 1').then(() => {
        givenBackAt = Date.now();
        giveBack();
      });
    }, 500);
    // Without the fix (dataSource.destroy() alone) this is 'still waiting', for good.
    const closed = await closeWithin(dataSource, 20_000);
    expect(closed).toEqual({ abandoned: 1 });
    expect(givenBackAt).toBeGreaterThan(0);
  });
});
