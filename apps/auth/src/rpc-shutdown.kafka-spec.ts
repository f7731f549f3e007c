import { randomBytes } from 'node:crypto';
import { Agent, get, request } from 'node:http';
import { RpcPatterns } from '@vigil/contracts';
import { RpcClient, SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnTs, type TestDatabase, testKafka, testRpcCredentials, waitFor } from '@vigil/testing';

const PASSWORD = 'shutdown-admin-password';

interface Call {
  pattern: string;
  sentAt: number;
  /** 'ok', or the status (503: the service was unavailable) or message it failed with. */
  outcome?: string;
}

/**
 * SIGTERM to auth, in its own process on the real PostgreSQL and Kafka, while RPC clients stay
 * connected and keep calling (token issuing, API-key verification and touch, as the gateway does)
 * and an HTTP client keeps a kept-alive connection busy: auth answers every call it had received,
 * closes the connections, and exits 0 within SHUTDOWN_TIMEOUT_MS.
 *
 * Fails without the graceful RPC stop (libs/platform/core/src/rpc/draining-rpc-server.ts): Nest's
 * transport destroyed every RPC connection at close, so calls in flight at the signal were
 * answered "connection closed" (9 of them in a run before the fix). Fails without the HTTP drain
 * (drainHttp): Node's server.close() waited for the kept-alive connection, which the client kept
 * busy, and the process never exited.
 */
describe('auth stopped with SIGTERM while RPC clients stay connected and calling', () => {
  let db: TestDatabase;
  let service: ChildService | undefined;
  const kafka = testKafka();

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await service?.kill();
    await db?.drop();
  });

  it('answers the calls in flight, closes the connections and exits 0 within SHUTDOWN_TIMEOUT_MS', async () => {
    const httpPort = await freePort();
    const rpcPort = await freePort();
    const timeoutMs = 15_000;
    service = spawnTs('apps/auth/src/main.ts', {
      LOG_LEVEL: 'info',
      VIGIL_ENCRYPTION_KEYS: SecretBox.generateKey(),
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      ...kafka.env,
      AUDIT_ADMIN_EMAIL: 'admin@example.com',
      AUDIT_ADMIN_PASSWORD: PASSWORD,
      HOST: '127.0.0.1',
      PORT: String(httpPort),
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(rpcPort),
      SHUTDOWN_TIMEOUT_MS: String(timeoutMs),
    });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${httpPort}/health/ready`)).status === 200, 150_000, 'auth ready');

    // Three callers, each with its connection kept open between calls (as the gateway's clients).
    const clients = Array.from({ length: 3 }, () => new RpcClient('auth', `127.0.0.1:${rpcPort}`, 30_000, testRpcCredentials('gateway')));
    const calls: Call[] = [];
    const call = async (client: RpcClient, pattern: string, data: unknown) => {
      const entry: Call = { pattern, sentAt: Date.now() };
      calls.push(entry);
      try {
        await client.call(pattern, data);
        entry.outcome = 'ok';
      } catch (error) {
        entry.outcome = String((error as { status?: number }).status ?? (error as Error).message);
      }
      return entry.outcome;
    };
    let running = true;
    const loop = async (client: RpcClient) => {
      while (running) {
        const outcomes = await Promise.all([
          call(client, RpcPatterns.auth.login, { email: 'admin@example.com', password: PASSWORD }),
          call(client, RpcPatterns.auth.apiKeysVerify, { key: `vk_${randomBytes(16).toString('hex')}` }),
          call(client, RpcPatterns.auth.apiKeysTouch, { ids: [`key_${randomBytes(8).toString('hex')}`] }),
        ]);
        // Refused once the service has gone: a caller would try another replica.
        if (outcomes.some((o) => o !== 'ok')) await new Promise((r) => setTimeout(r, 50));
      }
    };
    // A client that keeps one kept-alive HTTP connection busy (a proxy's pool, a monitor).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const probe = async () => {
      while (running) {
        await new Promise<void>((resolve) => {
          get({ host: '127.0.0.1', port: httpPort, path: '/health/live', agent }, (response) => {
            response.resume();
            response.on('end', () => resolve());
          }).on('error', () => setTimeout(resolve, 50));
        });
      }
    };
    // And an upload that never ends: a request in flight that would hold Node's server.close() for
    // minutes (until its requestTimeout).
    const upload = request({ host: '127.0.0.1', port: httpPort, path: '/v1/upload', method: 'POST', headers: { 'content-type': 'application/json' } });
    upload.on('error', () => undefined);
    upload.write('{"a":"');
    const trickle = setInterval(() => upload.write('x'), 200);
    const loops = [...clients.map(loop), probe()];
    await waitFor(() => calls.filter((c) => c.outcome === 'ok').length >= 30, 60_000, 'calls answered before the signal');

    // The signal right after a round of calls has gone out: some are in flight.
    const signalledAt = Date.now();
    const exited = service.stop();
    const inFlightAtSignal = calls.filter((c) => c.sentAt <= signalledAt && c.outcome === undefined).length;
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), timeoutMs + 30_000))]);
    const tookMs = Date.now() - signalledAt;
    running = false;
    clearInterval(trickle);
    upload.destroy();
    await Promise.all(loops);
    await Promise.all(clients.map((c) => c.close()));
    agent.destroy();
    const before = calls.filter((c) => c.sentAt <= signalledAt);
    const outcomesBefore: Record<string, number> = {};
    for (const c of before) outcomesBefore[c.outcome ?? 'unanswered'] = (outcomesBefore[c.outcome ?? 'unanswered'] ?? 0) + 1;
    const after: Record<string, number> = {};
    for (const c of calls.filter((c) => c.sentAt > signalledAt)) after[c.outcome ?? 'unanswered'] = (after[c.outcome ?? 'unanswered'] ?? 0) + 1;
    process.stdout.write(
      `rpc-shutdown: exit ${String(code)} ${tookMs} ms after SIGTERM; in flight at the signal ${inFlightAtSignal}; calls sent before it ${JSON.stringify(outcomesBefore)}, after it ${JSON.stringify(after)}\n`,
    );

    expect({ code, output: code === 0 ? '' : service.output().slice(-4000) }).toEqual({ code: 0, output: '' });
    expect(tookMs).toBeLessThan(timeoutMs);
    expect(inFlightAtSignal).toBeGreaterThan(0);
    // Every call sent before the signal answered, none cut.
    expect(outcomesBefore).toEqual({ ok: before.length });
    // Calls sent after it: answered on a connection still busy, or refused as unavailable (503).
    expect(Object.keys(after).filter((o) => o !== 'ok' && o !== '503')).toEqual([]);
    // No call ran without its answer reaching the caller: one refresh token per login answered.
    const loginsAnswered = calls.filter((c) => c.pattern === RpcPatterns.auth.login && c.outcome === 'ok').length;
    expect(loginsAnswered).toBeGreaterThan(0);
    const [{ issued }] = await db.query<{ issued: number }>(`SELECT count(*)::int AS issued FROM auth.refresh_tokens`);
    expect(issued).toBe(loginsAnswered);
    // The upload was cut at the bound (half of SHUTDOWN_TIMEOUT_MS), and the stop finished.
    expect(service.output()).toContain('requests still in flight at shutdown were cut');
    expect(service.output()).toContain('"msg":"stopped"');
  }, 300_000);
});
