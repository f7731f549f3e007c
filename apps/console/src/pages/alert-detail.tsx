import { useState } from 'react';
import type { Alert, Api } from '../api/client';
import { ErrorMessage, Link, Loading, SeverityBadge, StatusBadge } from '../components';
import { absoluteTime } from '../lib/format';
import { useRequest } from '../lib/use-request';

export function AlertDetailPage({ api, id, canChange }: { api: Api; id: string; canChange: boolean }) {
  const [result, reload] = useRequest(`alert:${id}`, () => api.GET('/v1/alerts/{alert_id}', { params: { path: { alert_id: id } } }));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown; status?: number }>();
  const [notice, setNotice] = useState('');

  async function act(action: 'acknowledge' | 'resolve') {
    setBusy(true);
    setFailure(undefined);
    setNotice('');
    try {
      const path = action === 'acknowledge' ? '/v1/alerts/{alert_id}/acknowledge' : '/v1/alerts/{alert_id}/resolve';
      const { data, error, response } = await api.POST(path, { params: { path: { alert_id: id } } });
      if (data) {
        setNotice(action === 'acknowledge' ? 'Alert acknowledged.' : 'Alert resolved.');
        reload();
      } else setFailure({ error, status: response.status });
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main">
      <p>
        <Link to="/alerts">← All alerts</Link>
      </p>
      {result.state === 'loading' && <Loading what="the alert" />}
      {result.state === 'error' && (
        <>
          <h1>Alert</h1>
          <ErrorMessage error={result.error} status={result.status} />
        </>
      )}
      {result.state === 'done' && <AlertView alert={result.data} busy={busy} canChange={canChange} onAction={act} />}
      <div role="status" className="notice">
        {notice}
      </div>
      {failure && <ErrorMessage error={failure.error} status={failure.status} />}
    </main>
  );
}

function AlertView({ alert, busy, canChange, onAction }: { alert: Alert; busy: boolean; canChange: boolean; onAction: (action: 'acknowledge' | 'resolve') => void }) {
  const rows: [string, string][] = [
    ['Type', alert.type.replace(/_/g, ' ')],
    ['Policy', alert.policy_name ?? '—'],
    ['Database', alert.database_id],
    ['Occurrences', String(alert.occurrences)],
    ['First seen', absoluteTime(alert.first_seen_at)],
    ['Last seen', absoluteTime(alert.last_seen_at)],
    ['Acknowledged', alert.acknowledged_at ? absoluteTime(alert.acknowledged_at) : '—'],
    ['Resolved', alert.resolved_at ? absoluteTime(alert.resolved_at) : '—'],
  ];
  return (
    <article aria-labelledby="alert-title">
      <h1 id="alert-title">{alert.title}</h1>
      <p>
        <SeverityBadge severity={alert.severity} /> <StatusBadge status={alert.status} />
      </p>
      <p>{alert.description}</p>
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {!canChange && alert.status !== 'resolved' && <p className="muted">Acknowledging and resolving alerts needs the write:alerts scope.</p>}
      <div className="actions">
        {canChange && alert.status === 'open' && (
          <button type="button" disabled={busy} onClick={() => onAction('acknowledge')}>
            Acknowledge
          </button>
        )}
        {canChange && alert.status !== 'resolved' && (
          <button type="button" disabled={busy} onClick={() => onAction('resolve')}>
            Resolve
          </button>
        )}
      </div>
    </article>
  );
}
