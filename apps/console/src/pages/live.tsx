import { type FormEvent, memo, useEffect, useRef, useState } from 'react';
import { ErrorMessage, Link, SeverityBadge, Time } from '../components';
import { EVENT_SEVERITIES, type EventSeverity, streamQuery } from '../lib/event-filters';
import { LiveBuffer, visibleRange } from '../lib/live-buffer';
import { eventPath } from '../lib/routes';
import { readEventStream } from '../lib/sse';

interface LiveEvent {
  id: string;
  type: string;
  severity: string;
  timestamp: string;
  database_id: string;
  details?: { user?: string; query?: string; source_ip?: string };
}

interface Filters {
  type: string;
  severities: EventSeverity[];
  database: string;
}

const ROW_HEIGHT = 40;
const VIEWPORT = 480;
const KEEP = 10_000;

/** One row; redrawn only when its event or position changes. */
const LiveRow = memo(function LiveRow({ item, top }: { item: LiveEvent; top: number }) {
  return (
    <li className="live-row" style={{ top }}>
      <Time iso={item.timestamp} />
      <SeverityBadge severity={item.severity} />
      <Link to={eventPath(item.id)}>{item.type}</Link>
      <span className="muted">{item.database_id}</span>
      <span className="truncate">{item.details?.query ?? item.details?.user ?? ''}</span>
    </li>
  );
});

type State = { kind: 'connecting' } | { kind: 'live' } | { kind: 'paused' } | { kind: 'error'; error: unknown; status?: number } | { kind: 'reconnecting' };

/**
 * The live event stream. `GET /v1/events/stream` is read with `fetch` so the access token travels in
 * the `Authorization` header (EventSource cannot send it, and a token in the address would be logged).
 * Pausing closes the stream; resuming reopens it with `Last-Event-ID`, so the server replays what
 * was missed: no gap, and the buffer drops any repeat by id. Arrivals are batched and drawn once per
 * animation frame, and only the rows in view are in the document.
 */
export function LivePage({ token }: { token: () => string | undefined }) {
  const [filters, setFilters] = useState<Filters>({ type: '', severities: [], database: '' });
  const [draft, setDraft] = useState<Filters>(filters);
  const [paused, setPaused] = useState(false);
  const [state, setState] = useState<State>({ kind: 'connecting' });
  const [, setFrame] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const buffer = useRef(new LiveBuffer<LiveEvent>(KEEP));
  const lastId = useRef<string | undefined>(undefined);
  const pending = useRef<LiveEvent[]>([]);
  const frame = useRef(0);

  // A new filter set starts a new stream from now.
  useEffect(() => {
    buffer.current.clear();
    lastId.current = undefined;
    setFrame((n) => n + 1);
  }, [filters]);

  useEffect(() => {
    if (paused) {
      setState({ kind: 'paused' });
      return;
    }
    const controller = new AbortController();
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let retryMs = 2000;
    const flush = () => {
      frame.current = 0;
      const batch = pending.current;
      pending.current = [];
      if (buffer.current.add(batch)) setFrame((n) => n + 1);
    };
    const connect = async () => {
      setState((current) => (current.kind === 'reconnecting' ? current : { kind: 'connecting' }));
      const query = new URLSearchParams(streamQuery(filters));
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      const value = token();
      if (value) headers.Authorization = `Bearer ${value}`;
      if (lastId.current) headers['Last-Event-ID'] = lastId.current;
      try {
        const response = await fetch(`/v1/events/stream${query.size ? `?${query}` : ''}`, { headers, signal: controller.signal, cache: 'no-store' });
        if (!response.ok || !response.body) {
          const problem: unknown = await response.json().catch(() => undefined);
          setState({ kind: 'error', error: problem, status: response.status });
          return;
        }
        setState({ kind: 'live' });
        await readEventStream(response.body, (messages, last) => {
          for (const message of messages) {
            try {
              pending.current.push(JSON.parse(message.data) as LiveEvent);
            } catch {
              // A message that is not an event (none today) is skipped.
            }
          }
          if (last) lastId.current = last;
          if (!frame.current) frame.current = requestAnimationFrame(flush);
        });
        throw new Error('the stream ended');
      } catch (error) {
        if (controller.signal.aborted) return;
        // Dropped: reconnect with Last-Event-ID after a pause, like EventSource would.
        setState({ kind: 'reconnecting' });
        retryTimer = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 30_000);
        void error;
      }
    };
    void connect();
    return () => {
      controller.abort();
      if (retryTimer) clearTimeout(retryTimer);
      if (frame.current) cancelAnimationFrame(frame.current);
      frame.current = 0;
      // Events read but not drawn yet are kept for the next frame after resuming.
      buffer.current.add(pending.current);
      pending.current = [];
    };
  }, [filters, paused, token]);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilters({ ...draft, severities: [...draft.severities] });
  }

  const items = buffer.current.items;
  const { start, end } = visibleRange(scrollTop, VIEWPORT, ROW_HEIGHT, items.length);
  const status =
    state.kind === 'live' ? 'Live' : state.kind === 'paused' ? 'Paused' : state.kind === 'connecting' ? 'Connecting…' : state.kind === 'reconnecting' ? 'Connection lost, reconnecting…' : 'Stopped';

  return (
    <main id="main" className="wide">
      <h1>Live</h1>
      <form className="filters" aria-label="Filter the stream" onSubmit={apply}>
        <div className="field">
          <label htmlFor="live-type">Type pattern</label>
          <input id="live-type" value={draft.type} placeholder="security.*" onChange={(e) => setDraft({ ...draft, type: e.target.value })} />
        </div>
        <fieldset>
          <legend>Severity</legend>
          {EVENT_SEVERITIES.map((severity) => (
            <label key={severity} className="check">
              <input
                type="checkbox"
                checked={draft.severities.includes(severity)}
                onChange={() =>
                  setDraft({ ...draft, severities: draft.severities.includes(severity) ? draft.severities.filter((s) => s !== severity) : [...draft.severities, severity] })
                }
              />{' '}
              {severity}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="live-database">Database</label>
          <input id="live-database" value={draft.database} onChange={(e) => setDraft({ ...draft, database: e.target.value })} />
        </div>
        <button type="submit">Apply filters</button>
      </form>
      <div className="toolbar">
        <button type="button" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <span role="status" className="live-status" data-state={state.kind}>
          {status}
        </span>
        <span className="muted" data-testid="live-count" data-received={buffer.current.received} data-duplicates={buffer.current.duplicates}>
          {buffer.current.received} events received{items.length < buffer.current.received ? `, newest ${items.length} kept` : ''}
        </span>
      </div>
      {state.kind === 'error' && <ErrorMessage error={state.error} status={state.status} />}
      {items.length === 0 ? (
        <p className="empty">{paused ? 'Paused. Resume to receive events.' : 'Waiting for events that match these filters…'}</p>
      ) : (
        <div className="live-list" tabIndex={0} role="region" aria-label="Events, newest first" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
          <ol className="live-rows" style={{ height: items.length * ROW_HEIGHT }}>
            {items.slice(start, end).map((item, i) => (
              <LiveRow key={item.id} item={item} top={(start + i) * ROW_HEIGHT} />
            ))}
          </ol>
        </div>
      )}
    </main>
  );
}
