import { withCorrelationId, withRequestOrigin } from '@vigil/platform';
import { AuditTrail, changedFields, REDACTED, redactSecrets } from './audit-trail';
import type { OutboxWriter } from './outbox';

describe('audit trail', () => {
  it('redacts secret-named fields at any depth and keeps identifiers', () => {
    const redacted = redactSecrets({
      name: 'k',
      key: 'vigil_ak_x',
      key_hash: 'abc',
      key_id: 'key_1',
      prefix: 'vigil_ak_12',
      client_secret: 's',
      password: 'p',
      settings: { headers: { authorization: 'Bearer t' }, url: 'https://x', refresh_token: 'r' },
      list: [{ api_key: 'a' }],
    });
    expect(redacted).toEqual({
      name: 'k',
      key: REDACTED,
      key_hash: REDACTED,
      key_id: 'key_1',
      prefix: 'vigil_ak_12',
      client_secret: REDACTED,
      password: REDACTED,
      settings: { headers: REDACTED, url: 'https://x', refresh_token: REDACTED },
      list: [{ api_key: REDACTED }],
    });
  });

  it('keeps only the changed fields of an update, and the whole state of a creation or deletion', () => {
    expect(changedFields({ a: 1, b: [1], updated_at: 'x' }, { a: 1, b: [2], updated_at: 'y', c: true })).toEqual({ before: { b: [1], c: null }, after: { b: [2], c: true } });
    expect(changedFields(null, { a: 1 })).toEqual({ before: null, after: { a: 1 } });
    expect(changedFields({ a: 1 }, null)).toEqual({ before: { a: 1 }, after: null });
  });

  it('takes the actor, address and user agent from the request origin, never from the change', () => {
    const trail = new AuditTrail({} as OutboxWriter, 'policy', () => 'evt_1');
    const origin = { actor: { kind: 'api_key' as const, id: 'key_1' }, source_ip: '203.0.113.9', user_agent: 'cli/1' };
    const envelope = withCorrelationId('corr-1', () =>
      withRequestOrigin(origin, () => trail.envelope({ type: 'vigil.policy.updated', target: { type: 'policy', id: 'pol_1' }, before: { x: 1 }, after: { x: 2 } })),
    );
    expect(envelope).toMatchObject({
      id: 'evt_1',
      type: 'vigil.policy.updated',
      key: 'pol_1',
      correlation_id: 'corr-1',
      data: { actor: { kind: 'api_key', id: 'key_1' }, source_ip: '203.0.113.9', user_agent: 'cli/1', correlation_id: 'corr-1', service: 'policy', changes: { before: { x: 1 }, after: { x: 2 } } },
    });
    // Work Vigil does on its own (no request) is the system's.
    expect(trail.envelope({ type: 'vigil.policy.updated', target: { type: 'policy', id: 'p' } }).data.actor).toEqual({ kind: 'system', id: 'policy' });
  });
});
