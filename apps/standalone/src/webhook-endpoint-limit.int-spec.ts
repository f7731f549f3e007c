import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const LIMIT = 3;

/**
 * The per-endpoint request limit under a backlog: the worker leases more deliveries of an endpoint
 * than it may send at once and hands each finished request's slot to the next one in memory; the
 * receiver must never see more than WEBHOOK_ENDPOINT_CONCURRENCY requests open, and every event
 * arrives once, recorded as one succeeded delivery with one attempt.
 */
describe('webhook endpoint request limit', () => {
  let system: TestSystem;
  let receiver: WebhookReceiver;
  let token: string;
  const open = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { DELIVERY_ALLOW_INSECURE_TARGETS: 'true', WEBHOOK_ENDPOINT_CONCURRENCY: String(LIMIT) } });
    receiver = await startWebhookReceiver();
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  it('never keeps more requests open to one endpoint than its limit, and delivers every event once', async () => {
    const paths = ['/limit-1', '/limit-2'];
    const ids: string[] = [];
    for (const path of paths) {
      // Each answer takes 40 ms: the backlog builds up behind the limit.
      receiver.behave(path, () => {
        const now = (open.get(path) ?? 0) + 1;
        open.set(path, now);
        maxOpen.set(path, Math.max(maxOpen.get(path) ?? 0, now));
        setTimeout(() => open.set(path, open.get(path)! - 1), 40).unref();
        return { status: 200, delayMs: 40 };
      });
      const created = await api('POST', '/v1/webhooks', { url: `${receiver.url}${path}`, events: ['database.query'] });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    const events = Array.from({ length: 60 }, (_, i) => ({ type: 'database.query', database_id: 'db_limit', details: { user: 'u', query: `SELECT ${i}` } }));
    const ingested = await api('POST', '/v1/events/ingest', { events });
    expect(ingested.status).toBe(202);
    const expected = new Set(ingested.body.ids as string[]);

    for (const path of paths) {
      await waitFor(() => new Set(receiver.on(path).map((r) => JSON.parse(r.body).id)).size === expected.size, 60_000, `every event at ${path}`);
      expect(maxOpen.get(path)).toBeLessThanOrEqual(LIMIT);
      // Exactly once each (a duplicate would mean a delivery sent twice without a crash).
      expect(receiver.on(path)).toHaveLength(expected.size);
    }
    const rows = await waitFor(async () => {
      const counts = await system.db.query<{ status: string; attempts: number; n: number }>(
        `SELECT status, attempt_count AS attempts, count(*)::int AS n FROM delivery.webhook_deliveries
         WHERE webhook_id = ANY($1::text[]) GROUP BY status, attempt_count`,
        [ids],
      );
      return counts.length === 1 && counts[0]!.status === 'succeeded' ? counts : undefined;
    }, 30_000, 'every delivery recorded');
    expect(rows).toEqual([{ status: 'succeeded', attempts: 1, n: 2 * expected.size }]);
    const [{ leased }] = await system.db.query<{ leased: number }>(
      `SELECT count(*)::int AS leased FROM delivery.webhook_deliveries WHERE webhook_id = ANY($1::text[]) AND lease_owner IS NOT NULL`,
      [ids],
    );
    expect(leased).toBe(0);
  });
});
