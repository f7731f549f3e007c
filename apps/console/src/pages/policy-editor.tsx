import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { Api } from '../api/client';
import { ErrorMessage, Field, Link, Loading } from '../components';
import { cidrListErrors } from '../lib/cidr';
import { navigate } from '../lib/navigation';
import {
  ACTIONS,
  EVENT_SEVERITY_NAMES,
  emptyMaskRule,
  emptyPolicyForm,
  emptyQueryRule,
  errorFor,
  type FieldErrors,
  GROUP_BY,
  MASK_METHODS,
  POLICY_TYPES,
  type PolicyForm,
  policyFormFromPolicy,
  policyFormToBody,
  problemFieldErrors,
  SEVERITIES,
  WEEKDAYS,
} from '../lib/policy-form';
import { policyPath } from '../lib/routes';
import { timeZones } from '../lib/time';
import { type Failure, useAction } from '../lib/use-action';
import { useRequest } from '../lib/use-request';

const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function PolicyEditorPage({ api, id }: { api: Api; id?: string }) {
  const [result] = useRequest(`policy-edit:${id ?? ''}`, async () =>
    id ? api.GET('/v1/policies/{policy_id}', { params: { path: { policy_id: id } } }) : { data: undefined as never, response: new Response(null) },
  );
  if (!id) return <Editor api={api} initial={emptyPolicyForm('query_control', viewerZone)} />;
  return (
    <main id="main">
      {result.state === 'loading' && <Loading what="the policy" />}
      {result.state === 'error' && (
        <>
          <h1>Edit policy</h1>
          <ErrorMessage error={result.error} status={result.status} />
        </>
      )}
      {result.state === 'done' && <Editor api={api} id={id} initial={policyFormFromPolicy(result.data)} original={result.data.config} />}
    </main>
  );
}

function Editor({ api, id, initial, original }: { api: Api; id?: string; initial: PolicyForm; original?: unknown }) {
  const [form, setForm] = useState(initial);
  const [checked, setChecked] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const { busy, failure, act, setFailure } = useAction();
  const local = policyFormToBody(form, original).errors;
  // The form's own findings show once a save was tried; the API's (by field path) after it answered.
  const errors: FieldErrors = { ...(submitted ? local : {}), ...checked, ...problemFieldErrors(failure?.error) };
  const set = (changes: Partial<PolicyForm>) => setForm({ ...form, ...changes });

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setChecked({});
    const { body, errors: found } = policyFormToBody(form, original);
    if (Object.keys(found).length) {
      setFailure({ error: { title: 'Some fields need attention', detail: 'Some fields need attention.', errors: Object.entries(found).map(([field, message]) => ({ field, message })) } } as Failure);
      return;
    }
    const saved = await act(
      () => (id ? api.PUT('/v1/policies/{policy_id}', { params: { path: { policy_id: id } }, body: body as never }) : api.POST('/v1/policies', { body: body as never })),
      () => undefined,
    );
    if (saved && typeof saved === 'object' && 'id' in saved) navigate(policyPath(String(saved.id)));
  }

  return (
    <main id="main">
      <p>
        <Link to={id ? policyPath(id) : '/policies'}>← {id ? 'Back to the policy' : 'All policies'}</Link>
      </p>
      <h1>{id ? 'Edit policy' : 'New policy'}</h1>
      <form className="stack" onSubmit={save} noValidate aria-label={id ? 'Edit policy' : 'New policy'}>
        <Field id="policy-type" label="Type" error={errors.type}>
          {(props) => (
            <select {...props} value={form.type} disabled={Boolean(id)} onChange={(e) => set({ type: e.target.value as PolicyForm['type'] })}>
              {POLICY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type.replace('_', ' ')}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="policy-name" label="Name" error={errors.name}>
          {(props) => <input {...props} value={form.name} onChange={(e) => set({ name: e.target.value })} />}
        </Field>
        <Field id="policy-description" label="Description" error={errors.description}>
          {(props) => <input {...props} value={form.description} onChange={(e) => set({ description: e.target.value })} />}
        </Field>
        <Field id="policy-databases" label="Databases" error={errorFor(errors, 'databases')} hint="Database ids separated by commas; * for every database">
          {(props) => <input {...props} value={form.databases} onChange={(e) => set({ databases: e.target.value })} />}
        </Field>
        <label className="check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
        </label>
        <label className="check">
          <input type="checkbox" checked={form.shadow} onChange={(e) => set({ shadow: e.target.checked })} /> Shadow mode (record what the policy would do, block nothing)
        </label>
        {form.type === 'query_control' && <QueryRules form={form} set={set} errors={errors} />}
        {form.type === 'access_control' && <AccessControl form={form} set={set} errors={errors} />}
        {form.type === 'data_protection' && <DataProtection form={form} set={set} errors={errors} />}
        {form.type === 'alerting' && <Alerting form={form} set={set} errors={errors} />}
        {(form.type === 'query_control' || form.type === 'data_protection') && (
          <Field id="policy-except-users" label="Exempt users" error={errorFor(errors, 'config.exceptions')} hint="Database users the policy ignores, separated by commas">
            {(props) => <input {...props} value={form.exceptUsers} onChange={(e) => set({ exceptUsers: e.target.value })} />}
          </Field>
        )}
        <button type="submit" disabled={busy}>
          {id ? 'Save changes' : 'Create policy'}
        </button>
      </form>
      {failure && <ErrorMessage error={failure.error} status={failure.status} />}
    </main>
  );
}

interface Part {
  form: PolicyForm;
  set: (changes: Partial<PolicyForm>) => void;
  errors: FieldErrors;
}

function SeveritySelect({ id, value, onChange, label = 'Severity' }: { id: string; value: string; onChange: (value: (typeof SEVERITIES)[number]) => void; label?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as (typeof SEVERITIES)[number])}>
        {SEVERITIES.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
    </div>
  );
}

function QueryRules({ form, set, errors }: Part) {
  const update = (i: number, changes: Partial<PolicyForm['rules'][number]>) => set({ rules: form.rules.map((rule, j) => (j === i ? { ...rule, ...changes } : rule)) });
  return (
    <fieldset>
      <legend>Query rules</legend>
      {errors['config.rules'] && <p className="field-error">{errors['config.rules']}</p>}
      {form.rules.map((rule, i) => (
        <fieldset key={i} className="rule">
          <legend>Rule {i + 1}</legend>
          <Field id={`rule-${i}-name`} label="Rule name" error={errors[`config.rules[${i}].name`]}>
            {(props) => <input {...props} value={rule.name} onChange={(e) => update(i, { name: e.target.value })} />}
          </Field>
          <Field id={`rule-${i}-pattern`} label="Pattern" error={errors[`config.rules[${i}].pattern`]} hint="An RE2 regular expression, matched against the query (case-insensitive unless set otherwise)">
            {(props) => <input {...props} className={`mono ${props.className ?? ''}`} value={rule.pattern} onChange={(e) => update(i, { pattern: e.target.value })} />}
          </Field>
          <label className="check">
            <input type="checkbox" checked={rule.caseSensitive} onChange={(e) => update(i, { caseSensitive: e.target.checked })} /> Case-sensitive
          </label>
          <PatternTester id={`rule-${i}`} pattern={rule.pattern} caseSensitive={rule.caseSensitive} />
          <div className="row">
            <div className="field">
              <label htmlFor={`rule-${i}-action`}>Action</label>
              <select id={`rule-${i}-action`} value={rule.action} onChange={(e) => update(i, { action: e.target.value as (typeof ACTIONS)[number] })}>
                {ACTIONS.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </div>
            {rule.action !== 'log' && <SeveritySelect id={`rule-${i}-severity`} value={rule.severity} onChange={(severity) => update(i, { severity })} />}
          </div>
          <Field id={`rule-${i}-message`} label="Message" error={errors[`config.rules[${i}].message`]}>
            {(props) => <input {...props} value={rule.message} onChange={(e) => update(i, { message: e.target.value })} />}
          </Field>
          {form.rules.length > 1 && (
            <button type="button" className="link-button" onClick={() => set({ rules: form.rules.filter((_, j) => j !== i) })}>
              Remove rule {i + 1}
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" className="link-button" onClick={() => set({ rules: [...form.rules, emptyQueryRule()] })}>
        Add a rule
      </button>
    </fieldset>
  );
}

type Re2 = typeof import('re2js').RE2JS;

/** Tries a pattern on sample text with RE2 semantics (re2js, the engine the server runs), loaded on first use. */
function PatternTester({ id, pattern, caseSensitive }: { id: string; pattern: string; caseSensitive: boolean }) {
  const [sample, setSample] = useState('');
  const [engine, setEngine] = useState<Re2>();
  useEffect(() => {
    if (sample && !engine) void import('re2js').then((m) => setEngine(() => m.RE2JS));
  }, [sample, engine]);
  const verdict = useMemo(() => {
    if (!sample || !pattern) return '';
    if (!engine) return 'Loading the pattern engine…';
    try {
      const re = engine.compile(pattern, caseSensitive ? 0 : engine.CASE_INSENSITIVE);
      return re.matcher(sample).find() ? 'Matches the sample.' : 'Does not match the sample.';
    } catch (error) {
      return `Not a valid RE2 pattern: ${(error as Error).message}`;
    }
  }, [sample, pattern, caseSensitive, engine]);
  return (
    <div className="field">
      <label htmlFor={`${id}-sample`}>Try the pattern on a query</label>
      <input id={`${id}-sample`} className="mono" value={sample} onChange={(e) => setSample(e.target.value)} aria-describedby={`${id}-verdict`} />
      <span id={`${id}-verdict`} role="status" className="small">
        {verdict}
      </span>
    </div>
  );
}

function AccessControl({ form, set, errors }: Part) {
  const typed = cidrListErrors(form.allowedIps);
  const zones = useMemo(() => timeZones(), []);
  return (
    <fieldset>
      <legend>Access conditions</legend>
      {errors['config.conditions'] && <p className="field-error">{errors['config.conditions']}</p>}
      <Field id="ac-users" label="Users" hint="Database users governed, separated by commas; empty for every user" error={errorFor(errors, 'config.conditions.users')}>
        {(props) => <input {...props} value={form.users} onChange={(e) => set({ users: e.target.value })} />}
      </Field>
      <Field id="ac-ips" label="Allowed addresses" hint="IPv4 or IPv6 addresses or CIDR ranges, one per line" error={typed.length ? typed.join('; ') : errorFor(errors, 'config.conditions.allowed_ips')}>
        {(props) => <textarea {...props} className={`mono ${props.className ?? ''}`} rows={4} value={form.allowedIps} onChange={(e) => set({ allowedIps: e.target.value })} />}
      </Field>
      <label className="check">
        <input type="checkbox" checked={form.window} onChange={(e) => set({ window: e.target.checked })} /> Only allowed within a time window
      </label>
      {form.window && (
        <div className="row">
          <Field id="ac-start" label="From" error={errors['config.conditions.time_window.start']}>
            {(props) => <input {...props} type="time" value={form.start} onChange={(e) => set({ start: e.target.value })} />}
          </Field>
          <Field id="ac-end" label="Until" error={errors['config.conditions.time_window.end']}>
            {(props) => <input {...props} type="time" value={form.end} onChange={(e) => set({ end: e.target.value })} />}
          </Field>
          <Field id="ac-zone" label="Time zone" error={errors['config.conditions.time_window.timezone']}>
            {(props) => (
              <>
                <input {...props} list="ac-zones" value={form.timezone} onChange={(e) => set({ timezone: e.target.value })} />
                <datalist id="ac-zones">
                  {zones.map((zone) => (
                    <option key={zone} value={zone} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <fieldset>
            <legend>Days (none: every day)</legend>
            {WEEKDAYS.map((day) => (
              <label key={day} className="check">
                <input type="checkbox" checked={form.days.includes(day)} onChange={() => set({ days: form.days.includes(day) ? form.days.filter((d) => d !== day) : [...form.days, day] })} /> {day}
              </label>
            ))}
          </fieldset>
        </div>
      )}
      <fieldset>
        <legend>Actions when access is outside these conditions</legend>
        {errors['config.actions'] && <p className="field-error">{errors['config.actions']}</p>}
        {form.actions.map((action, i) => (
          <div className="row" key={i}>
            <div className="field">
              <label htmlFor={`ac-action-${i}`}>Action {i + 1}</label>
              <select id={`ac-action-${i}`} value={action.type} onChange={(e) => set({ actions: form.actions.map((a, j) => (j === i ? { ...a, type: e.target.value as (typeof ACTIONS)[number] } : a)) })}>
                {ACTIONS.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </div>
            {action.type !== 'log' && <SeveritySelect id={`ac-action-${i}-severity`} value={action.severity} onChange={(severity) => set({ actions: form.actions.map((a, j) => (j === i ? { ...a, severity } : a)) })} />}
            <button type="button" className="link-button" onClick={() => set({ actions: form.actions.filter((_, j) => j !== i) })}>
              Remove action {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="link-button" onClick={() => set({ actions: [...form.actions, { type: 'alert', severity: 'high' }] })}>
          Add an action
        </button>
      </fieldset>
    </fieldset>
  );
}

function DataProtection({ form, set, errors }: Part) {
  const update = (i: number, changes: Partial<PolicyForm['maskRules'][number]>) => set({ maskRules: form.maskRules.map((rule, j) => (j === i ? { ...rule, ...changes } : rule)) });
  return (
    <fieldset>
      <legend>Masking rules</legend>
      {errors['config.rules'] && <p className="field-error">{errors['config.rules']}</p>}
      {form.maskRules.map((rule, i) => (
        <fieldset key={i} className="rule">
          <legend>Rule {i + 1}</legend>
          <Field id={`mask-${i}-name`} label="Rule name" error={errors[`config.rules[${i}].name`]}>
            {(props) => <input {...props} value={rule.name} onChange={(e) => update(i, { name: e.target.value })} />}
          </Field>
          <Field id={`mask-${i}-columns`} label="Columns" hint="Column names, separated by commas" error={errorFor(errors, `config.rules[${i}].columns`)}>
            {(props) => <input {...props} value={rule.columns} onChange={(e) => update(i, { columns: e.target.value })} />}
          </Field>
          <Field id={`mask-${i}-classifications`} label="Classifications" hint="Data classifications, separated by commas" error={errorFor(errors, `config.rules[${i}].classifications`)}>
            {(props) => <input {...props} value={rule.classifications} onChange={(e) => update(i, { classifications: e.target.value })} />}
          </Field>
          <div className="row">
            <div className="field">
              <label htmlFor={`mask-${i}-method`}>Method</label>
              <select id={`mask-${i}-method`} value={rule.method} onChange={(e) => update(i, { method: e.target.value as (typeof MASK_METHODS)[number] })}>
                {MASK_METHODS.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </div>
            {rule.method === 'partial' && (
              <>
                <Field id={`mask-${i}-first`} label="Show first" error={errors[`config.rules[${i}].show_first`]}>
                  {(props) => <input {...props} inputMode="numeric" value={rule.showFirst} onChange={(e) => update(i, { showFirst: e.target.value })} />}
                </Field>
                <Field id={`mask-${i}-last`} label="Show last" error={errors[`config.rules[${i}].show_last`]}>
                  {(props) => <input {...props} inputMode="numeric" value={rule.showLast} onChange={(e) => update(i, { showLast: e.target.value })} />}
                </Field>
              </>
            )}
          </div>
          {form.maskRules.length > 1 && (
            <button type="button" className="link-button" onClick={() => set({ maskRules: form.maskRules.filter((_, j) => j !== i) })}>
              Remove rule {i + 1}
            </button>
          )}
        </fieldset>
      ))}
      <button type="button" className="link-button" onClick={() => set({ maskRules: [...form.maskRules, emptyMaskRule()] })}>
        Add a rule
      </button>
    </fieldset>
  );
}

function Alerting({ form, set, errors }: Part) {
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  return (
    <fieldset>
      <legend>Alert when</legend>
      <Field id="al-types" label="Event types" hint="Types or patterns (security.*), separated by commas; empty for every type" error={errorFor(errors, 'config.conditions.event_types')}>
        {(props) => <input {...props} value={form.eventTypes} onChange={(e) => set({ eventTypes: e.target.value })} />}
      </Field>
      <fieldset>
        <legend>Event severities (none: any)</legend>
        {EVENT_SEVERITY_NAMES.map((s) => (
          <label key={s} className="check">
            <input type="checkbox" checked={form.eventSeverities.includes(s)} onChange={() => set({ eventSeverities: toggle(form.eventSeverities, s) })} /> {s}
          </label>
        ))}
      </fieldset>
      <Field id="al-users" label="Users" hint="Separated by commas; empty for every user" error={errorFor(errors, 'config.conditions.users')}>
        {(props) => <input {...props} value={form.users} onChange={(e) => set({ users: e.target.value })} />}
      </Field>
      <label className="check">
        <input type="checkbox" checked={form.threshold} onChange={(e) => set({ threshold: e.target.checked })} /> Only after a number of events within a window
      </label>
      {form.threshold && (
        <div className="row">
          <Field id="al-count" label="Events" error={errors['config.conditions.threshold.count']}>
            {(props) => <input {...props} inputMode="numeric" value={form.count} onChange={(e) => set({ count: e.target.value })} />}
          </Field>
          <Field id="al-window" label="Within minutes" error={errors['config.conditions.threshold.window_minutes']}>
            {(props) => <input {...props} inputMode="numeric" value={form.windowMinutes} onChange={(e) => set({ windowMinutes: e.target.value })} />}
          </Field>
          <fieldset>
            <legend>Counted per</legend>
            {GROUP_BY.map((g) => (
              <label key={g} className="check">
                <input type="checkbox" checked={form.groupBy.includes(g)} onChange={() => set({ groupBy: toggle(form.groupBy, g) })} /> {g.replace('_', ' ')}
              </label>
            ))}
          </fieldset>
        </div>
      )}
      <SeveritySelect id="al-severity" label="Alert severity" value={form.alertSeverity} onChange={(alertSeverity) => set({ alertSeverity })} />
      <Field id="al-title" label="Alert title" error={errors['config.alert.title']}>
        {(props) => <input {...props} value={form.alertTitle} onChange={(e) => set({ alertTitle: e.target.value })} />}
      </Field>
      <Field id="al-message" label="Alert message" error={errors['config.alert.message']}>
        {(props) => <input {...props} value={form.alertMessage} onChange={(e) => set({ alertMessage: e.target.value })} />}
      </Field>
    </fieldset>
  );
}
