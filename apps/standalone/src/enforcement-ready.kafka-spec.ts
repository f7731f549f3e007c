import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadLetterTopic, Topics } from '@vigil/contracts';
import { KafkaBus, kafkaSecurityFromEnv } from '@vigil/messaging';
import { createLogger, type RunningService, startService } from '@vigil/platform';
import { eventIngestService } from '@vigil/service/event-ingest';
import { freePort, startTcpProxy, type TcpProxy, testRpcCredentials, waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const DATABASE = 'db_enf_ready';

/**
 * No record is stored unenforced (docs/policies.md#enforcement): event-ingest started while the
 * policy service does not answer refuses HTTP ingest with 503 + Retry-After and holds audit.ingest
 * (nothing stored, nothing dead-lettered, offsets not committed); once the policy service answers,
 * every record is stored once, with its violation.
 *
 * Fails with the earlier degraded mode (ingestion going on without the policies once the wait at
 * start ran out): readiness answers 200 without the policies, and the HTTP request is accepted
 * (202) and its record stored with no violation.
 */
describe('event-ingest started while the policy service does not answer (real broker)', () => {
  let system: TestSystem;
  let producer: KafkaBus;
  let policyRpc: TcpProxy;
  let replacement: RunningService | undefined;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'kafka' });
    producer = new KafkaBus({ brokers: system.kafka!.brokers, clientId: 'enforcement-ready', prefix: system.kafka!.prefix, logger: createLogger('test', 'warn'), security: kafkaSecurityFromEnv(system.kafka!.env) });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    // The replacement event-ingest reaches the policy service's RPC only through this relay.
    policyRpc = await startTcpProxy('127.0.0.1', Number(system.services.find((s) => s.name === 'policy')!.context.config.RPC_PORT));
  }, 180_000);

  afterAll(async () => {
    await replacement?.stop();
    await producer?.close();
    await policyRpc?.close();
    await system?.close();
  });

  const stored = async () =>
    (await system.db.query<{ rows: number; ids: number }>(`SELECT count(*)::int AS rows, count(DISTINCT producer_id)::int AS ids FROM event_ingest.events WHERE producer_id LIKE 'enf-%'`))[0]!;
  const deadLettered = async () => [...(await producer.endOffsets(deadLetterTopic(Topics.auditIngest))).values()].reduce((sum, high) => sum + high, 0n);
  const committed = async () => [...(await producer.committedOffsets('event-ingest.audit-ingest', Topics.auditIngest)).values()].filter((offset) => offset > 0n);
  const ready = async () => {
    const response = await fetch(`http://127.0.0.1:${replacement!.httpPort}/health/ready`);
    return { status: response.status, checks: ((await response.json()) as { checks: Record<string, string> }).checks };
  };

  it('answers 503 and holds audit.ingest until the policies are loaded, then stores every record once with its violation', async () => {
    const created = await api('POST', '/v1/policies', {
      name: `no drops ${Date.now()}`,
      type: 'query_control',
      databases: [DATABASE],
      enabled: true,
      config: { rules: [{ name: 'no drops', pattern: '\\bDROP\\s+TABLE\\b', action: 'alert', severity: 'high', channels: ['secops'] }] },
    });
    expect(created.status).toBe(201);
    const policyId = created.body.id as string;

    // event-ingest restarts (same RPC address, which the gateway calls) while the policy service does not answer it.
    policyRpc.cut();
    const first = system.services.find((s) => s.name === 'event-ingest')!;
    const rpcPort = String(first.context.config.RPC_PORT);
    await first.stop();
    replacement = await startService(
      eventIngestService,
      {
        DATABASE_URL: system.db.url,
        DATABASE_ALLOW_PRIVILEGED_ROLE: 'true',
        DATABASE_POOL_SIZE: '8',
        VIGIL_ENCRYPTION_KEYS: readFileSync(join(system.dataDir, 'encryption.key'), 'utf8').trim(),
        KAFKA_BROKERS: system.kafka!.brokers.join(','),
        KAFKA_TOPIC_PREFIX: system.kafka!.prefix,
        ...system.kafka!.env,
        LOG_LEVEL: 'fatal',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        METRICS_PORT: '0',
        RPC_HOST: '127.0.0.1',
        RPC_PORT: rpcPort,
        OUTBOX_POLL_MS: '50',
        POLICY_RPC_ADDRESS: `127.0.0.1:${policyRpc.port}`,
        // The wait at start for the policies, before the HTTP request below is refused.
        ENFORCEMENT_READY_TIMEOUT_MS: '1000',
        DELIVERY_RPC_ADDRESS: `127.0.0.1:${system.services.find((s) => s.name === 'delivery')!.context.config.RPC_PORT}`,
      },
      { rpcCredentials: testRpcCredentials('event-ingest') },
    );
    expect(await ready()).toMatchObject({ status: 503, checks: { policies: 'down' } });

    // HTTP ingest: refused as a whole, with the code and Retry-After, through the gateway.
    const httpRecord = { id: 'enf-http-0', type: 'database.query', database_id: DATABASE, details: { user: 'eve', query: 'DROP TABLE invoices' } };
    const refused = await api('POST', '/v1/events/ingest', { events: [httpRecord] });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ status: 503, code: 'enforcement_not_ready' });
    expect(refused.headers.get('retry-after')).toBe('1');

    // audit.ingest: ten flagged records and ten others, handed to the consumer and held.
    const records = Array.from({ length: 20 }, (_, i) => ({
      key: DATABASE,
      value: JSON.stringify({ id: `enf-kafka-${i}`, type: 'database.query', database_id: DATABASE, details: { user: 'eve', query: i % 2 ? `SELECT ${i}` : `DROP TABLE t${i}` } }),
      headers: {},
    }));
    await producer.publish([{ topic: Topics.auditIngest, messages: records }]);
    const lag = replacement.context.metrics.getSingleMetric('vigil_consumer_lag')!;
    const inHand = async () =>
      (await lag.get()).values.filter((v) => v.labels.group === 'event-ingest.audit-ingest' && v.labels.topic === Topics.auditIngest).reduce((sum, v) => sum + v.value, 0);
    await waitFor(async () => (await inHand()) === records.length, 60_000, 'the records handed to the consumer');
    // Several refusals of the batch (each after a 1 s pause) before looking.
    await new Promise((r) => setTimeout(r, 4000));
    expect(await stored()).toEqual({ rows: 0, ids: 0 });
    expect(await deadLettered()).toBe(0n);
    expect(await committed()).toEqual([]);
    expect((await ready()).status).toBe(503);

    // The policy service answers: the load (retried all along) succeeds.
    policyRpc.restore();
    await waitFor(async () => (await ready()).status === 200, 60_000, 'event-ingest ready once the policies are loaded');
    const accepted = await api('POST', '/v1/events/ingest', { events: [httpRecord] });
    expect(accepted.status).toBe(202);
    await waitFor(async () => (await stored()).rows >= 21, 60_000, 'every record stored');
    expect(await stored()).toEqual({ rows: 21, ids: 21 });

    // Each flagged record with exactly one policy.violation, stored with it; the others with none.
    const outcomes = await system.db.query<{ producer_id: string; violations: number }>(
      `SELECT e.producer_id, count(v.id)::int AS violations FROM event_ingest.events e
       LEFT JOIN event_ingest.events v ON v.policy_id = $1 AND v.type = 'policy.violation' AND v.details->>'triggering_event_id' = e.id
       WHERE e.producer_id LIKE 'enf-%' GROUP BY e.producer_id`,
      [policyId],
    );
    const flagged = (producerId: string) => producerId === 'enf-http-0' || Number(producerId.split('-').pop()) % 2 === 0;
    expect(outcomes).toHaveLength(21);
    for (const { producer_id, violations } of outcomes) expect({ producer_id, violations }).toEqual({ producer_id, violations: flagged(producer_id) ? 1 : 0 });
    await waitFor(async () => (await api('GET', `/v1/policies/${policyId}/violations`)).body.pagination.total === 11, 30_000, 'the eleven violation records');
    expect(await deadLettered()).toBe(0n);
  }, 300_000);
});
