import { deadLetterTopic, MessageHeaders, Topics } from '@vigil/contracts';
import { createLogger } from '@vigil/platform';
import { KafkaBus, kafkaSecurityFromEnv, type IncomingMessage } from '@vigil/messaging';
import { waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';
import { thinSliceScenarios } from './testing/thin-slice';

/**
 * Distributed mode: the same services on a real Kafka broker and an external PostgreSQL, each
 * connected as its own runtime role (docs/operations.md#database-roles).
 */
describe('distributed mode: Kafka and PostgreSQL', () => {
  let system: TestSystem;
  let producer: KafkaBus;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'kafka', roles: true });
    producer = new KafkaBus({ brokers: system.kafka!.brokers, clientId: 'e2e-producer', prefix: system.kafka!.prefix, logger: createLogger('test', 'warn'), security: kafkaSecurityFromEnv(system.kafka!.env) });
  }, 120_000);

  afterAll(async () => {
    await producer?.close();
    await system?.close();
  });

  it('runs on Kafka and the external database', () => {
    expect(system.mode).toEqual({ database: 'external', bus: 'kafka' });
  });

  it('connects each service as its own runtime role', async () => {
    const sessions = await system.db.query<{ application_name: string; role: string }>(
      `SELECT DISTINCT application_name, usename AS role FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'vigil-%' ORDER BY 1`,
    );
    const { services } = system.roles!;
    expect(sessions).toEqual([
      { application_name: 'vigil-auth', role: services.auth.role },
      { application_name: 'vigil-delivery', role: services.delivery.role },
      { application_name: 'vigil-event-ingest', role: services['event-ingest'].role },
      { application_name: 'vigil-policy', role: services.policy.role },
    ]);
  });

  thinSliceScenarios(() => system);

  const publish = (records: unknown[]) =>
    producer.publish([{ topic: Topics.auditIngest, messages: records.map((r) => ({ key: 'db_kafka', value: typeof r === 'string' ? r : JSON.stringify(r), headers: {} })) }]);

  // Fails when the second copy is stored again (checked by turning off the producer-id checks in
  // IngestService.store: 2 rows).
  it('stores a record published to audit.ingest once, even when published twice, and serves it by id', async () => {
    const producerId = `kafka-${Date.now()}`;
    const marker = `${producerId}-marker`;
    const record = { id: producerId, type: 'security.threat_detected', database_id: 'db_kafka', details: { user: 'eve', threat_type: 'sql_injection' } };
    // The marker has the same key, so it sits behind both copies on one partition: once it is
    // stored, the second copy has been consumed too.
    await publish([record, record, { id: marker, type: 'database.query', database_id: 'db_kafka' }]);
    await waitFor(
      async () => (await system.db.query(`SELECT 1 FROM event_ingest.events WHERE producer_id = $1`, [marker])).length === 1,
      30_000,
      'the marker behind both copies stored',
    );
    const rows = await system.db.query<{ id: string }>(`SELECT id FROM event_ingest.events WHERE producer_id = $1`, [producerId]);
    expect(rows).toHaveLength(1);
    const token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    const event = await http(system.gatewayUrl, 'GET', `/v1/events/${rows[0]!.id}`, { token });
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({ type: 'security.threat_detected', severity: 'critical', details: { threat_type: 'sql_injection' } });
    // A producer that does not name itself is attributed to the topic.
    expect(event.body.ingested_by).toEqual({ kind: 'producer', id: 'kafka:audit.ingest' });
  });

  it('sends an invalid record on audit.ingest to audit.ingest.dlq with the reason, and keeps consuming', async () => {
    const dead: IncomingMessage[] = [];
    const tap = await producer.subscribe({ groupId: `dlq-tap-${Date.now()}`, topics: [deadLetterTopic(Topics.auditIngest)], handler: async (m) => void dead.push(...m) });
    const after = `kafka-after-${Date.now()}`;
    await publish(['{"type": "database.query"', { type: 'database.query', database_id: 'not-a-db-id' }, { id: after, type: 'database.query', database_id: 'db_kafka' }]);
    await waitFor(() => dead.length >= 2, 30_000, 'two dead letters');
    expect(dead.map((m) => m.headers[MessageHeaders.deadLetterReason])).toEqual([
      'value is not valid JSON',
      expect.stringContaining('database_id'),
    ]);
    await waitFor(async () => (await system.db.query(`SELECT 1 FROM event_ingest.events WHERE producer_id = $1`, [after])).length === 1, 30_000, 'the valid record after them');
    await tap.stop();
  });

  it('dead-letters the types only Vigil produces with the reason, stores none of them, and attributes records to a producer that names itself', async () => {
    const dead: IncomingMessage[] = [];
    const tap = await producer.subscribe({ groupId: `reserved-tap-${Date.now()}`, topics: [deadLetterTopic(Topics.auditIngest)], handler: async (m) => void dead.push(...m) });
    const run = Date.now();
    const reserved = ['policy.violation', 'policy.match', 'vigil.policy.created'].map((type, i) => ({ id: `reserved-${run}-${i}`, type, database_id: 'db_kafka' }));
    const after = `named-${run}`;
    await publish(reserved);
    await producer.publish([
      { topic: Topics.auditIngest, messages: [{ key: 'db_kafka', value: JSON.stringify({ id: after, type: 'database.query', database_id: 'db_kafka' }), headers: { [MessageHeaders.producer]: 'agent:billing-01' } }] },
    ]);
    await waitFor(() => dead.filter((m) => reserved.some((r) => m.value.includes(r.id))).length === 3, 30_000, 'three dead letters');
    expect(dead.filter((m) => reserved.some((r) => m.value.includes(r.id))).map((m) => m.headers[MessageHeaders.deadLetterReason])).toEqual(
      reserved.map((r) => expect.stringContaining(`"${r.type}" is reserved to Vigil`)),
    );
    const [stored] = await waitFor(async () => {
      const rows = await system.db.query<{ id: string }>(`SELECT id FROM event_ingest.events WHERE producer_id = $1`, [after]);
      return rows.length ? rows : undefined;
    }, 30_000, 'the record after them');
    expect(await system.db.query(`SELECT 1 FROM event_ingest.events WHERE producer_id = ANY($1::text[])`, [reserved.map((r) => r.id)])).toEqual([]);
    const token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    expect((await http(system.gatewayUrl, 'GET', `/v1/events/${stored!.id}`, { token })).body.ingested_by).toEqual({ kind: 'producer', id: 'agent:billing-01' });
    await tap.stop();
  });
});
