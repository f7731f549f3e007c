import { expiredPartitions, startOfUtcDay, wantedDays } from './event-partitions.service';
import { applyFilters, decodeCursor, encodeCursor, likeEscape, operationOf, Where } from './event-query';

describe('event queries', () => {
  it('turns one value into = and several into = ANY, with parameters in order', () => {
    const where = new Where();
    applyFilters(where, { types: ['a.b'], severities: ['info', 'warning'], start: '2026-01-01T00:00:00.000Z', query_contains: '50%_off' });
    expect(where.sql()).toBe(`WHERE type = $1 AND severity = ANY($2::text[]) AND "timestamp" >= $3::timestamptz AND details->>'query' ILIKE $4`);
    expect(where.params).toEqual(['a.b', ['info', 'warning'], '2026-01-01T00:00:00.000Z', '%50\\%\\_off%']);
  });

  it('escapes LIKE wildcards so text matches are literal', () => {
    expect(likeEscape('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });

  it('round-trips cursors and refuses forged ones', () => {
    const cursor = { t: '2026-01-01T00:00:00.000Z', id: 'evt_01abc', s: '42' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor('abc')).toBeNull();
    expect(decodeCursor(Buffer.from(JSON.stringify({ ...cursor, s: '1; DROP' })).toString('base64url'))).toBeNull();
    expect(decodeCursor(Buffer.from(JSON.stringify({ ...cursor, t: 'yesterday' })).toString('base64url'))).toBeNull();
  });

  it.each([
    ['SELECT 1', 'SELECT'],
    ['  delete from t', 'DELETE'],
    ['/* hint */ update t set a = 1', 'UPDATE'],
    ['-- comment\nDROP TABLE x', 'DROP'],
    ['', null],
    [undefined, null],
    ['42', null],
  ])('the operation of %j is %s', (query, expected) => {
    expect(operationOf(query)).toBe(expected);
  });
});

describe('partition schedule', () => {
  const now = new Date('2026-03-10T15:30:00.000Z');
  const day = (d: string) => ({ name: `events_p${d.replace(/-/g, '')}`, day: new Date(`${d}T00:00:00.000Z`) });

  it('wants yesterday through the days ahead', () => {
    expect(wantedDays(now, 2).map((d) => d.toISOString().slice(0, 10))).toEqual(['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12']);
    expect(startOfUtcDay(now).toISOString()).toBe('2026-03-10T00:00:00.000Z');
  });

  it('drops only days entirely older than the retention', () => {
    const partitions = [day('2026-03-01'), day('2026-03-02'), day('2026-03-03'), day('2026-03-10')];
    expect(expiredPartitions(partitions, now, 8).map((p) => p.name)).toEqual(['events_p20260301']);
    expect(expiredPartitions(partitions, now, 7).map((p) => p.name)).toEqual(['events_p20260301', 'events_p20260302']);
    expect(expiredPartitions(partitions, now, 0)).toEqual([]);
  });
});
