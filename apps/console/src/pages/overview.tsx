import type { Api } from '../api/client';
import { ErrorMessage, Link, Loading } from '../components';
import { policyPath } from '../lib/routes';
import { hasScope, type Scopes } from '../lib/scopes';
import { useRequest } from '../lib/use-request';
import { MOST_VIOLATED_KEY, readMostViolated, readSummary, summaryKey } from '../lib/overview-data';
import { EventRateChart } from './event-rate-chart';

export function OverviewPage({ api, scopes }: { api: Api; scopes: Scopes }) {
  const alerts = hasScope(scopes, 'read:alerts');
  const databases = hasScope(scopes, 'read:databases');
  const logs = hasScope(scopes, 'read:logs');
  const [result] = useRequest(summaryKey(alerts, databases), () => readSummary(api, alerts, databases));
  return (
    <main id="main">
      <h1>Overview</h1>
      {logs && <EventRateChart api={api} />}
      {hasScope(scopes, 'read:policies') && <MostViolated api={api} />}
      {result.state === 'loading' && <Loading what="the overview" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && !logs && !result.data.open && !result.data.databases && <p className="empty">Your access does not include events, alerts or databases.</p>}
      {result.state === 'done' && (
        <>
          {result.data.open && (
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
          )}
          {result.data.databases && (
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
          )}
        </>
      )}
    </main>
  );
}

/** The five policies with the most violations (all time): `GET /v1/policies?sort=violation_count`. Needs read:policies. */
function MostViolated({ api }: { api: Api }) {
  const [result] = useRequest(MOST_VIOLATED_KEY, () => readMostViolated(api));
  const violated = result.state === 'done' ? result.data.data.filter((p) => p.violation_count > 0) : [];
  return (
    <section aria-labelledby="most-violated">
      <h2 id="most-violated">Most violated policies</h2>
      {result.state === 'loading' && <Loading what="the policies" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' &&
        (violated.length === 0 ? (
          <p className="empty">No policy has been violated yet.</p>
        ) : (
          <ol className="plain ranking">
            {violated.map((policy) => (
              <li key={policy.id}>
                <Link to={policyPath(policy.id)}>{policy.name}</Link>{' '}
                <span className="muted">
                  {policy.violation_count} violation{policy.violation_count === 1 ? '' : 's'}
                  {policy.enabled ? '' : ', disabled'}
                  {policy.enforcement_mode === 'shadow' ? ', shadow mode' : ''}
                </span>
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}
