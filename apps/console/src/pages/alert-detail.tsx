import { useState } from 'react';
import type { Alert, Api } from '../api/client';
import { ActionResult, ErrorMessage, Link, Loading, SeverityBadge, StatusBadge, Time } from '../components';
import { ALERT_SEVERITIES, type AlertSeverity } from '../lib/alert-filters';
import { destinationPath, eventPath, policyPath } from '../lib/routes';
import { hasScope, type Scopes } from '../lib/scopes';
import { useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';

type AlertAction = 'acknowledge' | 'resolve' | 'escalate';

export function AlertDetailPage({ api, id, canChange, scopes }: { api: Api; id: string; canChange: boolean; scopes: Scopes }) {
  const [result, reload] = useRequest(`alert:${id}`, () => api.GET('/v1/alerts/{alert_id}', { params: { path: { alert_id: id } } }));
  const { busy, notice, failure, act } = useAction();

  async function onAction(action: AlertAction, severity?: AlertSeverity) {
    const params = { params: { path: { alert_id: id } } };
    const done = await act(
      () =>
        action === 'acknowledge'
          ? api.POST('/v1/alerts/{alert_id}/acknowledge', params)
          : action === 'resolve'
            ? api.POST('/v1/alerts/{alert_id}/resolve', params)
            : api.POST('/v1/alerts/{alert_id}/escalate', { ...params, body: severity ? { severity } : {} }),
      action === 'acknowledge' ? 'Alert acknowledged.' : action === 'resolve' ? 'Alert resolved.' : 'Alert escalated.',
    );
    if (done) reload();
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
      {result.state === 'done' && (
        <>
          <AlertView alert={result.data} busy={busy} canChange={canChange} onAction={onAction} scopes={scopes} />
          <ActionResult notice={notice} failure={failure} />
          {hasScope(scopes, 'read:alerts') && <AlertDeliveries api={api} alertId={result.data.id} />}
        </>
      )}
    </main>
  );
}

function AlertView({ alert, busy, canChange, onAction, scopes }: { alert: Alert; busy: boolean; canChange: boolean; onAction: (action: AlertAction, severity?: AlertSeverity) => void; scopes: Scopes }) {
  const [severity, setSeverity] = useState<AlertSeverity | ''>('');
  const rows: [string, React.ReactNode][] = [
    ['Type', alert.type.replace(/_/g, ' ')],
    ['Policy', alert.policy_id && hasScope(scopes, 'read:policies') ? <Link to={policyPath(alert.policy_id)}>{alert.policy_name ?? alert.policy_id}</Link> : (alert.policy_name ?? '—')],
    ['Database', alert.database_id],
    ['Occurrences', String(alert.occurrences)],
    ['First seen', <Time iso={alert.first_seen_at} />],
    ['Last seen', <Time iso={alert.last_seen_at} />],
    ['Acknowledged', <Time iso={alert.acknowledged_at} />],
    ['Escalated', <Time iso={alert.escalated_at} />],
    ['Resolved', <Time iso={alert.resolved_at} />],
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
      {canChange && alert.status !== 'resolved' && (
        <form
          className="inline-form"
          aria-label="Escalate"
          onSubmit={(event) => {
            event.preventDefault();
            onAction('escalate', severity || undefined);
          }}
        >
          <label htmlFor="escalate-severity">Escalate to</label>
          <select id="escalate-severity" value={severity} onChange={(event) => setSeverity(event.target.value as AlertSeverity | '')}>
            <option value="">next severity up</option>
            {ALERT_SEVERITIES.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </select>
          <button type="submit" disabled={busy}>
            Escalate
          </button>
        </form>
      )}
      <section aria-labelledby="alert-events">
        <h2 id="alert-events">Events</h2>
        {alert.event_ids.length === 0 ? (
          <p className="empty">No event is linked to this alert.</p>
        ) : (
          <ul className="plain">
            {alert.event_ids.map((eventId) => (
              <li key={eventId}>{hasScope(scopes, 'read:logs') ? <Link to={eventPath(eventId)}>{eventId}</Link> : <code>{eventId}</code>}</li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

/** Deliveries of this alert to alert destinations (the newest 100 of each destination are searched). */
function AlertDeliveries({ api, alertId }: { api: Api; alertId: string }) {
  const [result] = useRequest(`alert-deliveries:${alertId}`, async () => {
    const destinations = await api.GET('/v1/alert-destinations', { params: { query: { page: 1, per_page: 100 } } });
    if (!destinations.data) return destinations;
    const pages = await Promise.all(
      destinations.data.data.map(async (destination) => {
        const page = await api.GET('/v1/alert-destinations/{destination_id}/deliveries', { params: { path: { destination_id: destination.id }, query: { page: 1, per_page: 100 } } });
        return (page.data?.data ?? []).filter((delivery) => delivery.alert_id === alertId).map((delivery) => ({ ...delivery, destination: destination.name }));
      }),
    );
    return { data: pages.flat(), response: destinations.response };
  });
  return (
    <section aria-labelledby="alert-deliveries">
      <h2 id="alert-deliveries">Deliveries</h2>
      {result.state === 'loading' && <Loading what="deliveries" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.length === 0 && <p className="empty">This alert was not sent to any alert destination.</p>}
      {result.state === 'done' && result.data.length > 0 && (
        <ul className="plain">
          {result.data.map((delivery) => (
            <li key={delivery.id}>
              <Link to={destinationPath(delivery.destination_id)}>{delivery.destination}</Link>: {delivery.status}
              {delivery.last_status_code !== null && ` (HTTP ${delivery.last_status_code})`}, <Time iso={delivery.created_at} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
