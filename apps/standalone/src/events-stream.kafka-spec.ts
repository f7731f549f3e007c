import { gatewayService } from '@vigil/service/gateway';
import { type RunningService, startService } from '@vigil/platform';
import { freePort, testRpcCredentials, waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * The stream on Kafka with two gateway replicas: audit.events.v1 has 6 partitions, events of six
 * databases interleave across them, and each replica still delivers every event once, in commit
 * order; a client resumes on the other replica with no gap and no duplicate.
 */
describe('event stream on Kafka, two gateway replicas', () => {
  let system: TestSystem;
  let second: RunningService;
  let secondUrl: string;
  let token: string;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'kafka' });
    const first = system.services.find((s) => s.name === 'gateway')!;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(first.context.config as unknown as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      env[key] = Array.isArray(value) ? value.join(',') : String(value);
    }
    env.PORT = String(await freePort());
    env.HOST = '127.0.0.1';
    second = await startService(gatewayService, env, { rpcCredentials: testRpcCredentials('gateway') });
    secondUrl = `http://127.0.0.1:${second.httpPort}`;
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 180_000);

  afterAll(async () => {
    await second?.stop();
    await system?.close();
  });

  function collect(base: string, lastEventId?: string) {
    const ids: string[] = [];
    const controller = new AbortController();
    const ready = (async () => {
      const response = await fetch(`${base}/v1/events/stream?type=database.*`, {
        headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      void (async () => {
        let buffer = '';
        const decoder = new TextDecoder();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const id = /^id: (\S+)$/m.exec(buffer.slice(0, end))?.[1];
              buffer = buffer.slice(end + 2);
              if (id) ids.push(id);
            }
          }
        } catch {
          /* closed */
        }
      })();
    })();
    return { ids, ready, close: () => controller.abort() };
  }

  const ingest = async (round: number) => {
    const response = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', {
      token,
      body: { events: Array.from({ length: 60 }, (_, i) => ({ type: 'database.query', database_id: `db_k${i % 6}`, details: { query: `SELECT ${round}, ${i}` } })) },
    });
    expect(response.status).toBe(202);
    return response.body.ids as string[];
  };

  /**
   * Ingests one more event and waits until every client has it. Each stream delivers in commit
   * order, so once a client has it, any copy of an earlier event it was going to get has come too.
   * (Fails when a stream sends an event twice: checked by writing every event twice in the
   * gateway's stream — a duplicate id.)
   */
  const marker = async (...clients: { ids: string[] }[]) => {
    const response = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', { token, body: { events: [{ type: 'database.query', database_id: 'db_k0', details: { query: 'SELECT marker' } }] } });
    expect(response.status).toBe(202);
    const [id] = response.body.ids as string[];
    await waitFor(() => clients.every((c) => c.ids.includes(id!)), 60_000, 'the marker event behind them');
    return id!;
  };

  it('delivers every event to every replica once, in commit order, across partitions', async () => {
    const a = collect(system.gatewayUrl);
    const b = collect(secondUrl);
    await Promise.all([a.ready, b.ready]);
    // Let both replicas' consumer groups get their partitions.
    await new Promise((r) => setTimeout(r, 3000));
    const produced: string[] = [];
    for (let round = 0; round < 5; round++) produced.push(...(await ingest(round)));
    await waitFor(() => a.ids.length >= produced.length && b.ids.length >= produced.length, 60_000, 'both replicas received everything');
    await marker(a, b);
    expect(a.ids.filter((id) => produced.includes(id))).toEqual(produced);
    expect(b.ids.filter((id) => produced.includes(id))).toEqual(produced);
    expect(new Set(a.ids).size).toBe(a.ids.length);
    expect(new Set(b.ids).size).toBe(b.ids.length);
    a.close();
    b.close();
  }, 120_000);

  it('resumes on the other replica after Last-Event-ID with no gap and no duplicate', async () => {
    const a = collect(system.gatewayUrl);
    await a.ready;
    await new Promise((r) => setTimeout(r, 1000));
    const produced = [...(await ingest(10)), ...(await ingest(11))];
    await waitFor(() => a.ids.length >= 70, 60_000, 'first part');
    a.close();
    const last = a.ids[a.ids.length - 1]!;
    produced.push(...(await ingest(12)));
    const b = collect(secondUrl, last);
    await b.ready;
    produced.push(...(await ingest(13)));
    const start = produced.indexOf(a.ids[0]!);
    await waitFor(() => a.ids.length + b.ids.length >= produced.length - start, 60_000, 'the rest on the other replica');
    const markerId = await marker(b);
    expect([...a.ids, ...b.ids.filter((id) => id !== markerId)]).toEqual(produced.slice(start));
    b.close();
  }, 120_000);
});
