import type { Api, Database } from '../api/client';
import { ErrorMessage, Loading, Time } from '../components';
import { useRequest } from '../lib/use-request';

function DatabaseTable({ caption, databases }: { caption: string; databases: Database[] }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Database</th>
            <th scope="col">Type</th>
            <th scope="col">Connection</th>
            <th scope="col">Since</th>
            <th scope="col">Events (critical / warning / info)</th>
            <th scope="col">Last event</th>
          </tr>
        </thead>
        <tbody>
          {databases.map((database) => (
            <tr key={database.id}>
              <td>
                <strong>{database.name}</strong>
                <div className="muted small">
                  {database.id}
                  {database.environment ? ` · ${database.environment}` : ''}
                  {database.host ? ` · ${database.host}${database.port ? `:${database.port}` : ''}` : ''}
                </div>
              </td>
              <td>{database.type ?? '—'}</td>
              <td>
                {database.connection_status}
                {database.last_error && <div className="small">{database.last_error}</div>}
              </td>
              <td>
                <Time iso={database.connection_status_changed_at} />
              </td>
              <td>
                {database.event_counts.critical} / {database.event_counts.warning} / {database.event_counts.info}
              </td>
              <td>
                <Time iso={database.last_event_at} relative />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DatabasesPage({ api }: { api: Api }) {
  const [registered] = useRequest('databases:registered', () => api.GET('/v1/databases', { params: { query: { status: 'registered', page: 1, per_page: 100 } } }));
  const [discovered] = useRequest('databases:discovered', () => api.GET('/v1/databases', { params: { query: { status: 'discovered', page: 1, per_page: 100 } } }));
  return (
    <main id="main" className="wide">
      <h1>Databases</h1>
      <section aria-labelledby="registered">
        <h2 id="registered">Registered</h2>
        {registered.state === 'loading' && <Loading what="databases" />}
        {registered.state === 'error' && <ErrorMessage error={registered.error} status={registered.status} />}
        {registered.state === 'done' && registered.data.data.length === 0 && <p className="empty">No databases registered yet.</p>}
        {registered.state === 'done' && registered.data.data.length > 0 && <DatabaseTable caption="Registered databases" databases={registered.data.data} />}
      </section>
      <section aria-labelledby="discovered">
        <h2 id="discovered">Discovered</h2>
        <p className="muted">Databases Vigil has received events from without their being registered.</p>
        {discovered.state === 'loading' && <Loading what="databases" />}
        {discovered.state === 'error' && <ErrorMessage error={discovered.error} status={discovered.status} />}
        {discovered.state === 'done' && discovered.data.data.length === 0 && <p className="empty">No unregistered databases seen.</p>}
        {discovered.state === 'done' && discovered.data.data.length > 0 && <DatabaseTable caption="Discovered databases" databases={discovered.data.data} />}
      </section>
    </main>
  );
}
