import { type FormEvent, useState } from 'react';
import type { Api } from '../api/client';
import type { components } from '../api/schema';
import { ActionResult, ErrorMessage, Field, Loading, Time } from '../components';
import { splitList } from '../lib/cidr';
import { problemFieldErrors } from '../lib/policy-form';
import { useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';

type ApiKey = components['schemas']['ApiKeyDto'];
type User = components['schemas']['UserDto'];
type Scope = ApiKey['scopes'][number];
const SCOPES: Scope[] = ['read:databases', 'write:databases', 'read:policies', 'write:policies', 'read:alerts', 'write:alerts', 'read:logs', 'read:reports', 'write:reports', 'write:events', 'admin'];
interface Page<T> {
  data: T[];
}
const as = <T,>(result: { data?: unknown; error?: unknown; response: Response }) => result as { data?: T; error?: unknown; response: Response };

function ScopePicker({ id, value, onChange, error }: { id: string; value: Scope[]; onChange: (scopes: Scope[]) => void; error?: string }) {
  return (
    <fieldset className={error ? 'invalid' : undefined} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Scopes</legend>
      {SCOPES.map((scope) => (
        <label key={scope} className="check">
          <input type="checkbox" checked={value.includes(scope)} onChange={() => onChange(value.includes(scope) ? value.filter((s) => s !== scope) : [...value, scope])} /> {scope}
        </label>
      ))}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}

function Secret({ label, value }: { label: string; value: string }) {
  return (
    <div className="panel secret" role="status">
      <p>
        <strong>{label}, shown only now:</strong> copy it somewhere safe.
      </p>
      <code className="secret-value">{value}</code>
    </div>
  );
}

export function AccessPage({ api }: { api: Api }) {
  return (
    <main id="main">
      <h1>Access</h1>
      <ApiKeys api={api} />
      <Users api={api} />
      <OAuthClients api={api} />
    </main>
  );
}

function ApiKeys({ api }: { api: Api }) {
  const [result, reload] = useRequest('api-keys', async () => as<Page<ApiKey>>(await api.GET('/v1/api-keys', { params: { query: { page: 1, per_page: 100 } } })));
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read:logs']);
  const [created, setCreated] = useState<string>();
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCreated(undefined);
    const key = await act(() => api.POST('/v1/api-keys', { body: { name: name.trim(), scopes } }), 'API key created.');
    if (key) {
      setCreated((key as { key?: string }).key);
      setName('');
      reload();
    }
  }
  return (
    <section aria-labelledby="api-keys">
      <h2 id="api-keys">API keys</h2>
      {result.state === 'loading' && <Loading what="API keys" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && (result.data.data ?? []).length === 0 && <p className="empty">No API keys.</p>}
      {result.state === 'done' && (result.data.data ?? []).length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="API keys">
          <table>
            <caption className="visually-hidden">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {result.data.data.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>
                    <Time iso={key.last_used_at} relative />
                  </td>
                  <td>
                    {key.revoked_at ? (
                      <>
                        revoked <Time iso={key.revoked_at} />
                      </>
                    ) : (
                      <button
                        type="button"
                        className="link-button"
                        disabled={busy}
                        onClick={async () => {
                          if (window.confirm(`Revoke the API key "${key.name}"?`) && (await act(() => api.DELETE('/v1/api-keys/{key_id}', { params: { path: { key_id: key.id } } }), 'API key revoked.'))) reload();
                        }}
                      >
                        Revoke {key.name}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {created && <Secret label="The new API key" value={created} />}
      <form className="stack" onSubmit={create} noValidate aria-label="New API key">
        <h3>New API key</h3>
        <Field id="key-name" label="Name" error={errors.name}>
          {(props) => <input {...props} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <ScopePicker id="key-scopes" value={scopes} onChange={setScopes} error={errors.scopes} />
        <button type="submit" disabled={busy}>
          Create API key
        </button>
      </form>
      <ActionResult notice={notice} failure={failure} />
    </section>
  );
}

function Users({ api }: { api: Api }) {
  const [result, reload] = useRequest('users', async () => as<Page<User>>(await api.GET('/v1/users', { params: { query: { page: 1, per_page: 100 } } })));
  const [form, setForm] = useState({ email: '', password: '', scopes: ['read:logs'] as Scope[] });
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);
  return (
    <section aria-labelledby="users">
      <h2 id="users">Users</h2>
      {result.state === 'loading' && <Loading what="users" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && (result.data.data ?? []).length === 0 && <p className="empty">No users.</p>}
      {result.state === 'done' && (result.data.data ?? []).length > 0 && (
        <ul className="plain">
          {result.data.data.map((user) => (
            <li key={user.id}>
              <strong>{user.email}</strong> <span className="muted">{user.scopes.join(', ')}</span> · since <Time iso={user.created_at} />
            </li>
          ))}
        </ul>
      )}
      <form
        className="stack"
        noValidate
        aria-label="New user"
        onSubmit={async (e) => {
          e.preventDefault();
          if (await act(() => api.POST('/v1/users', { body: { email: form.email.trim(), password: form.password, scopes: form.scopes } }), 'User created.')) {
            setForm({ email: '', password: '', scopes: ['read:logs'] });
            reload();
          }
        }}
      >
        <h3>New user</h3>
        <Field id="user-email" label="User e-mail" error={errors.email}>
          {(props) => <input {...props} type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />}
        </Field>
        <Field id="user-password" label="Initial password" error={errors.password}>
          {(props) => <input {...props} type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />}
        </Field>
        <ScopePicker id="user-scopes" value={form.scopes} onChange={(scopes) => setForm({ ...form, scopes })} error={errors.scopes} />
        <button type="submit" disabled={busy}>
          Create user
        </button>
      </form>
      <ActionResult notice={notice} failure={failure} />
    </section>
  );
}

function OAuthClients({ api }: { api: Api }) {
  const [result, reload] = useRequest('oauth-clients', async () => as<Page<{ client_id: string; name: string; scopes: string[]; grant_types: string[] }>>(await api.GET('/v1/oauth/clients', {} as never)));
  const [form, setForm] = useState({ name: '', redirect: '', scopes: ['read:logs'] as Scope[], machine: true });
  const [secret, setSecret] = useState<string>();
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);
  return (
    <section aria-labelledby="oauth-clients">
      <h2 id="oauth-clients">OAuth clients</h2>
      {result.state === 'loading' && <Loading what="OAuth clients" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && (result.data.data ?? []).length === 0 && <p className="empty">No OAuth clients.</p>}
      {result.state === 'done' && (result.data.data ?? []).length > 0 && (
        <ul className="plain">
          {result.data.data.map((client) => (
            <li key={client.client_id}>
              <strong>{client.name}</strong> <code>{client.client_id}</code> <span className="muted">{client.grant_types.join(', ')}</span>
            </li>
          ))}
        </ul>
      )}
      {secret && <Secret label="The new client's secret" value={secret} />}
      <form
        className="stack"
        noValidate
        aria-label="New OAuth client"
        onSubmit={async (e) => {
          e.preventDefault();
          setSecret(undefined);
          const body = {
            name: form.name.trim(),
            scopes: form.scopes,
            grant_types: form.machine ? (['client_credentials'] as const) : (['authorization_code', 'refresh_token'] as const),
            redirect_uris: form.machine ? [] : splitList(form.redirect),
          };
          const created = await act(() => api.POST('/v1/oauth/clients', { body: { ...body, grant_types: [...body.grant_types] } }), 'OAuth client registered.');
          if (created) {
            setSecret((created as { client_secret?: string }).client_secret);
            reload();
          }
        }}
      >
        <h3>New OAuth client</h3>
        <Field id="client-name" label="Client name" error={errors.name}>
          {(props) => <input {...props} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />}
        </Field>
        <label className="check">
          <input type="checkbox" checked={form.machine} onChange={(e) => setForm({ ...form, machine: e.target.checked })} /> Machine client (client credentials); otherwise authorization code with redirect
        </label>
        {!form.machine && (
          <Field id="client-redirects" label="Redirect URIs" hint="Separated by commas" error={errors.redirect_uris}>
            {(props) => <input {...props} value={form.redirect} onChange={(e) => setForm({ ...form, redirect: e.target.value })} />}
          </Field>
        )}
        <ScopePicker id="client-scopes" value={form.scopes} onChange={(scopes) => setForm({ ...form, scopes })} error={errors.scopes} />
        <button type="submit" disabled={busy}>
          Register client
        </button>
      </form>
      <ActionResult notice={notice} failure={failure} />
    </section>
  );
}
