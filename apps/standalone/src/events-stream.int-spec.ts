import { connect, type Socket } from 'node:net';
import { waitFor } from '@vigil/testing';
import { EventSource } from 'eventsource';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

interface Received {
  id: string;
  type: string;
  data: { id: string; type: string; database_id: string; details: Record<string, unknown> };
}

/**
 * GET /v1/events/stream with an independent SSE client (the `eventsource` package): live
 * delivery, Last-Event-ID resume with no gap and no duplicate while ingestion continues, the
 * per-credential limit, and a stalled reader cut off while others keep receiving.
 */
describe('event stream (SSE)', () => {
  let system: TestSystem;
  let token: string;
  const open: EventSource[] = [];

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { STREAM_BUFFER_BYTES: '1048576', STREAM_HEARTBEAT_MS: '500', STREAM_CLOSE_GRACE_MS: '120000' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  // Whatever a test opened is closed even when it fails, so the next test starts with no stream open.
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  afterAll(async () => {
    open.forEach((es) => es.close());
    await system?.close();
  });

  function stream(query: string, lastEventId?: string): { es: EventSource; received: Received[]; errors: string[]; opened: Promise<void> } {
    const received: Received[] = [];
    const errors: string[] = [];
    const es = new EventSource(`${system.gatewayUrl}/v1/events/stream${query}`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) } }),
    });
    open.push(es);
    const opened = new Promise<void>((resolve, reject) => {
      es.onopen = () => resolve();
      es.onerror = (e) => {
        errors.push(String(e.message ?? e.code));
        reject(new Error(`stream failed: ${e.message ?? e.code}`));
      };
    });
    const types = ['database.query', 'security.threat_detected', 'user.login_failed', 'policy.violation'];
    for (const type of types) {
      es.addEventListener(type, (e) => received.push({ id: e.lastEventId, type: e.type, data: JSON.parse(e.data) }));
    }
    return { es, received, errors, opened };
  }

  const ingest = async (events: Record<string, unknown>[]): Promise<string[]> => {
    const response = await http(system.gatewayUrl, 'POST', '/v1/events/ingest', { token, body: { events } });
    expect(response.status).toBe(202);
    return response.body.ids;
  };

  it('delivers live events as id / event / data messages, with filters', async () => {
    const all = stream('?database_id=db_live');
    const threats = stream('?database_id=db_live&type=security.*');
    await Promise.all([all.opened, threats.opened]);
    const ids = await ingest([
      { type: 'database.query', database_id: 'db_live', details: { user: 'alice', query: 'SELECT 1' } },
      { type: 'security.threat_detected', database_id: 'db_live', details: { threat_type: 'sql_injection' } },
      { type: 'database.query', database_id: 'db_other' },
      { type: 'user.login_failed', database_id: 'db_live' },
    ]);
    await waitFor(() => all.received.length >= 3, 10_000, 'three live events');
    expect(all.received.map((r) => r.id)).toEqual([ids[0], ids[1], ids[3]]);
    expect(all.received.map((r) => r.type)).toEqual(['database.query', 'security.threat_detected', 'user.login_failed']);
    expect(all.received[0]!.data).toMatchObject({ id: ids[0], type: 'database.query', database_id: 'db_live', details: { user: 'alice' } });
    await waitFor(() => threats.received.length >= 1, 10_000, 'the threat');
    expect(threats.received.map((r) => r.id)).toEqual([ids[1]]);
    all.es.close();
    threats.es.close();
  });

  it('sends heartbeat comments while idle', async () => {
    const response = await fetch(`${system.gatewayUrl}/v1/events/stream?database_id=db_quiet`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes(': heartbeat') && Date.now() < deadline) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toContain(': heartbeat');
  });

  it('resumes after a forced disconnect with Last-Event-ID: no gap and no duplicate while ingestion continues', async () => {
    const produced: string[] = [];
    let producing = true;
    const producer = (async () => {
      let n = 0;
      while (producing) {
        const batch = Array.from({ length: 10 }, () => ({ type: 'database.query', database_id: 'db_resume', details: { query: `SELECT ${n++}` } }));
        produced.push(...(await ingest(batch)));
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    await waitFor(() => produced.length >= 50, 10_000, 'ingestion under way');
    // The first client starts live, in the middle of the ingestion.
    const first = stream('?database_id=db_resume');
    await first.opened;
    await waitFor(() => first.received.length >= 40, 15_000, 'first client receiving');
    first.es.close();
    const last = first.received[first.received.length - 1]!.id;
    await waitFor(() => produced.length >= produced.indexOf(last) + 150, 15_000, 'events stored while disconnected');

    const second = stream('?database_id=db_resume', last);
    await second.opened;
    await waitFor(() => produced.length > 0 && second.received.length >= 100, 15_000, 'second client caught up');
    producing = false;
    await producer;
    const finalId = produced[produced.length - 1];
    await waitFor(() => second.received.some((r) => r.id === finalId), 15_000, 'the last produced event');
    second.es.close();

    const got = [...first.received, ...second.received].map((r) => r.id);
    const start = produced.indexOf(first.received[0]!.id);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(got).toEqual(produced.slice(start));
  }, 90_000);

  it('refuses an unknown Last-Event-ID with 400', async () => {
    const response = await http(system.gatewayUrl, 'GET', '/v1/events/stream', { token, headers: { 'last-event-id': 'evt_00000000000000000000000000' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('unknown_last_event_id');
  });

  it('cuts off a stalled reader with a final slow_consumer message while others keep receiving', async () => {
    const healthy = stream('?database_id=db_flood');
    await healthy.opened;
    // A raw client that reads the headers and then stops reading.
    const stalled: Socket = connect(Number(new URL(system.gatewayUrl).port), '127.0.0.1');
    let raw = '';
    let ended = false;
    stalled.on('data', (d) => (raw += d.toString()));
    stalled.on('close', () => (ended = true));
    stalled.on('error', () => (ended = true));
    cleanups.push(() => stalled.destroy(), () => healthy.es.close());
    stalled.write(`GET /v1/events/stream?database_id=db_flood HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`);
    await waitFor(() => raw.includes('200 OK'), 10_000, 'stalled stream open');
    stalled.pause();

    // Far more than the kernel's socket buffers and the 1 MiB allowed to pile up (STREAM_BUFFER_BYTES).
    const padding = 'x'.repeat(4000);
    const ids: string[] = [];
    for (let batch = 0; batch < 40; batch++) {
      ids.push(...(await ingest(Array.from({ length: 100 }, (_, i) => ({ type: 'database.query', database_id: 'db_flood', details: { query: `SELECT '${padding}' -- ${batch}/${i}` } })))));
    }
    await waitFor(() => healthy.received.length >= ids.length, 30_000, 'the healthy client received everything');
    expect(healthy.received.map((r) => r.id)).toEqual(ids);

    // The stalled reader catches up: what the socket held, then the reason, then the end.
    stalled.resume();
    await waitFor(() => ended, 15_000, 'the stalled stream closed');
    expect(raw).toContain('event: error');
    expect(raw).toContain('"code":"slow_consumer"');
    const delivered = [...raw.matchAll(/^id: (evt_\w+)$/gm)].map((m) => m[1]);
    expect(delivered.length).toBeLessThan(ids.length);
    expect(delivered).toEqual(ids.slice(0, delivered.length));
    healthy.es.close();
  }, 90_000);

  it('allows 10 concurrent streams per credential and answers the 11th with 429', async () => {
    const controllers: AbortController[] = [];
    const openOne = async () => {
      const controller = new AbortController();
      controllers.push(controller);
      cleanups.push(() => controller.abort());
      return fetch(`${system.gatewayUrl}/v1/events/stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    };
    const responses = [];
    for (let i = 0; i < 10; i++) responses.push(await openOne());
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const eleventh = await openOne();
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toBeTruthy();
    expect(eleventh.headers.get('content-type')).toContain('application/problem+json');
    expect(await eleventh.json()).toMatchObject({ status: 429, code: 'too_many_streams' });
    // Closing one frees its place.
    controllers[0]!.abort();
    await waitFor(async () => {
      const again = await openOne();
      if (again.status === 200) return true;
      await again.body?.cancel();
      return false;
    }, 10_000, 'a freed stream slot');
    controllers.forEach((c) => c.abort());
  });
});
