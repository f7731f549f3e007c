import type { Api } from '../api/client';
import { ErrorMessage, Link, Loading } from '../components';
import { navigate } from '../lib/navigation';
import { POLICY_TYPES } from '../lib/policy-form';
import { policyPath } from '../lib/routes';
import { useRequest } from '../lib/use-request';

const PER_PAGE = 25;

/** Filters kept in the address: `/policies?type=query_control&enabled=true&mode=shadow&database=db_a&page=2`. */
function readFilters(search: string) {
  const params = new URLSearchParams(search);
  const type = POLICY_TYPES.find((t) => t === params.get('type'));
  const enabled = params.get('enabled') === 'true' ? true : params.get('enabled') === 'false' ? false : undefined;
  const mode = params.get('mode') === 'shadow' ? ('shadow' as const) : params.get('mode') === 'enforce' ? ('enforce' as const) : undefined;
  const database = params.get('database')?.trim() || undefined;
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  return { type, enabled, mode, database, page };
}

export function PoliciesPage({ api, search, canChange }: { api: Api; search: string; canChange: boolean }) {
  const filters = readFilters(search);
  const [result] = useRequest(`policies${search}`, () =>
    api.GET('/v1/policies', {
      params: {
        query: {
          page: filters.page,
          per_page: PER_PAGE,
          ...(filters.type ? { type: filters.type } : {}),
          ...(filters.enabled !== undefined ? { enabled: filters.enabled } : {}),
          ...(filters.mode ? { enforcement_mode: filters.mode } : {}),
          ...(filters.database ? { database_id: filters.database } : {}),
        },
      },
    }),
  );
  const go = (changes: Record<string, string | undefined>) => {
    const params = new URLSearchParams(search);
    for (const [key, value] of Object.entries(changes)) {
      if (value) params.set(key, value);
      else params.delete(key);
    }
    if (!('page' in changes)) params.delete('page');
    const query = params.toString();
    navigate(`/policies${query ? `?${query}` : ''}`, { replace: true });
  };
  const filtered = Boolean(filters.type || filters.enabled !== undefined || filters.mode || filters.database);

  return (
    <main id="main">
      <h1>Policies</h1>
      {canChange && (
        <p>
          <Link to="/policies/new" className="button-link">
            New policy
          </Link>
        </p>
      )}
      <form className="filters" aria-label="Filter policies" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="policy-type-filter">Type</label>
          <select id="policy-type-filter" value={filters.type ?? ''} onChange={(e) => go({ type: e.target.value })}>
            <option value="">any</option>
            {POLICY_TYPES.map((type) => (
              <option key={type} value={type}>
                {type.replace('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="policy-enabled-filter">State</label>
          <select id="policy-enabled-filter" value={filters.enabled === undefined ? '' : String(filters.enabled)} onChange={(e) => go({ enabled: e.target.value })}>
            <option value="">any</option>
            <option value="true">enabled</option>
            <option value="false">disabled</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="policy-mode-filter">Mode</label>
          <select id="policy-mode-filter" value={filters.mode ?? ''} onChange={(e) => go({ mode: e.target.value })}>
            <option value="">any</option>
            <option value="enforce">enforce</option>
            <option value="shadow">shadow</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="policy-database-filter">Database</label>
          <input id="policy-database-filter" defaultValue={filters.database ?? ''} onBlur={(e) => go({ database: e.target.value.trim() })} onKeyDown={(e) => e.key === 'Enter' && go({ database: e.currentTarget.value.trim() })} />
        </div>
      </form>
      {result.state === 'loading' && <Loading what="policies" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.data.length === 0 && <p className="empty">{filtered ? 'No policy matches these filters.' : 'No policies yet.'}</p>}
      {result.state === 'done' && result.data.data.length > 0 && (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Policies">
            <table>
              <caption className="visually-hidden">Policies</caption>
              <thead>
                <tr>
                  <th scope="col">Policy</th>
                  <th scope="col">Type</th>
                  <th scope="col">State</th>
                  <th scope="col">Databases</th>
                  <th scope="col">Violations</th>
                </tr>
              </thead>
              <tbody>
                {result.data.data.map((policy) => (
                  <tr key={policy.id}>
                    <td>
                      <Link to={policyPath(policy.id)}>{policy.name}</Link>
                    </td>
                    <td>{policy.type.replace('_', ' ')}</td>
                    <td>
                      {policy.enabled ? 'enabled' : 'disabled'}
                      {policy.enforcement_mode === 'shadow' ? ', shadow' : ''}
                    </td>
                    <td>{policy.databases.join(', ')}</td>
                    <td>{policy.violation_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages of policies">
            <button type="button" disabled={filters.page <= 1} onClick={() => go({ page: String(filters.page - 1) })}>
              Previous page
            </button>
            <span>
              Page {filters.page} · {result.data.pagination.total} policies
            </span>
            <button type="button" disabled={!result.data.pagination.has_more} onClick={() => go({ page: String(filters.page + 1) })}>
              Next page
            </button>
          </nav>
        </>
      )}
    </main>
  );
}
