import { MessageHeaders } from '@vigil/contracts';
import type { IncomingMessage } from '@vigil/messaging';
import { decodeAuditRecord, producerOf } from './audit-ingest.consumer';

const message = (value: unknown, headers: Record<string, string> = {}): IncomingMessage => ({
  topic: 'audit.ingest',
  partition: 2,
  offset: '41',
  key: 'db_a',
  value: JSON.stringify(value),
  headers,
});

describe('audit.ingest records', () => {
  it('dead-letters the types only Vigil produces, naming the type and why', () => {
    for (const type of ['policy.violation', 'policy.match', 'vigil.policy.created', 'vigil.session.login_failed', 'audit.checkpoint']) {
      const decoded = decodeAuditRecord(message({ type, database_id: 'db_a' }));
      expect(decoded).toEqual({ ok: false, reason: expect.stringContaining(`type: "${type}" is reserved to Vigil`) });
    }
  });

  it('accepts the types producers may send, keyed by their place in the log', () => {
    expect(decodeAuditRecord(message({ type: 'user.login_failed', database_id: 'db_a' }))).toMatchObject({ ok: true, messageId: 'audit.ingest:2:41' });
  });

  it('attributes a record to the pg-proxy that names itself, or to the topic', () => {
    expect(producerOf(message({}, { [MessageHeaders.producer]: 'pg-proxy@host-1' }))).toEqual({ kind: 'proxy', id: 'pg-proxy@host-1' });
    expect(producerOf(message({}, { [MessageHeaders.producer]: 'agent:billing' }))).toEqual({ kind: 'producer', id: 'agent:billing' });
    expect(producerOf(message({}))).toEqual({ kind: 'producer', id: 'kafka:audit.ingest' });
    // A header that is not a plain identity is ignored rather than stored.
    expect(producerOf(message({}, { [MessageHeaders.producer]: 'x\n"evil"' }))).toEqual({ kind: 'producer', id: 'kafka:audit.ingest' });
  });
});
