import { useEffect } from 'react';
import type { Api } from '../api/client';
import { ErrorMessage, Loading, Time } from '../components';
import { EVENT_SEVERITIES } from '../lib/event-filters';
import { axisMaximum, eventsPerMinute, type RateGroup } from '../lib/event-rate';
import { useRequest } from '../lib/use-request';

const WIDTH = 600;
const HEIGHT = 160;
const LEFT = 40;
const BOTTOM = 20;

/**
 * Events per minute by severity over the last hour (`POST /v1/events/aggregate` grouped by severity
 * and minute), as stacked bars in inline SVG; read again every minute. Needs read:logs.
 */
export function EventRateChart({ api }: { api: Api }) {
  const [result, reload] = useRequest('overview:event-rate', async () => {
    const answer = await api.POST('/v1/events/aggregate', {
      body: { metrics: ['count'], filters: { time_range: { last: '1h' } }, group_by: ['severity', 'minute'], limit: 1000 },
    });
    return answer as { data?: { groups: RateGroup[] }; error?: unknown; response: Response };
  });
  useEffect(() => {
    const timer = setInterval(reload, 60_000);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section aria-labelledby="event-rate">
      <h2 id="event-rate">Events per minute, last hour</h2>
      {result.state === 'loading' && <Loading what="the event rate" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && <Chart groups={result.data.groups} />}
    </section>
  );
}

function Chart({ groups }: { groups: RateGroup[] }) {
  const series = eventsPerMinute(groups, Date.now());
  const max = axisMaximum(series);
  const totals = EVENT_SEVERITIES.map((severity) => ({ severity, count: series.reduce((sum, minute) => sum + minute.counts[severity], 0) }));
  const all = totals.reduce((sum, t) => sum + t.count, 0);
  const slot = (WIDTH - LEFT) / series.length;
  const plot = HEIGHT - BOTTOM;
  const summary = `${all} events in the last hour: ${totals.map((t) => `${t.count} ${t.severity}`).join(', ')}; at most ${Math.max(...series.map((m) => m.total))} in one minute.`;
  const first = series[0]?.start ?? 0;
  const end = (series[series.length - 1]?.start ?? 0) + 60_000;
  return (
    <figure className="rate-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="event-rate-summary">
        <line className="axis" x1={LEFT} y1={plot} x2={WIDTH} y2={plot} />
        <line className="grid" x1={LEFT} y1={0.5} x2={WIDTH} y2={0.5} />
        <text className="axis-label" x={LEFT - 4} y={10} textAnchor="end">
          {max}
        </text>
        <text className="axis-label" x={LEFT - 4} y={plot} textAnchor="end">
          0
        </text>
        {series.map((minute, i) => {
          let y = plot;
          return (
            <g key={minute.start}>
              <title>{`${new Date(minute.start).toISOString().slice(11, 16)} UTC: ${minute.total} (${EVENT_SEVERITIES.map((s) => `${minute.counts[s]} ${s}`).join(', ')})`}</title>
              {EVENT_SEVERITIES.map((severity) => {
                const count = minute.counts[severity];
                if (count === 0) return null;
                const height = (count / max) * plot;
                y -= height;
                return <rect key={severity} className={`bar-${severity}`} x={LEFT + i * slot + 1} y={y} width={Math.max(1, slot - 2)} height={height} />;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <p id="event-rate-summary" className="visually-hidden">
          {summary}
        </p>
        <span className="muted">
          <Time iso={new Date(first).toISOString()} /> to <Time iso={new Date(end).toISOString()} />
        </span>
        <ul className="legend">
          {totals.map(({ severity, count }) => (
            <li key={severity}>
              <span className={`swatch bar-${severity}`} aria-hidden="true" /> {severity}: {count}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
