import type { Api } from '../api/client';
import { ErrorMessage, Link, Loading, SeverityBadge, StatusBadge } from '../components';
import { ALERT_SEVERITIES, ALERT_STATUSES, type AlertFilters, alertFiltersToQuery, alertFiltersToSearch, parseAlertFilters, toggleFilter } from '../lib/alert-filters';
import { absoluteTime, relativeTime } from '../lib/format';
import { navigate } from '../lib/navigation';
import { alertPath } from '../lib/routes';
import { useRequest } from '../lib/use-request';

const PER_PAGE = 25;

export function AlertsPage({ api, search }: { api: Api; search: string }) {
  const filters = parseAlertFilters(search);
  const [result] = useRequest(`alerts${alertFiltersToSearch(filters)}`, () => api.GET('/v1/alerts', { params: { query: alertFiltersToQuery(filters, PER_PAGE) } }));
  const go = (next: AlertFilters) => navigate(`/alerts${alertFiltersToSearch(next)}`, { replace: true });

  return (
    <main id="main">
      <h1>Alerts</h1>
      <form className="filters" aria-label="Filter alerts" onSubmit={(event) => event.preventDefault()}>
        <fieldset>
          <legend>Status</legend>
          {ALERT_STATUSES.map((status) => (
            <label key={status} className="check">
              <input type="checkbox" checked={filters.statuses.includes(status)} onChange={() => go(toggleFilter(filters, 'statuses', status))} /> {status}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Severity</legend>
          {ALERT_SEVERITIES.map((severity) => (
            <label key={severity} className="check">
              <input type="checkbox" checked={filters.severities.includes(severity)} onChange={() => go(toggleFilter(filters, 'severities', severity))} /> {severity}
            </label>
          ))}
        </fieldset>
      </form>
      {result.state === 'loading' && <Loading what="alerts" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.data.length === 0 && (
        <p className="empty">{filters.statuses.length || filters.severities.length ? 'No alert matches these filters.' : 'No alerts yet.'}</p>
      )}
      {result.state === 'done' && result.data.data.length > 0 && (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Alerts, newest first">
            <table>
              <caption className="visually-hidden">Alerts, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Alert</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {result.data.data.map((alert) => (
                  <tr key={alert.id}>
                    <td>
                      <Link to={alertPath(alert.id)}>{alert.title}</Link>
                      {alert.occurrences > 1 && <span className="muted small"> ×{alert.occurrences}</span>}
                    </td>
                    <td>
                      <SeverityBadge severity={alert.severity} />
                    </td>
                    <td>
                      <StatusBadge status={alert.status} />
                    </td>
                    <td>
                      <time dateTime={alert.last_seen_at} title={absoluteTime(alert.last_seen_at)}>
                        {relativeTime(alert.last_seen_at, new Date())}
                      </time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages of alerts">
            <button type="button" disabled={filters.page <= 1} onClick={() => go({ ...filters, page: filters.page - 1 })}>
              Previous page
            </button>
            <span>
              Page {filters.page} · {result.data.pagination.total} alerts
            </span>
            <button type="button" disabled={!result.data.pagination.has_more} onClick={() => go({ ...filters, page: filters.page + 1 })}>
              Next page
            </button>
          </nav>
        </>
      )}
    </main>
  );
}
