import { AuditEventTypes } from '@vigil/contracts';
import { expandTypePatterns, matchesFilters, parseDuration, resolveTimeRange } from './event-filters';

describe('type patterns', () => {
  it.each([
    ['security.*', ['security.threat_detected', 'security.anomaly', 'security.privilege_escalation']],
    ['database.query', ['database.query']],
    ['user.*,policy.violation', ['policy.violation', 'user.login_failed', 'user.login_success']],
  ])('%s expands to the catalog types it matches', (pattern, expected) => {
    expect(expandTypePatterns(pattern, 'type').types.sort()).toEqual([...expected].sort());
  });

  it('matches every type with *', () => {
    expect(expandTypePatterns('*', 'type').types).toEqual(AuditEventTypes);
  });

  it.each(['nothing.*', 'security', 'sec*.x', '*.query', 'security.*.*'])('refuses %s, which matches nothing', (pattern) => {
    expect(expandTypePatterns(pattern, 'filters.type').error).toEqual({ field: 'filters.type', message: expect.stringContaining('matches no event type') });
  });
});

describe('durations and time ranges', () => {
  it.each([
    ['15m', 900_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['0h', '24', 'h', '1y', '401d', '-1h'])('%s is not a duration', (text) => expect(parseDuration(text)).toBeNull());

  const now = new Date('2026-06-01T12:00:00.000Z');
  it('resolves last, start/end and the default', () => {
    expect(resolveTimeRange({ last: '1h' }, 'f', 0, now)).toEqual({ start: '2026-06-01T11:00:00.000Z', end: '2026-06-01T12:00:00.000Z' });
    expect(resolveTimeRange({ start: '2026-05-01T00:00:00Z' }, 'f', 0, now)).toEqual({ start: '2026-05-01T00:00:00.000Z', end: now.toISOString() });
    expect(resolveTimeRange(undefined, 'f', 86_400_000, now).start).toBe('2026-05-31T12:00:00.000Z');
  });

  it('names the field of a bad range', () => {
    expect(() => resolveTimeRange({ last: '1h', start: '2026-05-01T00:00:00Z' }, 'filters.time_range', 0, now)).toThrow(
      expect.objectContaining({ status: 400, errors: [{ field: 'filters.time_range.last', message: expect.any(String) }] }),
    );
    expect(() => resolveTimeRange({ start: '2026-06-02T00:00:00Z', end: '2026-06-01T00:00:00Z' }, 'r', 0, now)).toThrow(
      expect.objectContaining({ errors: [{ field: 'r.start', message: 'must be before end' }] }),
    );
  });
});

describe('live filter matching', () => {
  const event = {
    id: 'evt_1', type: 'security.anomaly', severity: 'warning', database_id: 'db_a', timestamp: '', processed_at: '',
    details: { user: 'alice', source_ip: '10.0.0.1' }, context: { policy_id: null, rule_id: null, risk_score: 50 }, producer_id: null,
  } as const;
  it('applies every filter with AND', () => {
    expect(matchesFilters(event, {})).toBe(true);
    expect(matchesFilters(event, { types: ['security.anomaly'], severities: ['warning'], database_ids: ['db_a'], users: ['alice'] })).toBe(true);
    expect(matchesFilters(event, { types: ['security.anomaly'], database_ids: ['db_b'] })).toBe(false);
    expect(matchesFilters(event, { source_ips: ['10.0.0.2'] })).toBe(false);
  });
});
