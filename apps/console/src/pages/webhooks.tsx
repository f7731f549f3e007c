import { type FormEvent, useState } from 'react';
import type { Api } from '../api/client';
import type { components } from '../api/schema';
import { ActionResult, ErrorMessage, Field, Link, Loading, Time } from '../components';
import { navigate } from '../lib/navigation';
import { problemFieldErrors } from '../lib/policy-form';
import { splitList } from '../lib/cidr';
import { webhookPath } from '../lib/routes';
import { useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';

type Webhook = components['schemas']['WebhookView'];
type Delivery = components['schemas']['DeliveryView'];
interface Page<T> {
  data: T[];
  pagination: { total: number; has_more: boolean; page: number };
}
/** Some webhook answers are not typed in the API document: read as what docs/webhooks.md says they are. */
const as = <T,>(result: { data?: unknown; error?: unknown; response: Response }) => result as { data?: T; error?: unknown; response: Response };

export function WebhooksPage({ api, canChange }: { api: Api; canChange: boolean }) {
  const [result, reload] = useRequest('webhooks', async () => as<Page<Webhook>>(await api.GET('/v1/webhooks', { params: { query: { page: 1, per_page: 100 } } } as never)));
  const [form, setForm] = useState({ url: '', events: 'alert.*', description: '' });
  const [secret, setSecret] = useState<{ id: string; secret: string }>();
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const created = await act(
      async () => as<{ id: string; secret?: string }>(await api.POST('/v1/webhooks', { body: { url: form.url.trim(), events: splitList(form.events), active: true, ...(form.description.trim() ? { description: form.description.trim() } : {}) } })),
      'Webhook created.',
    );
    if (created) {
      if (created.secret) setSecret({ id: created.id, secret: created.secret });
      setForm({ url: '', events: 'alert.*', description: '' });
      reload();
    }
  }

  return (
    <main id="main">
      <h1>Webhooks</h1>
      {result.state === 'loading' && <Loading what="webhooks" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && (result.data.data ?? []).length === 0 && <p className="empty">No webhook subscriptions yet.</p>}
      {result.state === 'done' && (result.data.data ?? []).length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Webhook subscriptions">
          <table>
            <caption className="visually-hidden">Webhook subscriptions</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {result.data.data.map((webhook) => (
                <tr key={webhook.id}>
                  <td>
                    <Link to={webhookPath(webhook.id)}>{webhook.url}</Link>
                  </td>
                  <td>{webhook.events.join(', ')}</td>
                  <td>{webhook.status}</td>
                  <td>
                    <Time iso={webhook.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {secret && (
        <div className="panel secret" role="status">
          <p>
            <strong>Signing secret of the new webhook, shown only now:</strong> copy it to the receiver.
          </p>
          <code className="secret-value">{secret.secret}</code>
        </div>
      )}
      {canChange && (
        <section aria-labelledby="new-webhook">
          <h2 id="new-webhook">New webhook</h2>
          <form className="stack" onSubmit={create} noValidate>
            <Field id="webhook-url" label="URL" error={errors.url}>
              {(props) => <input {...props} type="url" value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} />}
            </Field>
            <Field id="webhook-events" label="Event types" hint="Types or patterns, separated by commas (alert.*, policy.violation, *)" error={errors.events}>
              {(props) => <input {...props} value={form.events} onChange={(e) => setForm({ ...form, events: e.target.value })} />}
            </Field>
            <Field id="webhook-description" label="Description" error={errors.description}>
              {(props) => <input {...props} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />}
            </Field>
            <button type="submit" disabled={busy}>
              Create webhook
            </button>
          </form>
        </section>
      )}
      <ActionResult notice={notice} failure={failure} />
    </main>
  );
}

export function WebhookPage({ api, id, canChange }: { api: Api; id: string; canChange: boolean }) {
  const path = { params: { path: { webhook_id: id } } };
  const [result, reload] = useRequest(`webhook:${id}`, async () => as<Webhook>(await api.GET('/v1/webhooks/{webhook_id}', path)));
  const [round, setRound] = useState(0);
  const [deliveries] = useRequest(`webhook-deliveries:${id}:${round}`, async () => as<Page<Delivery>>(await api.GET('/v1/webhooks/{webhook_id}/deliveries', { params: { path: { webhook_id: id }, query: { page: 1, per_page: 50 } } })));
  const [edit, setEdit] = useState<{ url: string; events: string; description: string; active: boolean }>();
  const [testType, setTestType] = useState('alert.created');
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);
  const refresh = () => setRound((n) => n + 1);

  return (
    <main id="main">
      <p>
        <Link to="/webhooks">← All webhooks</Link>
      </p>
      {result.state === 'loading' && <Loading what="the webhook" />}
      {result.state === 'error' && (
        <>
          <h1>Webhook</h1>
          <ErrorMessage error={result.error} status={result.status} />
        </>
      )}
      {result.state === 'done' && (
        <>
          <h1>Webhook {result.data.url}</h1>
          <dl className="facts">
            <div>
              <dt>Status</dt>
              <dd>{result.data.status}</dd>
            </div>
            <div>
              <dt>Events</dt>
              <dd>{result.data.events.join(', ')}</dd>
            </div>
            <div>
              <dt>Description</dt>
              <dd>{result.data.description || '—'}</dd>
            </div>
            <div>
              <dt>Failing since</dt>
              <dd>
                <Time iso={result.data.failing_since} />
              </dd>
            </div>
          </dl>
          {canChange && (
            <div className="actions">
              <button type="button" onClick={() => setEdit(edit ? undefined : { url: result.data.url, events: result.data.events.join(', '), description: result.data.description, active: result.data.active })}>
                {edit ? 'Cancel editing' : 'Edit'}
              </button>
              <form
                className="inline-form"
                aria-label="Send a test"
                onSubmit={async (e) => {
                  e.preventDefault();
                  if (await act(() => api.POST('/v1/webhooks/{webhook_id}/test', { ...path, body: { event_type: testType } }), 'Test delivery queued.')) refresh();
                }}
              >
                <label htmlFor="webhook-test-type">Test event type</label>
                <input id="webhook-test-type" value={testType} onChange={(e) => setTestType(e.target.value)} />
                <button type="submit" disabled={busy}>
                  Send a test
                </button>
              </form>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={async () => {
                  if (window.confirm('Delete this webhook subscription?') && (await act(() => api.DELETE('/v1/webhooks/{webhook_id}', path), 'Webhook deleted.'))) navigate('/webhooks');
                }}
              >
                Delete
              </button>
            </div>
          )}
          {edit && (
            <form
              className="stack"
              noValidate
              aria-label="Edit webhook"
              onSubmit={async (e) => {
                e.preventDefault();
                const body = { url: edit.url.trim(), events: splitList(edit.events), description: edit.description, active: edit.active };
                if (await act(() => api.PATCH('/v1/webhooks/{webhook_id}', { ...path, body } as never), 'Webhook saved.')) {
                  setEdit(undefined);
                  reload();
                }
              }}
            >
              <Field id="edit-url" label="URL" error={errors.url}>
                {(props) => <input {...props} type="url" value={edit.url} onChange={(e) => setEdit({ ...edit, url: e.target.value })} />}
              </Field>
              <Field id="edit-events" label="Event types" error={errors.events}>
                {(props) => <input {...props} value={edit.events} onChange={(e) => setEdit({ ...edit, events: e.target.value })} />}
              </Field>
              <Field id="edit-description" label="Description" error={errors.description}>
                {(props) => <input {...props} value={edit.description} onChange={(e) => setEdit({ ...edit, description: e.target.value })} />}
              </Field>
              <label className="check">
                <input type="checkbox" checked={edit.active} onChange={(e) => setEdit({ ...edit, active: e.target.checked })} /> Active
              </label>
              <button type="submit" disabled={busy}>
                Save webhook
              </button>
            </form>
          )}
          <ActionResult notice={notice} failure={failure} />
          <section aria-labelledby="deliveries">
            <h2 id="deliveries">Deliveries</h2>
            <button type="button" className="link-button" onClick={refresh}>
              Refresh deliveries
            </button>
            {deliveries.state === 'loading' && <Loading what="deliveries" />}
            {deliveries.state === 'error' && <ErrorMessage error={deliveries.error} status={deliveries.status} />}
            {deliveries.state === 'done' && (deliveries.data.data ?? []).length === 0 && <p className="empty">Nothing delivered to this webhook yet.</p>}
            {deliveries.state === 'done' && (deliveries.data.data ?? []).length > 0 && (
              <DeliveryTable
                deliveries={deliveries.data.data}
                canRedeliver={canChange}
                busy={busy}
                onRedeliver={async (delivery) => {
                  if (await act(() => api.POST('/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', { params: { path: { webhook_id: id, delivery_id: delivery } } }), 'Redelivery queued.')) refresh();
                }}
              />
            )}
          </section>
        </>
      )}
    </main>
  );
}

interface DeliveryRow {
  id: string;
  status: string;
  created_at: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  event_type?: string;
  test: boolean;
  attempts: { attempt: number; status_code: number | null; error: string | null; latency_ms: number; started_at: string }[];
}

export function DeliveryTable({ deliveries, canRedeliver, busy, onRedeliver }: { deliveries: DeliveryRow[]; canRedeliver: boolean; busy: boolean; onRedeliver?: (id: string) => void }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Deliveries, newest first">
      <table>
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Created</th>
            {deliveries.some((d) => d.event_type) && <th scope="col">Event</th>}
            <th scope="col">Status</th>
            <th scope="col">Response</th>
            <th scope="col">Attempts</th>
            {canRedeliver && onRedeliver && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                <Time iso={delivery.created_at} />
                {delivery.test && <span className="muted small"> (test)</span>}
              </td>
              {deliveries.some((d) => d.event_type) && <td>{delivery.event_type}</td>}
              <td>{delivery.status}</td>
              <td>
                {delivery.last_status_code !== null ? `HTTP ${delivery.last_status_code}` : '—'}
                {delivery.last_error && <div className="small">{delivery.last_error}</div>}
              </td>
              <td>
                <details>
                  <summary>{delivery.attempt_count} attempts</summary>
                  <ol>
                    {delivery.attempts.map((attempt) => (
                      <li key={attempt.attempt}>
                        <Time iso={attempt.started_at} />: {attempt.status_code !== null ? `HTTP ${attempt.status_code}` : 'no response'} in {attempt.latency_ms} ms
                        {attempt.error && <div className="small">{attempt.error}</div>}
                      </li>
                    ))}
                  </ol>
                </details>
              </td>
              {canRedeliver && onRedeliver && (
                <td>
                  <button type="button" disabled={busy} onClick={() => onRedeliver(delivery.id)}>
                    Redeliver
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
