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
                      <span className="actions">
                        <button
                          type="button"
                          className="link-button"
                          disabled={busy}
                          onClick={async () => {
                            if (!window.confirm(`Rotate the API key "${key.name}"? The current value stops working at once.`)) return;
                            setCreated(undefined);
                            const rotated = await act(() => api.POST('/v1/api-keys/{key_id}/rotate', { params: { path: { key_id: key.id } }, body: { overlap_seconds: 0 } }), 'API key rotated.');
                            if (rotated) {
                              setCreated(rotated.key?.key);
                              reload();
                            }
                          }}
                        >
                          Rotate {key.name}
                        </button>{' '}
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
                      </span>
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

type UserEdit = { id: string; email: string; mode: 'scopes'; scopes: Scope[] } | { id: string; email: string; mode: 'password'; password: string };

function Users({ api }: { api: Api }) {
  const [result, reload] = useRequest('users', async () => as<Page<User>>(await api.GET('/v1/users', { params: { query: { page: 1, per_page: 100 } } })));
  const [form, setForm] = useState({ email: '', password: '', scopes: ['read:logs'] as Scope[] });
  const [edit, setEdit] = useState<UserEdit>();
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);
  const path = (id: string) => ({ params: { path: { user_id: id } } });
  return (
    <section aria-labelledby="users">
      <h2 id="users">Users</h2>
      {result.state === 'loading' && <Loading what="users" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && (result.data.data ?? []).length === 0 && <p className="empty">No users.</p>}
      {result.state === 'done' && (result.data.data ?? []).length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Users">
          <table>
            <caption className="visually-hidden">Users</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Scopes</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {result.data.data.map((user) => (
                <tr key={user.id}>
                  <td>
                    {user.email}
                    <br />
                    <span className="muted">
                      since <Time iso={user.created_at} />
                    </span>
                  </td>
                  <td>{user.scopes.join(', ')}</td>
                  <td>
                    {user.disabled_at ? (
                      <>
                        disabled <Time iso={user.disabled_at} />
                      </>
                    ) : (
                      'active'
                    )}
                  </td>
                  <td>
                    <span className="actions">
                      <button type="button" className="link-button" disabled={busy} onClick={() => setEdit({ id: user.id, email: user.email, mode: 'scopes', scopes: [...user.scopes] })}>
                        Edit scopes of {user.email}
                      </button>{' '}
                      <button
                        type="button"
                        className="link-button"
                        disabled={busy}
                        onClick={async () => {
                          const disabled = !user.disabled_at;
                          if (disabled && !window.confirm(`Disable ${user.email}? Their sessions and API keys are revoked at once.`)) return;
                          if (await act(() => api.PATCH('/v1/users/{user_id}', { ...path(user.id), body: { disabled } }), disabled ? `${user.email} disabled.` : `${user.email} enabled.`)) reload();
                        }}
                      >
                        {user.disabled_at ? 'Enable' : 'Disable'} {user.email}
                      </button>{' '}
                      <button type="button" className="link-button" disabled={busy} onClick={() => setEdit({ id: user.id, email: user.email, mode: 'password', password: '' })}>
                        Reset password of {user.email}
                      </button>{' '}
                      <button
                        type="button"
                        className="link-button"
                        disabled={busy}
                        onClick={async () => {
                          if (!window.confirm(`Sign ${user.email} out everywhere? Their API keys stay.`)) return;
                          await act(() => api.DELETE('/v1/users/{user_id}/sessions', path(user.id)), (data) => `${data.revoked_sessions} session(s) of ${user.email} revoked.`);
                        }}
                      >
                        Revoke sessions of {user.email}
                      </button>{' '}
                      <button
                        type="button"
                        className="link-button"
                        disabled={busy}
                        onClick={async () => {
                          if (window.confirm(`Delete ${user.email}? This cannot be undone.`) && (await act(() => api.DELETE('/v1/users/{user_id}', path(user.id)), `${user.email} deleted.`))) reload();
                        }}
                      >
                        Delete {user.email}
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {edit?.mode === 'scopes' && (
        <form
          className="stack"
          noValidate
          aria-label={`Scopes of ${edit.email}`}
          onSubmit={async (e) => {
            e.preventDefault();
            if (await act(() => api.PATCH('/v1/users/{user_id}', { ...path(edit.id), body: { scopes: edit.scopes } }), `Scopes of ${edit.email} saved.`)) {
              setEdit(undefined);
              reload();
            }
          }}
        >
          <h3>Scopes of {edit.email}</h3>
          <p className="muted">Taking a scope away ends the user's sessions.</p>
          <ScopePicker id="edit-scopes" value={edit.scopes} onChange={(scopes) => setEdit({ ...edit, scopes })} error={errors.scopes} />
          <span className="actions">
            <button type="submit" disabled={busy}>
              Save scopes
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setEdit(undefined)}>
              Cancel
            </button>
          </span>
        </form>
      )}
      {edit?.mode === 'password' && (
        <form
          className="stack"
          noValidate
          aria-label={`New password for ${edit.email}`}
          onSubmit={async (e) => {
            e.preventDefault();
            if (await act(() => api.POST('/v1/users/{user_id}/password', { ...path(edit.id), body: { password: edit.password } }), `Password of ${edit.email} reset.`)) setEdit(undefined);
          }}
        >
          <h3>New password for {edit.email}</h3>
          <Field id="reset-password" label="New password" hint="At least 12 characters; every session of the user ends" error={errors.password}>
            {(props) => <input {...props} type="password" autoComplete="new-password" value={edit.password} onChange={(e) => setEdit({ ...edit, password: e.target.value })} />}
          </Field>
          <span className="actions">
            <button type="submit" disabled={busy}>
              Reset password
            </button>{' '}
            <button type="button" className="link-button" onClick={() => setEdit(undefined)}>
              Cancel
            </button>
          </span>
        </form>
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
        <Field id="user-email" label="User e-mail" error={edit ? undefined : errors.email}>
          {(props) => <input {...props} type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />}
        </Field>
        <Field id="user-password" label="Initial password" error={edit ? undefined : errors.password}>
          {(props) => <input {...props} type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />}
        </Field>
        <ScopePicker id="user-scopes" value={form.scopes} onChange={(scopes) => setForm({ ...form, scopes })} error={edit ? undefined : errors.scopes} />
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
              <strong>{client.name}</strong> <code>{client.client_id}</code> <span className="muted">{client.grant_types.join(', ')}</span>{' '}
              <span className="actions">
                <button
                  type="button"
                  className="link-button"
                  disabled={busy}
                  onClick={async () => {
                    if (!window.confirm(`Rotate the secret of "${client.name}"? The current secret keeps working for the overlap (one day by default).`)) return;
                    setSecret(undefined);
                    const rotated = await act(() => api.POST('/v1/oauth/clients/{client_id}/secret', { params: { path: { client_id: client.client_id } }, body: {} }), 'Client secret rotated.');
                    if (rotated) setSecret(rotated.client_secret);
                  }}
                >
                  Rotate secret of {client.name}
                </button>{' '}
                <button
                  type="button"
                  className="link-button"
                  disabled={busy}
                  onClick={async () => {
                    if (window.confirm(`Delete the OAuth client "${client.name}"? Its tokens stop working at once.`) && (await act(() => api.DELETE('/v1/oauth/clients/{client_id}', { params: { path: { client_id: client.client_id } } }), 'OAuth client deleted.'))) {
                      setSecret(undefined);
                      reload();
                    }
                  }}
                >
                  Delete {client.name}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {secret && <Secret label="The client secret" value={secret} />}
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
