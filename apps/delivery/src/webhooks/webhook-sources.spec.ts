import { createHmac } from 'node:crypto';
import { MessageHeaders, Topics } from '@vigil/contracts';
import { decodeWebhookEvents } from './webhooks.consumer';
import { signedHeaders, webhookBody, hmacSha256Hex } from './webhook-payload';

const message = (topic: string, value: unknown, id = 'msg-1') => ({
  topic, partition: 0, offset: '0', key: 'k', value: JSON.stringify(value), headers: { [MessageHeaders.messageId]: id },
});

describe('webhook sources', () => {
  it('maps a policy change on policy.events.v1 to policy.updated, keyed by the change id', () => {
    const policy = {
      id: 'pol_1', name: 'No drops', type: 'query_control', enabled: true, description: '', databases: ['db_a'], config: {},
      version: 2, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z', deleted: false,
    };
    const envelope = { id: 'pev_1', type: 'policy.enabled', schema_version: 1, occurred_at: '2026-01-02T00:00:00Z', key: 'pol_1', data: { change: 'policy.enabled', policy } };
    const decoded = decodeWebhookEvents(message(Topics.policyEvents, envelope, 'pev_1'));
    expect(decoded).toEqual({
      ok: true,
      messageId: 'pev_1',
      value: [{ id: 'pev_1', type: 'policy.updated', occurred_at: '2026-01-02T00:00:00Z', data: expect.objectContaining({ policy_id: 'pol_1', change: 'enabled', enabled: true, version: 2 }) }],
    });
    // A policy stored before enforcement modes existed enforces; a shadow one says so.
    expect((decoded as { value: { data: Record<string, unknown> }[] }).value[0]!.data.enforcement_mode).toBe('enforce');
    const shadow = { ...envelope, data: { change: 'policy.updated', policy: { ...policy, enforcement_mode: 'shadow' } } };
    const again = decodeWebhookEvents(message(Topics.policyEvents, shadow, 'pev_2')) as { value: { data: Record<string, unknown> }[] };
    expect(again.value[0]!.data).toMatchObject({ change: 'updated', enforcement_mode: 'shadow' });
  });

  it('delivers an audit event stored escaped (it held U+0000) in its stored form, flagged escaped', () => {
    const event = {
      id: 'evt_1', type: 'database.query', severity: 'info', database_id: 'db_a', timestamp: '2026-01-02T00:00:00.000Z', processed_at: '2026-01-02T00:00:00.000Z',
      details: { user: 'a\\0b', query: 'SELECT 1' }, context: { policy_id: null, rule_id: null, risk_score: 5 }, producer_id: null, escaped: true,
    };
    const envelope = { id: 'evt_1', type: 'audit.event', schema_version: 1, occurred_at: event.timestamp, key: 'db_a', data: event };
    const decoded = decodeWebhookEvents(message(Topics.auditEvents, envelope, 'evt_1')) as { ok: boolean; value: { data: Record<string, unknown> }[] };
    expect(decoded.ok).toBe(true);
    expect(decoded.value[0]!.data).toMatchObject({ user: 'a\\0b', escaped: true });
    const plain = decodeWebhookEvents(message(Topics.auditEvents, { ...envelope, data: { ...event, escaped: undefined } }, 'evt_1')) as { value: { data: Record<string, unknown> }[] };
    expect(plain.value[0]!.data).not.toHaveProperty('escaped');
  });

  it('refuses (for the dead-letter topic) a message that is not a valid envelope of its topic', () => {
    expect(decodeWebhookEvents(message(Topics.auditEvents, { id: 'x' }))).toMatchObject({ ok: false });
    expect(decodeWebhookEvents(message('unknown.topic.v1', {}))).toMatchObject({ ok: false, reason: expect.stringContaining('no webhook source') });
  });
});

describe('webhook payloads', () => {
  const event = { id: 'evt_1', type: 'security.threat_detected', occurred_at: '2026-01-01T00:00:00.000Z', data: { severity: 'critical' } };

  it('builds form A and form B bodies with their own timestamp field', () => {
    expect(Object.keys(JSON.parse(webhookBody('A', event)))).toEqual(['id', 'type', 'created', 'data']);
    expect(Object.keys(JSON.parse(webhookBody('B', event)))).toEqual(['id', 'type', 'created_at', 'data']);
    expect(JSON.parse(webhookBody('B', { ...event, test: true })).test).toBe(true);
  });

  it('signs "<timestamp>.<body>" in form A and the body alone in form B', () => {
    const body = webhookBody('A', event);
    const meta = { eventType: event.type, deliveryId: 'whd_1', deliveryAttemptId: 'wha_1', timestamp: 1767225600 };
    expect(signedHeaders('A', 's3cret', body, meta)['x-service-signature']).toBe(`sha256=${hmacSha256Hex('s3cret', `1767225600.${body}`)}`);
    expect(signedHeaders('B', 's3cret', body, meta)['x-service-signature']).toBe(`sha256=${hmacSha256Hex('s3cret', body)}`);
    // Known-answer check against an HMAC computed independently (RFC 4231 style).
    expect(hmacSha256Hex('key', 'The quick brown fox jumps over the lazy dog')).toBe('f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8');
  });

  it('adds the Standard Webhooks headers in both forms, keyed by the secret and naming the delivery, not the attempt', () => {
    const body = webhookBody('B', event);
    const meta = { eventType: event.type, deliveryId: 'whd_1', deliveryAttemptId: 'wha_1', timestamp: 1767225600 };
    const signature = `v1,${createHmac('sha256', Buffer.from('s3cret', 'utf8')).update(`whd_1.1767225600.${body}`).digest('base64')}`;
    for (const form of ['A', 'B'] as const) {
      const headers = signedHeaders(form, 's3cret', body, meta);
      expect(headers).toMatchObject({ 'webhook-id': 'whd_1', 'webhook-timestamp': '1767225600', 'webhook-signature': signature, 'x-service-timestamp': '1767225600', 'x-service-delivery-id': 'wha_1' });
    }
  });
});
