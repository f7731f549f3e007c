import { type AuditEvent, type EventEnvelope, MessageHeaders, RpcPatterns, Topics, TopicSpecs, type CreatedWebhookFormB } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { KafkaBus } from '@vigil/messaging';
import { createLogger, RpcClient, SecretBox } from '@vigil/platform';
import { type ChildService, createTestDatabase, freePort, spawnTs, type TestDatabase, testKafka, testRpcCredentials, waitFor, startWebhookReceiver, type WebhookReceiver } from '@vigil/testing';

const MAIN = 'apps/delivery/src/main.ts';

function auditEnvelope(databaseId: string): EventEnvelope<AuditEvent> {
  const id = newId('event');
  const now = new Date().toISOString();
  return {
    id,
    type: 'database.query',
    schema_version: 1,
    occurred_at: now,
    key: databaseId,
    data: {
      id,
      type: 'database.query',
      severity: 'info',
      database_id: databaseId,
      timestamp: now,
      processed_at: now,
      details: { user: 'crash', query: 'SELECT 1' },
      context: { policy_id: null, rule_id: null, risk_score: 10 },
      producer_id: null,
    },
  };
}

/**
 * The delivery service as its own process on Kafka and PostgreSQL, killed with SIGKILL while
 * deliveries are in flight, and stopped between two attempts of a retry schedule.
 */
describe('webhook deliveries survive the delivery process dying', () => {
  const kafka = testKafka();
  let db: TestDatabase;
  let bus: KafkaBus;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  let child: ChildService | undefined;
  let rpc: RpcClient;
  let healthUrl: string;

  async function startDelivery(): Promise<ChildService> {
    const started = spawnTs(MAIN, env);
    await waitFor(
      async () => {
        if (started.process.exitCode !== null) throw new Error(`delivery exited: ${started.output().slice(-2000)}`);
        return (await fetch(healthUrl)).status === 200;
      },
      60_000,
      'delivery service ready',
    );
    return started;
  }

  const publish = (envelopes: EventEnvelope<AuditEvent>[]) =>
    bus.publish([
      {
        topic: Topics.auditEvents,
        messages: envelopes.map((e) => ({ key: e.key, value: JSON.stringify(e), headers: { [MessageHeaders.messageId]: e.id, [MessageHeaders.eventType]: e.type } })),
      },
    ]);

  const subscribe = (path: string, databaseEvents: string[]) =>
    rpc.call<object, CreatedWebhookFormB>(RpcPatterns.webhooks.create, { url: `${receiver.url}${path}`, events: databaseEvents });

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await startWebhookReceiver();
    const port = await freePort();
    const rpcPort = await freePort();
    healthUrl = `http://127.0.0.1:${port}/health/ready`;
    env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_TOPIC_PREFIX: kafka.prefix,
      VIGIL_ENCRYPTION_KEYS: SecretBox.generateKey(),
      DELIVERY_ALLOW_INSECURE_TARGETS: 'true',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: '0',
      RPC_HOST: '127.0.0.1',
      RPC_PORT: String(rpcPort),
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_MS: '3000',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_SCHEDULE: '0,5,1,1,1,1,1',
    };
    bus = new KafkaBus({ brokers: kafka.brokers, clientId: 'crash-test', prefix: kafka.prefix, logger: createLogger('test', 'warn') });
    await bus.ensureTopics(TopicSpecs);
    rpc = new RpcClient('delivery', `127.0.0.1:${rpcPort}`, 10_000, testRpcCredentials('gateway'));
    child = await startDelivery();
  }, 90_000);

  afterAll(async () => {
    await child?.kill();
    await rpc?.close();
    await bus?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('loses no delivery and creates none twice when killed with deliveries in flight', async () => {
    // Slow answers keep many deliveries in flight when the process dies.
    receiver.behave('/crash-1', () => ({ status: 200, delayMs: 150 }));
    receiver.behave('/crash-2', () => ({ status: 200, delayMs: 150 }));
    const a = await subscribe('/crash-1', ['database.*']);
    const b = await subscribe('/crash-2', ['*']);
    const envelopes = Array.from({ length: 150 }, () => auditEnvelope('db_crash'));
    await publish(envelopes);

    await waitFor(() => receiver.on('/crash-1').length + receiver.on('/crash-2').length >= 40, 60_000, 'deliveries under way');
    await child!.kill();
    expect(child!.process.signalCode).toBe('SIGKILL');
    const [{ n: unfinished }] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM delivery.webhook_deliveries WHERE status IN ('pending', 'in_flight')`,
    );
    child = await startDelivery();

    const expected = new Set(envelopes.map((e) => e.id));
    const seen = (path: string) => new Set(receiver.on(path).map((r) => JSON.parse(r.body).id as string));
    await waitFor(() => [...expected].every((id) => seen('/crash-1').has(id) && seen('/crash-2').has(id)), 90_000, 'every event at both endpoints');
    const rows = await waitFor(async () => {
      const counts = await db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM delivery.webhook_deliveries WHERE NOT test GROUP BY status`);
      return counts.length === 1 && counts[0]!.status === 'succeeded' ? counts : undefined;
    }, 30_000, 'every delivery recorded as succeeded');
    // Exactly one delivery per (subscription, event): the redelivered Kafka messages created none twice.
    expect(rows).toEqual([{ status: 'succeeded', n: 2 * envelopes.length }]);
    expect(unfinished).toBeGreaterThan(0);
    const perPair = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM delivery.webhook_deliveries GROUP BY webhook_id, event_id HAVING count(*) > 1`);
    expect(perPair).toEqual([]);
    expect(a.id).not.toBe(b.id);
  }, 180_000);

  it('keeps the retry schedule across a restart between two attempts', async () => {
    receiver.behave('/later', (_r, n) => ({ status: n === 1 ? 500 : 200 }));
    await subscribe('/later', ['security.anomaly']);
    const envelope = auditEnvelope('db_later');
    envelope.type = 'security.anomaly';
    envelope.data.type = 'security.anomaly';
    await publish([envelope]);

    const [first] = await waitFor(() => (receiver.on('/later').length ? receiver.on('/later') : undefined), 30_000, 'first attempt');
    const [row] = await waitFor(async () => {
      const found = await db.query<{ status: string; due_at: Date; attempt_count: number }>(
        `SELECT status, due_at, attempt_count FROM delivery.webhook_deliveries WHERE event_id = $1`,
        [envelope.id],
      );
      return found[0]?.attempt_count === 1 ? found : undefined;
    }, 10_000, 'first attempt recorded');
    expect(row!.status).toBe('pending');
    // Second attempt 5 s (+-10%) after the first, persisted in the row.
    const plannedIn = row!.due_at.getTime() - first!.receivedAt;
    expect(plannedIn).toBeGreaterThan(4_000);
    expect(plannedIn).toBeLessThan(6_000);

    expect(await child!.stop()).toBe(0);
    child = await startDelivery();

    const second = await waitFor(() => receiver.on('/later')[1], 30_000, 'second attempt after restart');
    expect(JSON.parse(second.body).id).toBe(envelope.id);
    // Neither reset (an immediate resend) nor lost: it came when the stored schedule said.
    expect(second.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(4_400);
    expect(second.headers['x-service-delivery-id']).not.toBe(first!.headers['x-service-delivery-id']);
  }, 90_000);
});
