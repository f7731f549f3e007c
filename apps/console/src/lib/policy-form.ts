import { cidrError, splitList } from './cidr';
import { isTimeZone } from './time';

/**
 * The policy form: what the fields hold as typed, per policy type, and the body of
 * `POST /v1/policies` / `PUT /v1/policies/{id}` built from it. Field errors use the API's field
 * paths (`config.rules[0].pattern`), so the form marks the same inputs for its own checks and for
 * the problem document the API answers.
 */
export const POLICY_TYPES = ['query_control', 'access_control', 'data_protection', 'alerting'] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const ACTIONS = ['block', 'alert', 'log'] as const;
export type Action = (typeof ACTIONS)[number];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const MASK_METHODS = ['redact', 'partial', 'hash', 'null'] as const;
export const EVENT_SEVERITY_NAMES = ['info', 'warning', 'critical'] as const;
export const GROUP_BY = ['user', 'source_ip', 'database_id', 'client_application', 'session_id'] as const;

export interface QueryRuleForm {
  name: string;
  pattern: string;
  action: Action;
  severity: Severity;
  message: string;
  caseSensitive: boolean;
}
export interface ActionForm {
  type: Action;
  severity: Severity;
}
export interface MaskRuleForm {
  name: string;
  columns: string;
  classifications: string;
  method: (typeof MASK_METHODS)[number];
  showFirst: string;
  showLast: string;
}

export interface PolicyForm {
  type: PolicyType;
  name: string;
  description: string;
  databases: string;
  enabled: boolean;
  shadow: boolean;
  // query_control and data_protection
  exceptUsers: string;
  rules: QueryRuleForm[];
  maskRules: MaskRuleForm[];
  // access_control
  users: string;
  allowedIps: string;
  window: boolean;
  start: string;
  end: string;
  timezone: string;
  days: string[];
  actions: ActionForm[];
  // alerting
  eventTypes: string;
  eventSeverities: string[];
  alertSeverity: Severity;
  alertTitle: string;
  alertMessage: string;
  threshold: boolean;
  count: string;
  windowMinutes: string;
  groupBy: string[];
}

export type FieldErrors = Record<string, string>;

export const emptyQueryRule = (): QueryRuleForm => ({ name: '', pattern: '', action: 'alert', severity: 'high', message: '', caseSensitive: false });
export const emptyMaskRule = (): MaskRuleForm => ({ name: '', columns: '', classifications: '', method: 'redact', showFirst: '', showLast: '' });

export function emptyPolicyForm(type: PolicyType = 'query_control', timezone = 'UTC'): PolicyForm {
  return {
    type,
    name: '',
    description: '',
    databases: '*',
    enabled: true,
    shadow: false,
    exceptUsers: '',
    rules: [emptyQueryRule()],
    maskRules: [emptyMaskRule()],
    users: '',
    allowedIps: '',
    window: false,
    start: '09:00',
    end: '18:00',
    timezone,
    days: [],
    actions: [{ type: 'alert', severity: 'high' }],
    eventTypes: '',
    eventSeverities: [],
    alertSeverity: 'high',
    alertTitle: '',
    alertMessage: '',
    threshold: false,
    count: '10',
    windowMinutes: '5',
    groupBy: [],
  };
}

type Json = Record<string, unknown>;
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));
const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);

/** The form for an existing policy (as `GET /v1/policies/{id}` returns it). */
export function policyFormFromPolicy(policy: { type: string; name: string; description: string; databases: string[]; enabled: boolean; enforcement_mode: string; config: unknown }): PolicyForm {
  const type = oneOf(policy.type, POLICY_TYPES, 'query_control');
  const form = emptyPolicyForm(type);
  const config = record(policy.config);
  Object.assign(form, {
    name: policy.name,
    description: policy.description,
    databases: policy.databases.join(', '),
    enabled: policy.enabled,
    shadow: policy.enforcement_mode === 'shadow',
  });
  const exceptions = record(config.exceptions);
  form.exceptUsers = list(exceptions.users).join(', ');
  if (type === 'query_control') {
    form.rules = (Array.isArray(config.rules) ? config.rules : []).map((raw) => {
      const rule = record(raw);
      return {
        name: text(rule.name),
        pattern: text(rule.pattern),
        action: oneOf(rule.action, ACTIONS, 'alert'),
        severity: oneOf(rule.severity, SEVERITIES, 'high'),
        message: text(rule.message),
        caseSensitive: rule.case_sensitive === true,
      };
    });
  }
  if (type === 'data_protection') {
    form.maskRules = (Array.isArray(config.rules) ? config.rules : []).map((raw) => {
      const rule = record(raw);
      return {
        name: text(rule.name),
        columns: list(rule.columns).join(', '),
        classifications: list(rule.classifications).join(', '),
        method: oneOf(rule.method, MASK_METHODS, 'redact'),
        showFirst: text(rule.show_first),
        showLast: text(rule.show_last),
      };
    });
  }
  if (type === 'access_control') {
    const conditions = record(config.conditions);
    form.users = list(conditions.users).join(', ');
    form.allowedIps = list(conditions.allowed_ips).join('\n');
    const window = conditions.time_window === undefined ? undefined : record(conditions.time_window);
    if (window) {
      Object.assign(form, { window: true, start: text(window.start), end: text(window.end), timezone: text(window.timezone) || 'UTC', days: list(window.days) });
    }
    form.actions = (Array.isArray(config.actions) ? config.actions : []).map((raw) => {
      const action = record(raw);
      return { type: oneOf(action.type, ACTIONS, 'alert'), severity: oneOf(action.severity, SEVERITIES, 'high') };
    });
  }
  if (type === 'alerting') {
    const conditions = record(config.conditions);
    const alert = record(config.alert);
    const threshold = conditions.threshold === undefined ? undefined : record(conditions.threshold);
    Object.assign(form, {
      eventTypes: list(conditions.event_types).join(', '),
      eventSeverities: list(conditions.severities),
      users: list(conditions.users).join(', '),
      alertSeverity: oneOf(alert.severity, SEVERITIES, 'high'),
      alertTitle: text(alert.title),
      alertMessage: text(alert.message),
      threshold: threshold !== undefined,
      count: threshold ? text(threshold.count) : form.count,
      windowMinutes: threshold ? text(threshold.window_minutes) : form.windowMinutes,
      groupBy: threshold ? list(threshold.group_by) : [],
    });
  }
  return form;
}

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

function wholeNumber(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return n >= min && n <= max ? n : undefined;
}

/**
 * The API body for the form, and the field errors found before sending it. `original` is the
 * policy's stored config when editing: members the form does not show (channels, field
 * conditions, data-protection actions) are kept as they were.
 */
export function policyFormToBody(form: PolicyForm, original?: unknown): { body: Json; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const previous = record(original);
  if (!form.name.trim()) errors.name = 'is required';
  const databases = splitList(form.databases);
  if (!databases.length) errors.databases = 'needs at least one database id, or * for every database';
  let config: Json;
  const exceptions = splitList(form.exceptUsers).length ? { ...record(previous.exceptions), users: splitList(form.exceptUsers) } : previous.exceptions === undefined ? undefined : { ...record(previous.exceptions), users: [] };
  const keptRules = Array.isArray(previous.rules) ? previous.rules.map(record) : [];
  if (form.type === 'query_control') {
    if (!form.rules.length) errors['config.rules'] = 'needs at least one rule';
    const rules = form.rules.map((rule, i) => {
      if (!rule.name.trim()) errors[`config.rules[${i}].name`] = 'is required';
      if (!rule.pattern) errors[`config.rules[${i}].pattern`] = 'is required';
      const kept = keptRules[i] ?? {};
      return {
        ...(kept.channels !== undefined ? { channels: kept.channels } : {}),
        name: rule.name.trim(),
        pattern: rule.pattern,
        action: rule.action,
        ...(rule.action === 'log' ? {} : { severity: rule.severity }),
        ...(rule.message.trim() ? { message: rule.message.trim() } : {}),
        ...(rule.caseSensitive ? { case_sensitive: true } : {}),
      };
    });
    config = { rules, ...(exceptions ? { exceptions } : {}) };
  } else if (form.type === 'data_protection') {
    if (!form.maskRules.length) errors['config.rules'] = 'needs at least one rule';
    const rules = form.maskRules.map((rule, i) => {
      if (!rule.name.trim()) errors[`config.rules[${i}].name`] = 'is required';
      const columns = splitList(rule.columns);
      const classifications = splitList(rule.classifications);
      if (!columns.length && !classifications.length) errors[`config.rules[${i}].columns`] = 'name columns or classifications to mask';
      const out: Json = { name: rule.name.trim(), method: rule.method };
      if (columns.length) out.columns = columns;
      if (classifications.length) out.classifications = classifications;
      if (rule.method === 'partial') {
        for (const [key, value] of [
          ['show_first', rule.showFirst],
          ['show_last', rule.showLast],
        ] as const) {
          if (!value.trim()) continue;
          const n = wholeNumber(value, 0, 64);
          if (n === undefined) errors[`config.rules[${i}].${key}`] = 'must be a whole number from 0 to 64';
          else out[key] = n;
        }
      }
      return out;
    });
    config = { ...(previous.actions !== undefined ? { actions: previous.actions } : {}), rules, ...(exceptions ? { exceptions } : {}) };
  } else if (form.type === 'access_control') {
    const conditions: Json = {};
    const users = splitList(form.users);
    if (users.length) conditions.users = users;
    const ips = splitList(form.allowedIps);
    ips.forEach((ip, i) => {
      const error = cidrError(ip);
      if (error) errors[`config.conditions.allowed_ips[${i}]`] = `"${ip}" ${error}`;
    });
    if (ips.length) conditions.allowed_ips = ips;
    if (form.window) {
      if (!HH_MM.test(form.start)) errors['config.conditions.time_window.start'] = 'must be a time of day HH:MM';
      if (!HH_MM.test(form.end)) errors['config.conditions.time_window.end'] = 'must be a time of day HH:MM';
      if (!isTimeZone(form.timezone)) errors['config.conditions.time_window.timezone'] = `"${form.timezone}" is not an IANA time zone`;
      conditions.time_window = { start: form.start, end: form.end, timezone: form.timezone, ...(form.days.length ? { days: WEEKDAYS.filter((d) => form.days.includes(d)) } : {}) };
    }
    if (!ips.length && !form.window) errors['config.conditions'] = 'needs allowed addresses, a time window, or both';
    if (!form.actions.length) errors['config.actions'] = 'needs at least one action';
    const keptActions = Array.isArray(previous.actions) ? previous.actions.map(record) : [];
    config = {
      conditions,
      actions: form.actions.map((action, i) => ({
        ...(keptActions[i]?.channels !== undefined ? { channels: keptActions[i]?.channels } : {}),
        type: action.type,
        ...(action.type === 'log' ? {} : { severity: action.severity }),
      })),
    };
  } else {
    const previousConditions = record(previous.conditions);
    const conditions: Json = previousConditions.fields !== undefined ? { fields: previousConditions.fields } : {};
    const types = splitList(form.eventTypes);
    if (types.length) conditions.event_types = types;
    if (form.eventSeverities.length) conditions.severities = EVENT_SEVERITY_NAMES.filter((s) => form.eventSeverities.includes(s));
    const users = splitList(form.users);
    if (users.length) conditions.users = users;
    if (form.threshold) {
      const count = wholeNumber(form.count, 1, 1_000_000);
      const minutes = wholeNumber(form.windowMinutes, 1, 10_080);
      if (count === undefined) errors['config.conditions.threshold.count'] = 'must be a whole number from 1 to 1000000';
      if (minutes === undefined) errors['config.conditions.threshold.window_minutes'] = 'must be a whole number of minutes from 1 to 10080';
      conditions.threshold = { count: count ?? 0, window_minutes: minutes ?? 0, ...(form.groupBy.length ? { group_by: GROUP_BY.filter((g) => form.groupBy.includes(g)) } : {}) };
    }
    const previousAlert = record(previous.alert);
    config = {
      conditions,
      alert: {
        ...previousAlert,
        severity: form.alertSeverity,
        ...(form.alertTitle.trim() ? { title: form.alertTitle.trim() } : { title: undefined }),
        ...(form.alertMessage.trim() ? { message: form.alertMessage.trim() } : { message: undefined }),
      },
    };
    config.alert = JSON.parse(JSON.stringify(config.alert)) as Json;
  }
  return {
    body: { name: form.name.trim(), description: form.description.trim(), type: form.type, databases, enabled: form.enabled, enforcement_mode: form.shadow ? 'shadow' : 'enforce', config },
    errors,
  };
}

/** The error of a field, including errors about its items or members (`allowed_ips[2]`). */
export function errorFor(errors: FieldErrors, field: string): string | undefined {
  if (errors[field]) return errors[field];
  const nested = Object.keys(errors).filter((key) => key.startsWith(`${field}[`) || key.startsWith(`${field}.`));
  return nested.length ? nested.map((key) => `${key.slice(field.length).replace(/^\./, '')} ${errors[key]}`).join('; ') : undefined;
}

/** Field errors of a problem document (`errors[]`), keyed by field. */
export function problemFieldErrors(problem: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const items = typeof problem === 'object' && problem !== null ? (problem as { errors?: unknown }).errors : undefined;
  if (Array.isArray(items)) {
    for (const item of items) {
      const { field, message } = record(item);
      if (typeof field === 'string' && typeof message === 'string') errors[field] = errors[field] ? `${errors[field]}; ${message}` : message;
    }
  }
  return errors;
}
