import { alertFiltersToQuery, alertFiltersToSearch, DEFAULT_ALERT_FILTERS, parseAlertFilters, toggleFilter } from './alert-filters';

describe('alert filters', () => {
  it('reads statuses, severities and the page from the address, in canonical order', () => {
    expect(parseAlertFilters('?status=resolved,open&severity=low,critical&page=3')).toEqual({ statuses: ['open', 'resolved'], severities: ['critical', 'low'], page: 3 });
  });

  it('drops unknown values and bad page numbers instead of sending them to the API', () => {
    expect(parseAlertFilters('?status=open,closed&severity=urgent&page=-2')).toEqual({ statuses: ['open'], severities: [], page: 1 });
    expect(parseAlertFilters('?page=1.5')).toEqual(DEFAULT_ALERT_FILTERS);
    expect(parseAlertFilters('')).toEqual(DEFAULT_ALERT_FILTERS);
  });

  it('writes the address back with readable commas, and nothing for the defaults', () => {
    expect(alertFiltersToSearch({ statuses: ['open', 'acknowledged'], severities: ['high'], page: 2 })).toBe('?status=open,acknowledged&severity=high&page=2');
    expect(alertFiltersToSearch(DEFAULT_ALERT_FILTERS)).toBe('');
    const filters = { statuses: ['acknowledged' as const], severities: ['info' as const, 'medium' as const], page: 4 };
    expect(parseAlertFilters(alertFiltersToSearch(filters))).toEqual({ ...filters, severities: ['medium', 'info'] });
  });

  it('builds the query of GET /v1/alerts, leaving out empty filters', () => {
    expect(alertFiltersToQuery({ statuses: ['open'], severities: ['critical', 'high'], page: 2 }, 25)).toEqual({ status: 'open', severity: 'critical,high', page: 2, per_page: 25 });
    expect(alertFiltersToQuery(DEFAULT_ALERT_FILTERS, 50)).toEqual({ page: 1, per_page: 50 });
  });

  it('toggles one value, keeps the canonical order and goes back to the first page', () => {
    const start = { statuses: ['resolved' as const], severities: [], page: 5 };
    expect(toggleFilter(start, 'statuses', 'open')).toEqual({ statuses: ['open', 'resolved'], severities: [], page: 1 });
    expect(toggleFilter(start, 'statuses', 'resolved')).toEqual({ statuses: [], severities: [], page: 1 });
  });
});
