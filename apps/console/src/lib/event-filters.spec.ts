import { EMPTY_EVENT_FILTERS, eventFiltersToQuery, eventFiltersToSearch, eventSearchBody, needsSearch, parseEventFilters, streamQuery } from './event-filters';

describe('event filters', () => {
  it('round-trips every filter through the address, readable', () => {
    const filters = { type: 'security.*', severities: ['critical' as const, 'info' as const], database: 'db_a', user: 'eve', sourceIp: '10.0.0.1', from: '2026-11-01T00:00', to: '', text: '', operations: '' };
    const search = eventFiltersToSearch(filters);
    expect(search).toBe('?type=security.*&database_id=db_a&user=eve&source_ip=10.0.0.1&from=2026-11-01T00:00&severity=critical,info');
    expect(parseEventFilters(search)).toEqual(filters);
    expect(eventFiltersToSearch(EMPTY_EVENT_FILTERS)).toBe('');
    expect(parseEventFilters('?severity=urgent,warning')).toEqual({ ...EMPTY_EVENT_FILTERS, severities: ['warning'] });
  });

  it('builds the API query with UTC instants and the cursor of the page', () => {
    const { query, errors } = eventFiltersToQuery({ ...EMPTY_EVENT_FILTERS, type: 'security.* , database.query', from: '2026-11-01T00:00', to: '2026-11-02T00:00' }, 50, { cursor: 'c1', snapshot: 's1' });
    expect(errors).toEqual([]);
    expect(query).toEqual({ limit: 50, type: 'security.*,database.query', start_date: new Date(2026, 10, 1).toISOString(), end_date: new Date(2026, 10, 2).toISOString(), cursor: 'c1', snapshot: 's1' });
  });

  it('reports unreadable or inverted times against the API field they would fill', () => {
    expect(eventFiltersToQuery({ ...EMPTY_EVENT_FILTERS, from: 'soon' }, 10).errors).toEqual([{ field: 'start_date', message: 'is not a date and time' }]);
    expect(eventFiltersToQuery({ ...EMPTY_EVENT_FILTERS, from: '2026-11-02T00:00', to: '2026-11-01T00:00' }, 10).errors).toEqual([{ field: 'end_date', message: 'must be after the start' }]);
  });

  it('builds the live stream query, leaving out empty filters', () => {
    expect(streamQuery({ type: '', severities: [], database: '' })).toEqual({});
    expect(streamQuery({ type: 'database.*', severities: ['critical'], database: 'a, b' })).toEqual({ type: 'database.*', severity: 'critical', database_id: 'a,b' });
  });

  it('uses the search for query text and SQL operations, over the longest range unless a start is given', () => {
    expect(needsSearch(EMPTY_EVENT_FILTERS)).toBe(false);
    const filters = { ...EMPTY_EVENT_FILTERS, text: ' password ', operations: 'drop, delete', database: 'db_a' };
    expect(needsSearch(filters)).toBe(true);
    expect(eventSearchBody(filters, 50, 'c2')).toEqual({ body: { limit: 50, cursor: 'c2', filters: { database_id: 'db_a', query: { contains: 'password' }, operation: { in: ['DROP', 'DELETE'] }, time_range: { last: '400d' } } }, errors: [] });
    const ranged = eventSearchBody({ ...filters, from: '2026-11-01T00:00', to: '2026-11-02T00:00' }, 10).body.filters.time_range;
    expect(ranged).toEqual({ start: new Date(2026, 10, 1).toISOString(), end: new Date(2026, 10, 2).toISOString() });
    expect(eventSearchBody({ ...filters, to: '2026-11-02T00:00' }, 10).errors).toEqual([{ field: 'start_date', message: 'is needed with an end when searching query text' }]);
    expect(eventFiltersToSearch(filters)).toBe('?database_id=db_a&q=password&operation=drop,+delete');
  });
});
