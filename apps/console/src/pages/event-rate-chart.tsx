import { useEffect, useState } from 'react';
import type { Api } from '../api/client';
import { ErrorMessage, Loading, Time } from '../components';
import { EVENT_SEVERITIES } from '../lib/event-filters';
import { axisMaximum, eventRateSeries, perMinute, RATE_WINDOWS, type RateGroup, type RateWindow } from '../lib/event-rate';
import { eventRateKey, readEventRate } from '../lib/overview-data';
import { useRequest } from '../lib/use-request';

const WIDTH = 600;
const HEIGHT = 160;
const LEFT = 40;
const BOTTOM = 20;

/**
 * Events per minute by severity over the last hour (by minute) or the last 24 hours (by hour, each
 * bar the hour's average per minute), from `POST /v1/events/aggregate` grouped by severity and the
 * bucket, as stacked bars in inline SVG; read again every minute. Needs read:logs.
 */
export function EventRateChart({ api }: { api: Api }) {
  const [period, setPeriod] = useState<RateWindow>('hour');
  const [result, reload] = useRequest(eventRateKey(period), () => readEventRate(api, period));
  useEffect(() => {
    const timer = setInterval(reload, 60_000);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section aria-labelledby="event-rate">
      <h2 id="event-rate">Events per minute, {RATE_WINDOWS[period].label}</h2>
      <div className="toggle" role="group" aria-label="Period">
        {(['hour', 'day'] as const).map((w) => (
          <button key={w} type="button" aria-pressed={period === w} onClick={() => setPeriod(w)}>
            {w === 'hour' ? 'Last hour' : 'Last 24 hours'}
          </button>
        ))}
      </div>
      {result.state === 'loading' && <Loading what="the event rate" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && <Chart groups={result.data.groups} period={period} />}
    </section>
  );
}

const rate = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1));

function Chart({ groups, period }: { groups: RateGroup[]; period: RateWindow }) {
  const { size, label } = RATE_WINDOWS[period];
  const series = eventRateSeries(groups, Date.now(), period);
  const max = axisMaximum(series);
  const totals = EVENT_SEVERITIES.map((severity) => ({ severity, count: series.reduce((sum, minute) => sum + minute.counts[severity], 0) }));
  const all = totals.reduce((sum, t) => sum + t.count, 0);
  const slot = (WIDTH - LEFT) / series.length;
  const plot = HEIGHT - BOTTOM;
  const peak = Math.max(...series.map((m) => perMinute(m)));
  const summary = `${all} events in the ${label}: ${totals.map((t) => `${t.count} ${t.severity}`).join(', ')}; at most ${rate(peak)} per minute${period === 'day' ? ' (hourly average)' : ''}.`;
  const first = series[0]?.start ?? 0;
  const end = (series[series.length - 1]?.start ?? 0) + size;
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
              <title>
                {period === 'hour'
                  ? `${new Date(minute.start).toISOString().slice(11, 16)} UTC: ${minute.total} (${EVENT_SEVERITIES.map((s) => `${minute.counts[s]} ${s}`).join(', ')})`
                  : `${new Date(minute.start).toISOString().slice(0, 16).replace('T', ' ')} UTC, one hour: ${minute.total} events, ${rate(perMinute(minute))} per minute (${EVENT_SEVERITIES.map((s) => `${minute.counts[s]} ${s}`).join(', ')})`}
              </title>
              {EVENT_SEVERITIES.map((severity) => {
                const count = minute.counts[severity];
                if (count === 0) return null;
                const height = (perMinute(minute, count) / max) * plot;
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
