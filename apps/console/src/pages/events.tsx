import { type FormEvent, useState } from 'react';
import type { Api } from '../api/client';
import type { components } from '../api/schema';
import { ErrorMessage, Field, Link, Loading, SeverityBadge, Time } from '../components';
import { EVENT_SEVERITIES, type EventFilters, eventFiltersToQuery, eventFiltersToSearch, eventSearchBody, needsSearch, parseEventFilters } from '../lib/event-filters';
import { navigate } from '../lib/navigation';
import { problemFieldErrors } from '../lib/policy-form';
import { eventPath, policyPath } from '../lib/routes';
import { type InclusionProof, type LeafEvent, type ProofCheck, verifyInclusion } from '../lib/inclusion-proof';
import { hasScope, type Scopes } from '../lib/scopes';
import { useRequest } from '../lib/use-request';

const LIMIT = 50;

type Page = { cursor: string; snapshot: string } | undefined;
/** A page of events, from the list or from the search (which does not count). */
interface EventPageData {
  events: components['schemas']['EventListItemDto'][];
  pagination: { has_more: boolean; next_cursor: string | null; snapshot: string; total?: number; total_estimated: boolean };
}

export function EventsPage({ api, search, scopes }: { api: Api; search: string; scopes: Scopes }) {
  const filters = parseEventFilters(search);
  const [draft, setDraft] = useState<EventFilters>(filters);
  // Pages visited, for "previous": each entry is the cursor that opened it (none for the first).
  const [pages, setPages] = useState<Page[]>([undefined]);
  const [selected, setSelected] = useState<string>();
  const current = pages[pages.length - 1];
  const searching = needsSearch(filters);
  const { query, errors: listErrors } = eventFiltersToQuery(filters, LIMIT, current);
  const { body, errors: searchErrors } = eventSearchBody(filters, LIMIT, current?.cursor);
  const errors = searching ? searchErrors : listErrors;
  // Query text and SQL operations need the search; every other filter is the list's, which also counts.
  const [result] = useRequest<EventPageData>(`events${search}:${current?.cursor ?? ''}`, async () => {
    if (errors.length) return { error: { title: 'Some filters are not valid', detail: 'Some filters are not valid.', errors }, response: new Response(null, { status: 400 }) };
    if (!searching) return api.GET('/v1/events', { params: { query } });
    const found = await api.POST('/v1/events/search', { body: body as never });
    return found.data ? { ...found, data: { events: found.data.events, pagination: { ...found.data.pagination, total_estimated: false, snapshot: '' } } } : { error: found.error, response: found.response };
  });
  const fieldErrors = { ...problemFieldErrors(result.state === 'error' ? result.error : undefined) };

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPages([undefined]);
    setSelected(undefined);
    navigate(`/events${eventFiltersToSearch(draft)}`, { replace: true });
  }
  const text = (key: 'type' | 'database' | 'user' | 'sourceIp' | 'text' | 'operations', label: string, field: string, hint?: string) => (
    <Field id={`events-${key}`} label={label} error={fieldErrors[field]} hint={hint}>
      {(props) => <input {...props} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} />}
    </Field>
  );

  return (
    <main id="main" className="wide">
      <h1>Events</h1>
      <form className="filters" aria-label="Filter events" onSubmit={apply}>
        {text('type', 'Type', 'type', 'A type or pattern: security.*')}
        <fieldset>
          <legend>Severity</legend>
          {EVENT_SEVERITIES.map((severity) => (
            <label key={severity} className="check">
              <input
                type="checkbox"
                checked={draft.severities.includes(severity)}
                onChange={() => setDraft({ ...draft, severities: draft.severities.includes(severity) ? draft.severities.filter((s) => s !== severity) : [...draft.severities, severity] })}
              />{' '}
              {severity}
            </label>
          ))}
        </fieldset>
        {text('database', 'Database', 'database_id')}
        {text('user', 'User', 'user')}
        {text('sourceIp', 'Source IP', 'source_ip')}
        {text('text', 'Query contains', 'filters.query.contains')}
        {text('operations', 'SQL operations', 'filters.operation.in', 'SELECT, DROP, ...')}
        <Field id="events-from" label="From (your time)" error={fieldErrors.start_date}>
          {(props) => <input {...props} type="datetime-local" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />}
        </Field>
        <Field id="events-to" label="To (your time)" error={fieldErrors.end_date}>
          {(props) => <input {...props} type="datetime-local" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      {result.state === 'loading' && <Loading what="events" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.events.length === 0 && <p className="empty">{search ? 'No event matches these filters.' : 'No events stored yet.'}</p>}
      {result.state === 'done' && result.data.events.length > 0 && (
        <div className="split">
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Events, newest first">
            <table>
              <caption className="visually-hidden">Events, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Type</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Database</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {result.data.events.map((item) => (
                  <tr key={item.id} className={selected === item.id ? 'selected' : undefined}>
                    <td>
                      <Time iso={item.timestamp} />
                    </td>
                    <td>
                      <button type="button" className="link-button" aria-expanded={selected === item.id} onClick={() => setSelected(selected === item.id ? undefined : item.id)}>
                        {item.type}
                      </button>
                    </td>
                    <td>
                      <SeverityBadge severity={item.severity} />
                    </td>
                    <td>{item.database_id}</td>
                    <td className="truncate">{String((item.details as { query?: unknown; user?: unknown }).query ?? (item.details as { user?: unknown }).user ?? '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {selected && (
            <aside className="panel" aria-label="Event details">
              <button type="button" className="link-button" onClick={() => setSelected(undefined)}>
                Close details
              </button>
              <EventDetail key={selected} api={api} id={selected} scopes={scopes} headingLevel={2} />
            </aside>
          )}
        </div>
      )}
      {result.state === 'done' && (
        <nav className="pager" aria-label="Pages of events">
          <button type="button" disabled={pages.length <= 1} onClick={() => setPages(pages.slice(0, -1))}>
            Previous page
          </button>
          <span>
            Page {pages.length}
            {result.data.pagination.total !== undefined && ` · ${result.data.pagination.total_estimated ? 'about ' : ''}${result.data.pagination.total} events`}
          </span>
          <button
            type="button"
            disabled={!result.data.pagination.has_more || !result.data.pagination.next_cursor}
            onClick={() => setPages([...pages, { cursor: result.data.pagination.next_cursor ?? '', snapshot: result.data.pagination.snapshot }])}
          >
            Next page
          </button>
        </nav>
      )}
    </main>
  );
}

export function EventPage({ api, id, scopes }: { api: Api; id: string; scopes: Scopes }) {
  return (
    <main id="main">
      <p>
        <Link to="/events">← All events</Link>
      </p>
      <EventDetail api={api} id={id} scopes={scopes} headingLevel={1} />
    </main>
  );
}

function EventDetail({ api, id, scopes, headingLevel }: { api: Api; id: string; scopes: Scopes; headingLevel: 1 | 2 }) {
  const [result] = useRequest(`event:${id}`, () => api.GET('/v1/events/{event_id}', { params: { path: { event_id: id } } }));
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const Sub = headingLevel === 1 ? 'h2' : 'h3';
  if (result.state === 'loading') return <Loading what="the event" />;
  if (result.state === 'error')
    return (
      <>
        <Heading>Event</Heading>
        <ErrorMessage error={result.error} status={result.status} />
      </>
    );
  const event = result.data;
  const details = event.details as Record<string, unknown>;
  const triggering = typeof details.triggering_event_id === 'string' ? details.triggering_event_id : undefined;
  const violation = typeof details.violation_id === 'string' ? details.violation_id : undefined;
  return (
    <article>
      <Heading>
        {event.type} <SeverityBadge severity={event.severity} />
      </Heading>
      <dl className="facts">
        <div>
          <dt>Id</dt>
          <dd>
            <code>{event.id}</code>
          </dd>
        </div>
        <div>
          <dt>Time</dt>
          <dd>
            <Time iso={event.timestamp} />
          </dd>
        </div>
        <div>
          <dt>Database</dt>
          <dd>{event.database_name}</dd>
        </div>
        <div>
          <dt>Risk score</dt>
          <dd>{event.context.risk_score}</dd>
        </div>
        <div>
          <dt>Policy</dt>
          <dd>{event.context.policy_id ? hasScope(scopes, 'read:policies') ? <Link to={policyPath(event.context.policy_id)}>{event.context.policy_id}</Link> : event.context.policy_id : '—'}</dd>
        </div>
        <div>
          <dt>Violation</dt>
          <dd>{violation ? <code>{violation}</code> : '—'}</dd>
        </div>
        {triggering && (
          <div>
            <dt>Triggered by</dt>
            <dd>
              <Link to={eventPath(triggering)}>{triggering}</Link>
            </dd>
          </div>
        )}
      </dl>
      <Sub>Details</Sub>
      <pre className="json" tabIndex={0}>
        {JSON.stringify(event.details, null, 2)}
      </pre>
      <Sub>Integrity</Sub>
      <InclusionCheck api={api} event={event} />
      <Sub>Related events</Sub>
      {event.related_events.length === 0 ? (
        <p className="empty">No related events.</p>
      ) : (
        <ul className="plain">
          {event.related_events.map((related) => (
            <li key={related}>
              <Link to={eventPath(related)}>{related}</Link>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/**
 * The event's inclusion in the signed event log, checked in this browser: the latest checkpoint's
 * proof for the event (`GET /v1/integrity/proofs/inclusion`) and the published keys
 * (`GET /v1/integrity/keys`), the leaf recomputed from the event as shown, the root folded with
 * SHA-256 and the checkpoint's Ed25519 signature verified with WebCrypto (lib/inclusion-proof).
 */
function InclusionCheck({ api, event }: { api: Api; event: LeafEvent }) {
  const [round, setRound] = useState(0);
  const [result] = useRequest<{ check: ProofCheck } | { pending: string }>(`proof:${event.id}:${round}`, async () => {
    const [proof, keys] = await Promise.all([
      api.GET('/v1/integrity/proofs/inclusion', { params: { query: { event_id: event.id } } }),
      api.GET('/v1/integrity/keys'),
    ]);
    // 409: the event came after the latest checkpoint (one is signed within seconds while events arrive).
    if (proof.response.status === 409) return { data: { pending: 'This event is newer than the latest signed checkpoint.' }, response: proof.response };
    if (!proof.data || !keys.data) return { error: proof.error ?? keys.error, response: proof.data ? keys.response : proof.response };
    if (typeof globalThis.crypto?.subtle === 'undefined') return { data: { check: { ok: false, reason: 'malformed', detail: 'this browser offers no WebCrypto here (it needs a secure context: https or localhost)' } }, response: proof.response };
    const check = await verifyInclusion(globalThis.crypto.subtle, event, proof.data as InclusionProof, keys.data.data);
    return { data: { check }, response: proof.response };
  });
  const again = (
    <button type="button" className="link-button" onClick={() => setRound((n) => n + 1)}>
      Check again
    </button>
  );
  if (result.state === 'loading') return <Loading what="the inclusion proof" />;
  if (result.state === 'error')
    return (
      <>
        <ErrorMessage error={result.error} status={result.status} /> {again}
      </>
    );
  if ('pending' in result.data)
    return (
      <p className="muted" role="status">
        {result.data.pending} {again}
      </p>
    );
  const check = result.data.check;
  return check.ok ? (
    <p className="verified" role="status" data-testid="inclusion-verified">
      ✓ Verified in this browser against checkpoint {check.tree_size} signed by key <code>{check.key_id}</code> (leaf {check.leaf_index}, root{' '}
      <code className="hash">{check.root_hash.slice(0, 16)}…</code>).
    </p>
  ) : (
    <div className="error" role="alert" data-testid="inclusion-failed">
      <p>
        ✗ Not verified ({check.reason.replace(/_/g, ' ')}): {check.detail}
      </p>
      {again}
    </div>
  );
}
