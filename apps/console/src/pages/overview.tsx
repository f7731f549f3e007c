import type { Api } from '../api/client';
import { ErrorMessage, Link, Loading } from '../components';
import { ALERT_SEVERITIES } from '../lib/alert-filters';
import { useRequest } from '../lib/use-request';

async function overview(api: Api) {
  // One small call per severity: the list's total is the count of open alerts of that severity.
  const counts = await Promise.all(
    ALERT_SEVERITIES.map((severity) => api.GET('/v1/alerts', { params: { query: { status: 'open', severity, page: 1, per_page: 1 } } })),
  );
  const databases = await api.GET('/v1/databases', { params: { query: { page: 1, per_page: 100 } } });
  const failed = [...counts, databases].find((result) => result.error !== undefined || result.data === undefined);
  if (failed) return { error: failed.error, response: failed.response };
  return {
    data: { open: ALERT_SEVERITIES.map((severity, i) => ({ severity, count: counts[i]!.data!.pagination.total })), databases: databases.data!.data },
    response: databases.response,
  };
}

export function OverviewPage({ api }: { api: Api }) {
  const [result] = useRequest('overview', () => overview(api));
  return (
    <main id="main">
      <h1>Overview</h1>
      {result.state === 'loading' && <Loading what="the overview" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && (
        <>
          <section aria-labelledby="open-alerts">
            <h2 id="open-alerts">Open alerts</h2>
            <ul className="tiles">
              {result.data.open.map(({ severity, count }) => (
                <li key={severity} className={`tile severity-${severity}`}>
                  <Link to={`/alerts?status=open&severity=${severity}`}>
                    <span className="count">{count}</span> {severity}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="databases">
            <h2 id="databases">Databases</h2>
            {result.data.databases.length === 0 ? (
              <p className="empty">No databases registered yet.</p>
            ) : (
              <ul className="plain">
                {result.data.databases.map((database) => (
                  <li key={database.id}>
                    <strong>{database.name}</strong> <span className="muted">{database.connection_status}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}
