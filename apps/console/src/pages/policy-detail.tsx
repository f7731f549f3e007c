import { type FormEvent, useState } from 'react';
import type { Api } from '../api/client';
import type { components } from '../api/schema';
import { ActionResult, ErrorMessage, Field, Link, Loading, SeverityBadge, Time } from '../components';
import { navigate } from '../lib/navigation';
import { problemFieldErrors } from '../lib/policy-form';
import { useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';

type TestBody = components['schemas']['TestPolicyDto'];
type TestResult = components['schemas']['TestPolicyResultDto'];
const EVENT_TYPES: TestBody['type'][] = ['database.query', 'database.connection', 'database.disconnect', 'security.threat_detected', 'security.anomaly', 'security.privilege_escalation', 'data.sensitive_access', 'data.export', 'user.login_failed', 'user.login_success'];

export function PolicyPage({ api, id, canChange }: { api: Api; id: string; canChange: boolean }) {
  const [result, reload] = useRequest(`policy:${id}`, () => api.GET('/v1/policies/{policy_id}', { params: { path: { policy_id: id } } }));
  const { busy, notice, failure, act } = useAction();
  const path = { params: { path: { policy_id: id } } };

  return (
    <main id="main">
      <p>
        <Link to="/policies">← All policies</Link>
      </p>
      {result.state === 'loading' && <Loading what="the policy" />}
      {result.state === 'error' && (
        <>
          <h1>Policy</h1>
          <ErrorMessage error={result.error} status={result.status} />
        </>
      )}
      {result.state === 'done' && (
        <>
          <h1>{result.data.name}</h1>
          <p>{result.data.description}</p>
          <dl className="facts">
            <div>
              <dt>Type</dt>
              <dd>{result.data.type.replace('_', ' ')}</dd>
            </div>
            <div>
              <dt>State</dt>
              <dd>{result.data.enabled ? 'enabled' : 'disabled'}</dd>
            </div>
            <div>
              <dt>Mode</dt>
              <dd>{result.data.enforcement_mode === 'shadow' ? 'shadow (reports what it would do)' : 'enforce'}</dd>
            </div>
            <div>
              <dt>Databases</dt>
              <dd>{result.data.databases.join(', ')}</dd>
            </div>
            <div>
              <dt>Violations</dt>
              <dd>{result.data.violation_count}</dd>
            </div>
            <div>
              <dt>Last violation</dt>
              <dd>
                <Time iso={result.data.last_violation_at} />
              </dd>
            </div>
            <div>
              <dt>Updated</dt>
              <dd>
                <Time iso={result.data.updated_at} />
              </dd>
            </div>
          </dl>
          {canChange && (
            <div className="actions">
              <Link to={`/policies/${encodeURIComponent(id)}/edit`} className="button-link">
                Edit
              </Link>
              <button
                type="button"
                disabled={busy}
                onClick={async () => {
                  const enabled = result.data.enabled;
                  if (await act(() => (enabled ? api.POST('/v1/policies/{policy_id}/disable', path) : api.POST('/v1/policies/{policy_id}/enable', path)), enabled ? 'Policy disabled.' : 'Policy enabled.')) reload();
                }}
              >
                {result.data.enabled ? 'Disable' : 'Enable'}
              </button>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={async () => {
                  if (!window.confirm(`Delete the policy "${result.data.name}"? Its violations stay listable.`)) return;
                  if (await act(() => api.DELETE('/v1/policies/{policy_id}', path), 'Policy deleted.')) navigate('/policies');
                }}
              >
                Delete
              </button>
            </div>
          )}
          <ActionResult notice={notice} failure={failure} />
          <details>
            <summary>Configuration (JSON)</summary>
            <pre className="json" tabIndex={0}>
              {JSON.stringify(result.data.config, null, 2)}
            </pre>
          </details>
          <Simulator api={api} id={id} />
          <Violations api={api} id={id} />
        </>
      )}
    </main>
  );
}

function Simulator({ api, id }: { api: Api; id: string }) {
  const [body, setBody] = useState<TestBody>({ type: 'database.query', query: '', user: '', database_id: '', source_ip: '' });
  const [outcome, setOutcome] = useState<TestResult>();
  const { busy, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);

  async function run(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const sent = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== '')) as TestBody;
    setOutcome(await act(() => api.POST('/v1/policies/{policy_id}/test', { params: { path: { policy_id: id } }, body: sent }), () => undefined));
  }
  const input = (key: 'query' | 'user' | 'database_id' | 'source_ip' | 'timestamp', label: string, hint?: string) => (
    <Field id={`sim-${key}`} label={label} error={errors[key]} hint={hint}>
      {(props) => <input {...props} value={body[key] ?? ''} onChange={(e) => setBody({ ...body, [key]: e.target.value })} />}
    </Field>
  );

  return (
    <section aria-labelledby="simulator">
      <h2 id="simulator">Simulator</h2>
      <p className="muted">Test an event against this policy: nothing is stored or sent.</p>
      <form className="stack" onSubmit={run}>
        <Field id="sim-type" label="Event type" error={errors.type}>
          {(props) => (
            <select {...props} value={body.type} onChange={(e) => setBody({ ...body, type: e.target.value as TestBody['type'] })}>
              {EVENT_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          )}
        </Field>
        <Field id="sim-query" label="Query" error={errors.query}>
          {(props) => <textarea {...props} rows={3} value={body.query ?? ''} onChange={(e) => setBody({ ...body, query: e.target.value })} />}
        </Field>
        {input('user', 'User')}
        {input('database_id', 'Database')}
        {input('source_ip', 'Source IP')}
        {input('timestamp', 'Time (ISO 8601)', 'Leave empty for now')}
        <button type="submit" disabled={busy}>
          Test the policy
        </button>
      </form>
      {failure && <ErrorMessage error={failure.error} status={failure.status} />}
      {outcome && (
        <div className="panel" role="status">
          <p>
            <strong>{outcome.would_trigger ? 'The policy would trigger.' : 'The policy would not trigger.'}</strong>
          </p>
          {outcome.matched_conditions.length > 0 && (
            <>
              <h3>Conditions</h3>
              <ol>
                {outcome.matched_conditions.map((condition, i) => (
                  <li key={i}>
                    <strong>{condition.type.replace(/_/g, ' ')}</strong>: {condition.reason}
                  </li>
                ))}
              </ol>
            </>
          )}
          {outcome.actions_would_execute.length > 0 && (
            <>
              <h3>Actions</h3>
              <ul>
                {outcome.actions_would_execute.map((action, i) => (
                  <li key={i}>
                    {action.type} {action.severity && <SeverityBadge severity={action.severity} />}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

function Violations({ api, id }: { api: Api; id: string }) {
  const [page, setPage] = useState(1);
  const [result] = useRequest(`violations:${id}:${page}`, () => api.GET('/v1/policies/{policy_id}/violations', { params: { path: { policy_id: id }, query: { page, limit: 25 } } }));
  return (
    <section aria-labelledby="violations">
      <h2 id="violations">Violations</h2>
      {result.state === 'loading' && <Loading what="violations" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.data.length === 0 && <p className="empty">No violations of this policy.</p>}
      {result.state === 'done' && result.data.data.length > 0 && (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Violations, newest first">
            <table>
              <caption className="visually-hidden">Violations, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Action</th>
                  <th scope="col">User</th>
                  <th scope="col">Database</th>
                  <th scope="col">Query</th>
                </tr>
              </thead>
              <tbody>
                {result.data.data.map((violation) => (
                  <tr key={violation.id}>
                    <td>
                      <Time iso={violation.timestamp} />
                    </td>
                    <td>
                      <SeverityBadge severity={violation.severity} />
                    </td>
                    <td>{violation.action_taken}</td>
                    <td>{violation.user ?? '—'}</td>
                    <td>{violation.database}</td>
                    <td className="truncate">
                      <code>{violation.query ?? ''}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages of violations">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous page
            </button>
            <span>
              Page {page} · {result.data.pagination.total} violations
            </span>
            <button type="button" disabled={!result.data.pagination.has_more} onClick={() => setPage(page + 1)}>
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
