import { type FormEvent, useState } from 'react';
import type { Api } from '../api/client';
import type { components } from '../api/schema';
import { ActionResult, ErrorMessage, Field, Link, Loading } from '../components';
import { ALERT_SEVERITIES } from '../lib/alert-filters';
import { navigate } from '../lib/navigation';
import { problemFieldErrors } from '../lib/policy-form';
import { destinationPath } from '../lib/routes';
import { useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';
import { DeliveryTable } from './webhooks';

type CreateDestination = components['schemas']['CreateAlertDestinationDto'];
type AuthType = CreateDestination['auth_type'];

const DEFAULTS: CreateDestination = {
  name: '',
  url: '',
  provider: 'webhook',
  method: 'POST',
  content_type: 'application/json',
  auth_type: 'none',
  api_key_header: 'X-API-Key',
  hmac_algorithm: 'sha256',
  hmac_header: 'X-Signature',
  enabled: true,
  include_raw_event: false,
  payload_format: 'default',
  rate_limit: 60,
  retry_attempts: 3,
  retry_delay_seconds: 5,
  success_codes: [200, 201, 202, 204],
  timeout_seconds: 10,
};

/** Secrets by authentication type: written once, never read back (the API answers `secrets_set`). */
const SECRET_OF: Record<AuthType, (keyof CreateDestination)[]> = {
  none: [],
  basic: ['auth_username', 'auth_password'],
  bearer: ['auth_token'],
  api_key: ['api_key_value'],
  hmac: ['hmac_secret'],
};

export function DestinationsPage({ api, canChange }: { api: Api; canChange: boolean }) {
  const [result, reload] = useRequest('destinations', () => api.GET('/v1/alert-destinations', { params: { query: { page: 1, per_page: 100 } } }));
  const [form, setForm] = useState<CreateDestination>(DEFAULTS);
  const [severities, setSeverities] = useState<string[]>([]);
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { ...form, name: form.name.trim(), url: form.url.trim(), ...(severities.length ? { severity_filter: severities as CreateDestination['severity_filter'] } : {}) };
    if (await act(() => api.POST('/v1/alert-destinations', { body }), 'Alert destination created. Its secrets are stored encrypted and will not be shown again.')) {
      setForm(DEFAULTS);
      reload();
    }
  }

  return (
    <main id="main">
      <h1>Alert destinations</h1>
      {result.state === 'loading' && <Loading what="alert destinations" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.data.length === 0 && <p className="empty">No alert destinations yet.</p>}
      {result.state === 'done' && result.data.data.length > 0 && (
        <ul className="plain">
          {result.data.data.map((destination) => (
            <li key={destination.id}>
              <Link to={destinationPath(destination.id)}>{destination.name}</Link> <span className="muted">{destination.url}</span> {destination.enabled ? '' : '(disabled)'}
            </li>
          ))}
        </ul>
      )}
      {canChange && (
        <section aria-labelledby="new-destination">
          <h2 id="new-destination">New alert destination</h2>
          <form className="stack" onSubmit={create} noValidate>
            <Field id="dest-name" label="Name" error={errors.name}>
              {(props) => <input {...props} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />}
            </Field>
            <Field id="dest-url" label="URL" error={errors.url}>
              {(props) => <input {...props} type="url" value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} />}
            </Field>
            <Field id="dest-auth" label="Authentication" error={errors.auth_type}>
              {(props) => (
                <select {...props} value={form.auth_type} onChange={(e) => setForm({ ...form, auth_type: e.target.value as AuthType })}>
                  {(Object.keys(SECRET_OF) as AuthType[]).map((type) => (
                    <option key={type}>{type}</option>
                  ))}
                </select>
              )}
            </Field>
            {SECRET_OF[form.auth_type].map((key) => (
              <Field key={key} id={`dest-${key}`} label={key.replace(/_/g, ' ')} error={errors[key]}>
                {(props) => <input {...props} type={key === 'auth_username' ? 'text' : 'password'} autoComplete="off" value={String(form[key] ?? '')} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />}
              </Field>
            ))}
            <fieldset>
              <legend>Severities (none: all)</legend>
              {ALERT_SEVERITIES.map((s) => (
                <label key={s} className="check">
                  <input type="checkbox" checked={severities.includes(s)} onChange={() => setSeverities(severities.includes(s) ? severities.filter((v) => v !== s) : [...severities, s])} /> {s}
                </label>
              ))}
            </fieldset>
            <button type="submit" disabled={busy}>
              Create destination
            </button>
          </form>
        </section>
      )}
      <ActionResult notice={notice} failure={failure} />
    </main>
  );
}

export function DestinationPage({ api, id, canChange }: { api: Api; id: string; canChange: boolean }) {
  const path = { params: { path: { destination_id: id } } };
  const [result, reload] = useRequest(`destination:${id}`, () => api.GET('/v1/alert-destinations/{destination_id}', path));
  const [round, setRound] = useState(0);
  const [deliveries] = useRequest(`destination-deliveries:${id}:${round}`, () => api.GET('/v1/alert-destinations/{destination_id}/deliveries', { params: { path: { destination_id: id }, query: { page: 1, per_page: 50 } } }));
  const [edit, setEdit] = useState<{ name: string; url: string; enabled: boolean }>();
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);

  return (
    <main id="main">
      <p>
        <Link to="/destinations">← All alert destinations</Link>
      </p>
      {result.state === 'loading' && <Loading what="the alert destination" />}
      {result.state === 'error' && (
        <>
          <h1>Alert destination</h1>
          <ErrorMessage error={result.error} status={result.status} />
        </>
      )}
      {result.state === 'done' && (
        <>
          <h1>{result.data.name}</h1>
          <dl className="facts">
            <div>
              <dt>URL</dt>
              <dd>{result.data.url}</dd>
            </div>
            <div>
              <dt>State</dt>
              <dd>{result.data.enabled ? 'enabled' : 'disabled'}</dd>
            </div>
            <div>
              <dt>Authentication</dt>
              <dd>
                {result.data.auth_type}
                {result.data.secrets_set.length ? ` (secrets set: ${result.data.secrets_set.join(', ')})` : ''}
              </dd>
            </div>
            <div>
              <dt>Severities</dt>
              <dd>{result.data.severity_filter.join(', ') || 'all'}</dd>
            </div>
          </dl>
          {canChange && (
            <div className="actions">
              <button type="button" onClick={() => setEdit(edit ? undefined : { name: result.data.name, url: result.data.url, enabled: result.data.enabled })}>
                {edit ? 'Cancel editing' : 'Edit'}
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={async () => {
                  if (await act(() => api.POST('/v1/alerts/test', { body: { destination_id: id } } as never), 'Test alert sent.')) setRound((n) => n + 1);
                }}
              >
                Send a test alert
              </button>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={async () => {
                  if (window.confirm('Delete this alert destination?') && (await act(() => api.DELETE('/v1/alert-destinations/{destination_id}', path), 'Deleted.'))) navigate('/destinations');
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
              aria-label="Edit alert destination"
              onSubmit={async (e) => {
                e.preventDefault();
                if (await act(() => api.PATCH('/v1/alert-destinations/{destination_id}', { ...path, body: { name: edit.name.trim(), url: edit.url.trim(), enabled: edit.enabled } } as never), 'Saved.')) {
                  setEdit(undefined);
                  reload();
                }
              }}
            >
              <Field id="edit-dest-name" label="Name" error={errors.name}>
                {(props) => <input {...props} value={edit.name} onChange={(e) => setEdit({ ...edit, name: e.target.value })} />}
              </Field>
              <Field id="edit-dest-url" label="URL" error={errors.url}>
                {(props) => <input {...props} type="url" value={edit.url} onChange={(e) => setEdit({ ...edit, url: e.target.value })} />}
              </Field>
              <label className="check">
                <input type="checkbox" checked={edit.enabled} onChange={(e) => setEdit({ ...edit, enabled: e.target.checked })} /> Enabled
              </label>
              <button type="submit" disabled={busy}>
                Save destination
              </button>
            </form>
          )}
          <ActionResult notice={notice} failure={failure} />
          <section aria-labelledby="deliveries">
            <h2 id="deliveries">Deliveries</h2>
            {deliveries.state === 'loading' && <Loading what="deliveries" />}
            {deliveries.state === 'error' && <ErrorMessage error={deliveries.error} status={deliveries.status} />}
            {deliveries.state === 'done' && deliveries.data.data.length === 0 && <p className="empty">Nothing delivered to this destination yet.</p>}
            {deliveries.state === 'done' && deliveries.data.data.length > 0 && (
              <DeliveryTable deliveries={deliveries.data.data} canRedeliver={false} busy={busy} />
            )}
          </section>
        </>
      )}
    </main>
  );
}
