import { type FormEvent, useEffect, useState } from 'react';
import type { Api } from '../api/client';
import type { components } from '../api/schema';
import { ActionResult, ErrorMessage, Field, Loading, Time } from '../components';
import { splitList } from '../lib/cidr';
import { problemFieldErrors } from '../lib/policy-form';
import { isoToLocalInput, localInputToIso, timeZones } from '../lib/time';
import { useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';

type Report = components['schemas']['ReportDto'];
const TYPES = ['pci_dss', 'sox', 'hipaa', 'gdpr'] as const;
const FORMATS = ['json', 'csv', 'html', 'pdf'] as const;
type Format = (typeof FORMATS)[number];

/** Downloads a report file with the bearer token (a plain link could not send it). */
async function download(report: Report, format: Format, token: () => string | undefined): Promise<string | undefined> {
  const value = token();
  const response = await fetch(`/v1/reports/${encodeURIComponent(report.id)}/download?format=${format}`, { headers: value ? { Authorization: `Bearer ${value}` } : {} });
  if (!response.ok) return `Download failed with status ${response.status}.`;
  const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${report.id}.${format}`;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return undefined;
}

export function ReportsPage({ api, canChange, token }: { api: Api; canChange: boolean; token: () => string | undefined }) {
  const [round, setRound] = useState(0);
  const [result] = useRequest(`reports:${round}`, () => api.GET('/v1/reports', { params: { query: { page: 1, per_page: 25 } } } as never) as Promise<{ data?: components['schemas']['ReportPageDto']; error?: unknown; response: Response }>);
  const now = new Date();
  const [form, setForm] = useState({ type: 'pci_dss' as (typeof TYPES)[number], from: isoToLocalInput(new Date(now.getTime() - 7 * 86_400_000).toISOString()), to: isoToLocalInput(now.toISOString()), formats: ['json', 'csv'] as Format[], databases: '' });
  const { busy, notice, failure, act, setNotice } = useAction();
  const errors = problemFieldErrors(failure?.error);
  // The last list received stays on screen while the next is fetched, so progress bars do not flicker.
  const [shown, setShown] = useState<components['schemas']['ReportPageDto']>();
  useEffect(() => {
    if (result.state === 'done') setShown(result.data);
  }, [result]);
  const running = Boolean(shown?.data.some((report) => report.status === 'queued' || report.status === 'running'));

  // While a report is being made, ask again every second for its progress.
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setRound((n) => n + 1), 1000);
    return () => clearTimeout(timer);
  }, [running, shown]);

  async function generate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const start = localInputToIso(form.from);
    const end = localInputToIso(form.to);
    const body = { type: form.type, period_start: start ?? form.from, period_end: end ?? form.to, formats: form.formats, ...(splitList(form.databases).length ? { databases: splitList(form.databases) } : {}) };
    if (await act(() => api.POST('/v1/reports', { body }), 'Report requested.')) setRound((n) => n + 1);
  }

  return (
    <main id="main">
      <h1>Reports</h1>
      <section aria-labelledby="generate">
        <h2 id="generate">Generate a report</h2>
        <form className="stack" onSubmit={generate} noValidate>
          <Field id="report-type" label="Framework" error={errors.type}>
            {(props) => (
              <select {...props} value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as (typeof TYPES)[number] })}>
                {TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type.replace('_', '-').toUpperCase()}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div className="row">
            <Field id="report-from" label="From (your time)" error={errors.period_start}>
              {(props) => <input {...props} type="datetime-local" value={form.from} onChange={(e) => setForm({ ...form, from: e.target.value })} />}
            </Field>
            <Field id="report-to" label="To (your time)" error={errors.period_end}>
              {(props) => <input {...props} type="datetime-local" value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />}
            </Field>
          </div>
          <fieldset className={errors.formats ? 'invalid' : undefined}>
            <legend>Formats</legend>
            {FORMATS.map((format) => (
              <label key={format} className="check">
                <input type="checkbox" checked={form.formats.includes(format)} onChange={() => setForm({ ...form, formats: form.formats.includes(format) ? form.formats.filter((f) => f !== format) : [...form.formats, format] })} /> {format}
              </label>
            ))}
            {errors.formats && <span className="field-error">{errors.formats}</span>}
          </fieldset>
          <Field id="report-databases" label="Databases" hint="Database ids separated by commas; empty for all" error={errors.databases}>
            {(props) => <input {...props} value={form.databases} onChange={(e) => setForm({ ...form, databases: e.target.value })} />}
          </Field>
          <button type="submit" disabled={busy}>
            Generate report
          </button>
        </form>
        <ActionResult notice={notice} failure={failure} />
      </section>
      <section aria-labelledby="report-list">
        <h2 id="report-list">Reports</h2>
        {result.state === 'loading' && !shown && <Loading what="reports" />}
        {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
        {shown && shown.data.length === 0 && <p className="empty">No reports yet.</p>}
        {shown && shown.data.length > 0 && (
          <ul className="plain reports">
            {shown.data.map((report) => (
              <li key={report.id} className="panel">
                <strong>{report.title}</strong> <span className="muted">({report.status})</span>
                <div className="small">
                  <Time iso={report.period_start} /> to <Time iso={report.period_end} />
                </div>
                {(report.status === 'queued' || report.status === 'running') && (
                  <progress max={100} value={report.progress} aria-label={`Progress of ${report.title}`}>
                    {report.progress}%
                  </progress>
                )}
                {report.error && <p className="error">{report.error}</p>}
                {report.status === 'completed' && (
                  <div className="actions">
                    {report.formats.map((format) => (
                      <button
                        key={format}
                        type="button"
                        className="link-button"
                        onClick={async () => {
                          const problem = await download(report, format, token);
                          setNotice(problem ?? `Downloaded ${format.toUpperCase()}.`);
                        }}
                      >
                        Download {format.toUpperCase()}
                      </button>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <Schedules api={api} canChange={canChange} />
    </main>
  );
}

function Schedules({ api, canChange }: { api: Api; canChange: boolean }) {
  const [result, reload] = useRequest('report-schedules', () => api.GET('/v1/report-schedules', { params: { query: { page: 1, per_page: 100 } } }));
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [form, setForm] = useState({ name: '', type: 'pci_dss' as (typeof TYPES)[number], cron: '0 6 * * 1', timezone: zone, period: '7', formats: ['pdf'] as Format[] });
  const { busy, notice, failure, act } = useAction();
  const errors = problemFieldErrors(failure?.error);

  return (
    <section aria-labelledby="schedules">
      <h2 id="schedules">Schedules</h2>
      {result.state === 'loading' && <Loading what="schedules" />}
      {result.state === 'error' && <ErrorMessage error={result.error} status={result.status} />}
      {result.state === 'done' && result.data.data.length === 0 && <p className="empty">No report schedules.</p>}
      {result.state === 'done' && result.data.data.length > 0 && (
        <ul className="plain">
          {result.data.data.map((schedule) => (
            <li key={schedule.id}>
              <strong>{schedule.name}</strong>: {schedule.type}, <code>{schedule.cron}</code> ({schedule.timezone}), next <Time iso={schedule.next_run_at} />
              {canChange && (
                <button
                  type="button"
                  className="link-button"
                  disabled={busy}
                  onClick={async () => {
                    if (await act(() => api.DELETE('/v1/report-schedules/{schedule_id}', { params: { path: { schedule_id: schedule.id } } }), 'Schedule deleted.')) reload();
                  }}
                >
                  Delete {schedule.name}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canChange && (
        <form
          className="stack"
          noValidate
          aria-label="New schedule"
          onSubmit={async (e) => {
            e.preventDefault();
            const body = { name: form.name.trim(), type: form.type, cron: form.cron.trim(), timezone: form.timezone, period_days: Number(form.period), formats: form.formats, enabled: true };
            if (await act(() => api.POST('/v1/report-schedules', { body }), 'Schedule created.')) reload();
          }}
        >
          <h3>New schedule</h3>
          <Field id="schedule-name" label="Name" error={errors.name}>
            {(props) => <input {...props} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />}
          </Field>
          <Field id="schedule-type" label="Framework" error={errors.type}>
            {(props) => (
              <select {...props} value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as (typeof TYPES)[number] })}>
                {TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type.replace('_', '-').toUpperCase()}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="schedule-cron" label="When (cron)" hint="minute hour day month weekday" error={errors.cron}>
            {(props) => <input {...props} className={`mono ${props.className ?? ''}`} value={form.cron} onChange={(e) => setForm({ ...form, cron: e.target.value })} />}
          </Field>
          <Field id="schedule-zone" label="Time zone" error={errors.timezone}>
            {(props) => (
              <select {...props} value={form.timezone} onChange={(e) => setForm({ ...form, timezone: e.target.value })}>
                {timeZones().map((z) => (
                  <option key={z}>{z}</option>
                ))}
              </select>
            )}
          </Field>
          <Field id="schedule-period" label="Days covered" error={errors.period_days}>
            {(props) => <input {...props} inputMode="numeric" value={form.period} onChange={(e) => setForm({ ...form, period: e.target.value })} />}
          </Field>
          <fieldset>
            <legend>Formats</legend>
            {FORMATS.map((format) => (
              <label key={format} className="check">
                <input type="checkbox" checked={form.formats.includes(format)} onChange={() => setForm({ ...form, formats: form.formats.includes(format) ? form.formats.filter((f) => f !== format) : [...form.formats, format] })} /> {format}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={busy}>
            Create schedule
          </button>
        </form>
      )}
      <ActionResult notice={notice} failure={failure} />
    </section>
  );
}
