import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { type LeafEvent, eventLeafBytes, eventLeafHash, eventLeafHashHex, eventLeafText } from './leaf';

const event: LeafEvent & Record<string, unknown> = {
  id: 'evt_01JD8X2Y3Z',
  type: 'query.select',
  severity: 'info',
  database_id: 'db_main',
  timestamp: '2026-11-25T17:59:59.123Z',
  processed_at: '2026-11-25T18:00:00.001Z',
  details: { user: 'alice', query: 'SELECT * FROM "cards" WHERE id = $1', rows: 1, nested: { z: [1, 2.5], a: '\ud800' } },
  context: { policy_id: 'pol_1', rule_id: null, risk_score: 40 },
  producer_id: null,
  ingested_by: { kind: 'api_key', id: 'key_123' },
  // Fields of the published event that are not part of the leaf:
  database_name: 'main',
  related_events: ['evt_x'],
};

describe('event leaves', () => {
  it('are the JCS form of exactly the documented fields, version 1', () => {
    const expected = canonicalJson({
      v: 1,
      id: event.id,
      type: event.type,
      severity: event.severity,
      database_id: event.database_id,
      timestamp: event.timestamp,
      processed_at: event.processed_at,
      details: event.details,
      context: event.context,
      producer_id: null,
      ingested_by: event.ingested_by,
    });
    expect(eventLeafText(event)).toBe(expected);
    expect(eventLeafBytes(event)).toEqual(Buffer.from(expected, 'utf8'));
    expect(eventLeafHash(event)).toEqual(createHash('sha256').update(Buffer.from([0])).update(expected, 'utf8').digest());
  });

  it('writes absent producer_id and ingested_by as null and ignores extra context members', () => {
    const { producer_id: _p, ingested_by: _i, ...bare } = event;
    const text = eventLeafText({ ...bare, context: { ...event.context, extra: 1 } as LeafEvent['context'] });
    expect(JSON.parse(text)).toMatchObject({ producer_id: null, ingested_by: null, context: { policy_id: 'pol_1', rule_id: null, risk_score: 40 } });
    expect(text).not.toContain('extra');
  });

  it('changes with any leaf field and refuses events missing one', () => {
    const base = eventLeafHash(event);
    for (const change of [{ severity: 'high' }, { details: { ...event.details as object, rows: 2 } }, { ingested_by: null }, { timestamp: '2026-11-25T17:59:59.124Z' }]) {
      expect(eventLeafHash({ ...event, ...change } as LeafEvent)).not.toEqual(base);
    }
    expect(() => eventLeafText({ ...event, type: undefined } as unknown as LeafEvent)).toThrow(TypeError);
    expect(() => eventLeafText({ ...event, context: null } as unknown as LeafEvent)).toThrow(TypeError);
  });

  it('gives the same leaf whatever order details arrive in, integer-like member names included', () => {
    const sorted = { ...event, details: { a: 1, b: { c: [1, { e: 2, d: 3 }] }, 'z': '\u2028' } };
    const shuffled = { ...event, details: JSON.parse('{"z":"\\u2028","b":{"c":[1,{"d":3,"e":2}]},"a":1}') };
    expect(eventLeafText(shuffled)).toBe(eventLeafText(sorted));
    expect(eventLeafText(sorted)).toContain('"details":{"a":1,"b":{"c":[1,{"d":3,"e":2}]},"z":"\u2028"}');
    const numbered = { ...event, details: { 10: 'ten', 9: 'nine', x: 1 } };
    expect(eventLeafText(numbered)).toContain('"details":{"10":"ten","9":"nine","x":1}');
    expect(eventLeafHashHex(numbered)).toBe(eventLeafHash(numbered).toString('hex'));
  });
});

