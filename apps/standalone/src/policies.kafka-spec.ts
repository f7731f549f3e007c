import { generateKeyPairSync } from 'node:crypto';
import { type AlertRequest, type EventEnvelope, POLICY_SNAPSHOT_SIGNATURE_PURPOSE, Topics } from '@vigil/contracts';
import { type IncomingMessage, KafkaBus, kafkaSecurityFromEnv } from '@vigil/messaging';
import { createLogger, signDocument } from '@vigil/platform';
import { waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

/** Enforcement on Kafka: records published to audit.ingest, policy changes over policy.events.v1. */
describe('policy enforcement through Kafka', () => {
  let system: TestSystem;
  let producer: KafkaBus;
  let token: string;
  const alerts: IncomingMessage[] = [];
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
  const publish = (records: unknown[]) =>
    producer.publish([{ topic: Topics.auditIngest, messages: records.map((r) => ({ key: 'db_kafka_pol', value: JSON.stringify(r), headers: {} })) }]);
  const violationCount = async (id: string) => (await api('GET', `/v1/policies/${id}/violations`)).body.pagination.total as number;
  /**
   * Publishes a record with `details` until the policy's stored outcome for it is `action`, one at a
   * time: a policy change reaches enforcement within about a second (docs/policies.md), so this waits
   * for the change instead of for a fixed time. Answers the policy's outcomes for the records before
   * (none while it was not in force).
   */
  const publishUntil = async (policyId: string, details: Record<string, unknown>, action: string) => {
    const before: string[] = [];
    await waitFor(async () => {
      const producerId = `k-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      await publish([{ id: producerId, type: 'database.query', database_id: 'db_kafka_pol', details }]);
      // The outcomes of a record are stored with it, in one transaction.
      const outcomes = await waitFor(async () => {
        const [stored] = await system.db.query<{ id: string }>(`SELECT id FROM event_ingest.events WHERE producer_id = $1`, [producerId]);
        if (!stored) return undefined;
        const rows = await system.db.query<{ action: string }>(
          `SELECT details->>'action_taken' AS action FROM event_ingest.events WHERE policy_id = $1 AND details->>'triggering_event_id' = $2`,
          [policyId, stored.id],
        );
        return rows.map((r) => r.action);
      }, 30_000, `record ${producerId} stored`);
      if (outcomes.includes(action)) return true;
      before.push(...outcomes);
      return false;
    }, 30_000, `${action} by policy ${policyId}`);
    return before;
  };

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'kafka' });
    producer = new KafkaBus({ brokers: system.kafka!.brokers, clientId: 'policy-e2e', prefix: system.kafka!.prefix, logger: createLogger('test', 'warn'), security: kafkaSecurityFromEnv(system.kafka!.env) });
    await producer.subscribe({ groupId: `alert-tap-${Date.now()}`, topics: [Topics.alertRequests], handler: async (m) => void alerts.push(...m) });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
  }, 180_000);

  afterAll(async () => {
    await producer?.close();
    await system?.close();
  });

  it('create -> enable -> violation listed and policy.violation stored; disable -> none; delete -> still listed', async () => {
    const created = await api('POST', '/v1/policies', {
      name: `kafka drops ${Date.now()}`,
      type: 'query_control',
      databases: ['db_kafka_pol'],
      config: { rules: [{ name: 'no drops', pattern: '\\bDROP\\s+TABLE\\b', action: 'alert', severity: 'high', channels: ['secops'] }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api('POST', `/v1/policies/${id}/enable`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));

    await publish([{ id: `k-${Date.now()}-1`, type: 'database.query', database_id: 'db_kafka_pol', details: { user: 'eve', source_ip: '203.0.113.1', query: 'DROP TABLE invoices' } }]);
    await waitFor(async () => (await violationCount(id)) === 1, 30_000, 'the violation');
    const [violation] = (await api('GET', `/v1/policies/${id}/violations`)).body.data;
    expect(violation).toMatchObject({ policy_id: id, user: 'eve', database: 'db_kafka_pol', query: 'DROP TABLE invoices', action_taken: 'alerted', severity: 'high', matched_conditions: ['query_pattern'] });
    const stored = await system.db.query<{ type: string; details: { violation_id: string } }>(`SELECT type, details FROM event_ingest.events WHERE policy_id = $1`, [id]);
    expect(stored).toEqual([expect.objectContaining({ type: 'policy.violation', details: expect.objectContaining({ violation_id: violation.id }) })]);
    expect((await api('GET', `/v1/policies/${id}`)).body.violation_count).toBe(1);

    // The alert request for delivery, on its documented topic.
    const alert = await waitFor(() => alerts.find((m) => (JSON.parse(m.value) as EventEnvelope<AlertRequest>).data.violation_id === violation.id), 30_000, 'the alert request');
    expect((JSON.parse(alert.value) as EventEnvelope<AlertRequest>).data).toMatchObject({ type: 'policy_violation', severity: 'high', channels: ['secops'], policy: { id }, actor: { user: 'eve' } });

    expect((await api('POST', `/v1/policies/${id}/disable`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    const marker = `k-${Date.now()}-marker`;
    await publish([
      { type: 'database.query', database_id: 'db_kafka_pol', details: { user: 'eve', query: 'DROP TABLE while disabled' } },
      { id: marker, type: 'database.query', database_id: 'db_kafka_pol', details: { user: 'eve', query: 'SELECT 1' } },
    ]);
    // The record after it is stored, so the disabled-time record was evaluated too; its policy
    // outcomes were stored with it, and a violation record exists only for a stored policy.violation
    // event: the policy's outcomes are still the one from before, so no later violation can appear.
    // (Fails when a disabled policy is still enforced: checked by keeping disabled policies in the
    // engine — 2 outcomes.)
    await waitFor(async () => (await system.db.query(`SELECT 1 FROM event_ingest.events WHERE producer_id = $1`, [marker])).length > 0, 30_000, 'the marker stored');
    const outcomes = await system.db.query<{ violation_id: string }>(`SELECT details->>'violation_id' AS violation_id FROM event_ingest.events WHERE policy_id = $1`, [id]);
    expect(outcomes).toEqual([{ violation_id: violation.id }]);
    expect(await violationCount(id)).toBe(1);

    expect((await api('DELETE', `/v1/policies/${id}`)).body).toEqual({ deleted: true, id });
    const after = await api('GET', `/v1/policies/${id}/violations`);
    expect(after.status).toBe(200);
    expect(after.body.data.map((v: { id: string }) => v.id)).toEqual([violation.id]);
    expect((await api('GET', `/v1/policies/${id}`)).status).toBe(404);
  }, 120_000);

  it('shadow mode: the violation is recorded as would_alert and no alert request is written; switched to enforce, it alerts', async () => {
    const created = await api('POST', '/v1/policies', {
      name: `kafka shadow ${Date.now()}`,
      type: 'query_control',
      databases: ['db_kafka_pol'],
      enabled: true,
      enforcement_mode: 'shadow',
      config: { rules: [{ name: 'no truncates', pattern: '\\bTRUNCATE\\b', action: 'alert', severity: 'high' }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await publishUntil(id, { user: 'eve', query: 'TRUNCATE invoices' }, 'would_alert');
    await waitFor(async () => (await violationCount(id)) === 1, 30_000, 'the shadow violation');
    const [shadowViolation] = (await api('GET', `/v1/policies/${id}/violations`)).body.data;
    expect(shadowViolation).toMatchObject({ action_taken: 'would_alert', query: 'TRUNCATE invoices' });

    expect((await api('PUT', `/v1/policies/${id}`, { enforcement_mode: 'enforce' })).body.enforcement_mode).toBe('enforce');
    // Until the switch reached enforcement, the policy still only recorded what it would have done.
    const before = await publishUntil(id, { user: 'eve', query: 'TRUNCATE payments' }, 'alerted');
    expect(before.filter((a) => a !== 'would_alert')).toEqual([]);
    await waitFor(async () => (await violationCount(id)) === 2 + before.length, 30_000, 'the enforced violation');
    const later = (await api('GET', `/v1/policies/${id}/violations`)).body.data.filter((v: { id: string }) => v.id !== shadowViolation.id);
    expect(later.map((v: { action_taken: string }) => v.action_taken).sort()).toEqual(['alerted', ...before]);
    const enforced = later.find((v: { action_taken: string }) => v.action_taken === 'alerted');
    expect(enforced).toMatchObject({ action_taken: 'alerted', query: 'TRUNCATE payments' });
    // Requests of one policy share a key, hence a partition and an order: once the enforced
    // violation's request is here, a request for the shadow one would be here too.
    const policyRequests = () => alerts.map((m) => (JSON.parse(m.value) as EventEnvelope<AlertRequest>).data).filter((r) => r.policy.id === id);
    await waitFor(() => policyRequests().some((r) => r.violation_id === enforced.id), 30_000, 'the alert request of the enforced violation');
    expect(policyRequests().map((r) => r.violation_id)).toEqual([enforced.id]);
  }, 120_000);

  it('forged and replayed snapshots written straight to the topic are refused and counted; enforcement holds; a real edit applies', async () => {
    const snapshots: IncomingMessage[] = [];
    await producer.subscribe({ groupId: `policy-tap-${Date.now()}`, topics: [Topics.policyEvents], handler: async (m) => void snapshots.push(...m) });
    const created = await api('POST', '/v1/policies', {
      name: `kafka forged ${Date.now()}`,
      type: 'query_control',
      databases: ['db_kafka_pol'],
      config: { rules: [{ name: 'no grants', pattern: '\\bGRANT\\b', action: 'alert', severity: 'high' }] },
    });
    const id = created.body.id as string;
    expect((await api('POST', `/v1/policies/${id}/enable`)).status).toBe(200);
    await publishUntil(id, { user: 'eve', query: 'GRANT ALL ON invoices TO eve' }, 'alerted');
    const genuine = await waitFor(() => {
      const mine = snapshots.filter((m) => JSON.parse(m.value).data.policy.id === id);
      return mine.length === 2 ? mine : undefined;
    }, 30_000, 'both snapshots of the policy on the topic');
    const [createdDisabled, enabled] = genuine.map((m) => ({ message: m, envelope: JSON.parse(m.value) as EventEnvelope<Record<string, any>> }));
    expect(createdDisabled!.envelope.data.signature).toEqual({ key_id: expect.stringMatching(/^psk_/), value: expect.any(String) });

    // What a writer to the topic could try: switch the policy off with a higher version, with the
    // genuine signature, with none, and signed by a key of its own; and replay the older state.
    const forged = (data: Record<string, any>) => JSON.stringify({ ...enabled!.envelope, id: `${id}:999`, data });
    const switchedOff = { ...enabled!.envelope.data.policy, enabled: false, version: 999 };
    const { privateKey } = generateKeyPairSync('ed25519');
    const attempts = [
      forged({ ...enabled!.envelope.data, policy: switchedOff }),
      forged({ change: 'policy.disabled', policy: switchedOff }),
      forged({ change: 'policy.disabled', policy: switchedOff, signature: signDocument(POLICY_SNAPSHOT_SIGNATURE_PURPOSE, switchedOff, 'psk_attacker', privateKey) }),
      createdDisabled!.message.value,
    ];
    const refusals = async () => {
      const metric = system.services.find((s) => s.name === 'event-ingest')!.context.metrics.getSingleMetric('vigil_policy_snapshots_refused_total');
      const values = (await metric!.get()).values;
      return Object.fromEntries(values.map((v) => [v.labels.reason, v.value]));
    };
    const before = await refusals();
    await producer.publish([{ topic: Topics.policyEvents, messages: attempts.map((value) => ({ key: id, value, headers: enabled!.message.headers })) }]);
    // The enforcement point has judged all four once each reason counted one more.
    const after = await waitFor(async () => {
      const now = await refusals();
      return ['bad_signature', 'unsigned', 'unknown_key', 'replayed'].every((r) => (now[r] ?? 0) >= (before[r] ?? 0) + 1) ? now : undefined;
    }, 30_000, 'the four snapshots refused');
    expect(['bad_signature', 'unsigned', 'unknown_key', 'replayed'].map((r) => after[r]! - (before[r] ?? 0))).toEqual([1, 1, 1, 1]);
    // Still enforced: the next matching record is alerted on, not let through.
    expect(await publishUntil(id, { user: 'eve', query: 'GRANT ALL ON payments TO eve' }, 'alerted')).toEqual([]);

    // A real edit through the API still applies: the service signs it.
    expect((await api('PUT', `/v1/policies/${id}`, { enforcement_mode: 'shadow' })).status).toBe(200);
    await publishUntil(id, { user: 'eve', query: 'GRANT ALL ON refunds TO eve' }, 'would_alert');
  }, 150_000);
});
