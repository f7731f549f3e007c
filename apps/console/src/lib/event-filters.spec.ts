import { EMPTY_EVENT_FILTERS, eventFiltersToQuery, eventFiltersToSearch, parseEventFilters, streamQuery } from './event-filters';

describe('event filters', () => {
  it('round-trips every filter through the address, readable', () => {
    const filters = { type: 'security.*', severities: ['critical' as const, 'info' as const], database: 'db_a', user: 'eve', sourceIp: '10.0.0.1', from: '2026-11-01T00:00', to: '' };
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
});
