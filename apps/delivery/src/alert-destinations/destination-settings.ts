import {
  type AlertDestinationInput,
  type AlertDestinationSecretField,
  AlertDestinationSecretFields,
  type AlertDestinationSettings,
  AlertRequestTypes,
  AlertSeverities,
  type FieldError,
} from '@vigil/contracts';
import { STANDARD_WEBHOOK_HEADERS } from '../signing/standard-webhooks';

/** The choices, defaults and bounds of every destination setting (docs/alerts.md). */
export const DestinationRules = {
  providers: ['webhook'],
  methods: ['POST', 'PUT', 'PATCH'],
  authTypes: ['none', 'basic', 'bearer', 'api_key', 'hmac'],
  hmacAlgorithms: ['sha256', 'sha384', 'sha512'],
  contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
  payloadFormats: ['default', 'custom'],
  rateLimit: { min: 1, max: 100 },
  timeoutSeconds: { min: 5, max: 120 },
  retryAttempts: { min: 0, max: 10 },
  retryDelaySeconds: { min: 0, max: 3600 },
  successCode: { min: 100, max: 599 },
  maxSuccessCodes: 50,
  maxCustomHeaders: 50,
  maxHeaderValueLength: 4096,
  maxTemplateLength: 65_536,
  maxNameLength: 200,
  maxUrlLength: 2048,
  maxSecretLength: 4096,
  maxDatabaseFilter: 1000,
} as const;

export const DESTINATION_DEFAULTS: Omit<AlertDestinationSettings, 'name' | 'url'> = {
  provider: 'webhook',
  enabled: true,
  method: 'POST',
  auth_type: 'none',
  auth_username: null,
  api_key_header: 'X-API-Key',
  hmac_header: 'X-Signature',
  hmac_algorithm: 'sha256',
  content_type: 'application/json',
  custom_headers: {},
  payload_format: 'default',
  payload_template: null,
  include_raw_event: false,
  severity_filter: [...AlertSeverities],
  alert_types: [...AlertRequestTypes],
  database_filter: [],
  rate_limit: 60,
  timeout_seconds: 30,
  retry_attempts: 3,
  retry_delay_seconds: 5,
  success_codes: [200, 201, 202, 204],
};

/** RFC 9110 token: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Header values: visible characters, spaces and tabs; no CR, LF or NUL (no injected header lines). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\uffff]*$/;

/** Headers Vigil sets itself; a custom header may not replace them (authentication, framing). */
const RESERVED_HEADERS = new Set(['authorization', 'proxy-authorization', 'content-type', 'content-length', 'host', 'transfer-encoding', 'connection', 'te', 'upgrade', 'trailer', 'keep-alive', 'expect', 'cookie']);

/** The secret each authentication type needs. */
const SECRET_OF_AUTH_TYPE: Record<string, AlertDestinationSecretField[]> = { basic: ['auth_password'], bearer: ['auth_token'], api_key: ['api_key_value'], hmac: ['hmac_secret'] };

export type DestinationSecrets = Partial<Record<AlertDestinationSecretField, string>>;

export interface MergedDestination {
  settings: AlertDestinationSettings;
  secrets: DestinationSecrets;
}

function pick<K extends keyof AlertDestinationSettings>(input: AlertDestinationInput, base: Partial<AlertDestinationSettings>, key: K, fallback: AlertDestinationSettings[K]): AlertDestinationSettings[K] {
  const value = (input as Record<string, unknown>)[key];
  if (value !== undefined && value !== null) return value as AlertDestinationSettings[K];
  if (value === null) return fallback;
  return (base[key] as AlertDestinationSettings[K] | undefined) ?? fallback;
}

/**
 * Applies a create or update body to the current settings (none on create): fields given replace,
 * fields omitted stay (or take their default), `null` resets a field to its default. Secrets
 * omitted keep their value; `null` clears one. A change of `url` drops every stored secret (and an
 * authentication left without its secret falls back to `none`): the destination must be given its
 * credentials again in the same request.
 */
export function mergeDestination(input: AlertDestinationInput, current?: MergedDestination): MergedDestination {
  const base: Partial<AlertDestinationSettings> = current?.settings ?? {};
  const d = DESTINATION_DEFAULTS;
  const settings: AlertDestinationSettings = {
    name: pick(input, base, 'name', ''),
    provider: pick(input, base, 'provider', d.provider),
    enabled: pick(input, base, 'enabled', d.enabled),
    url: pick(input, base, 'url', ''),
    method: pick(input, base, 'method', d.method),
    auth_type: pick(input, base, 'auth_type', d.auth_type),
    auth_username: pick(input, base, 'auth_username', d.auth_username),
    api_key_header: pick(input, base, 'api_key_header', d.api_key_header),
    hmac_header: pick(input, base, 'hmac_header', d.hmac_header),
    hmac_algorithm: pick(input, base, 'hmac_algorithm', d.hmac_algorithm),
    content_type: pick(input, base, 'content_type', d.content_type),
    custom_headers: pick(input, base, 'custom_headers', d.custom_headers),
    payload_format: pick(input, base, 'payload_format', d.payload_format),
    payload_template: pick(input, base, 'payload_template', d.payload_template),
    include_raw_event: pick(input, base, 'include_raw_event', d.include_raw_event),
    severity_filter: pick(input, base, 'severity_filter', d.severity_filter),
    alert_types: pick(input, base, 'alert_types', d.alert_types),
    database_filter: pick(input, base, 'database_filter', d.database_filter),
    rate_limit: pick(input, base, 'rate_limit', d.rate_limit),
    timeout_seconds: pick(input, base, 'timeout_seconds', d.timeout_seconds),
    retry_attempts: pick(input, base, 'retry_attempts', d.retry_attempts),
    retry_delay_seconds: pick(input, base, 'retry_delay_seconds', d.retry_delay_seconds),
    success_codes: pick(input, base, 'success_codes', d.success_codes),
  };
  // An empty multiselect means "all" (the default), stored as the full list so filters read plainly.
  if (!settings.severity_filter.length) settings.severity_filter = [...d.severity_filter];
  if (!settings.alert_types.length) settings.alert_types = [...d.alert_types];
  settings.severity_filter = [...new Set(settings.severity_filter)];
  settings.alert_types = [...new Set(settings.alert_types)];
  settings.database_filter = [...new Set(settings.database_filter)];
  settings.success_codes = [...new Set(settings.success_codes)];
  // A new url drops every stored secret: they were given for the old host and are never sent to
  // another one. Only secrets supplied in the same request are kept.
  const urlChanged = current !== undefined && settings.url !== current.settings.url;
  const secrets: DestinationSecrets = urlChanged ? {} : { ...(current?.secrets ?? {}) };
  for (const field of AlertDestinationSecretFields) {
    const value = input[field];
    if (value === null) delete secrets[field];
    else if (value !== undefined) secrets[field] = value;
  }
  // Without its secret the stored authentication cannot be used: it falls back to none (unless the
  // request names an auth_type itself, which must then come with its secret).
  if (urlChanged && (input.auth_type === undefined || input.auth_type === null) && (SECRET_OF_AUTH_TYPE[settings.auth_type] ?? []).some((f) => !secrets[f])) {
    settings.auth_type = 'none';
  }
  return { settings, secrets };
}

function oneOf(errors: FieldError[], field: string, value: string, allowed: readonly string[]) {
  if (!allowed.includes(value)) errors.push({ field, message: `must be one of ${allowed.join(', ')}` });
}

function bounded(errors: FieldError[], field: string, value: number, bounds: { min: number; max: number }) {
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    errors.push({ field, message: `must be a whole number from ${bounds.min} to ${bounds.max}` });
  }
}

/**
 * Every rule of a destination that the body's shape does not already say (choices, bounds, what an
 * auth type needs, header safety). Returns 422 field errors; empty = valid. The URL's reachability
 * and the template are checked by the service (they need the egress client and the renderer).
 */
export function validateDestination({ settings: s, secrets }: MergedDestination): FieldError[] {
  const errors: FieldError[] = [];
  const r = DestinationRules;
  if (!s.name.trim()) errors.push({ field: 'name', message: 'is required' });
  else if (s.name.length > r.maxNameLength) errors.push({ field: 'name', message: `must be at most ${r.maxNameLength} characters` });
  oneOf(errors, 'provider', s.provider, r.providers);
  if (!s.url) errors.push({ field: 'url', message: 'is required' });
  else if (s.url.length > r.maxUrlLength) errors.push({ field: 'url', message: `must be at most ${r.maxUrlLength} characters` });
  oneOf(errors, 'method', s.method, r.methods);
  oneOf(errors, 'auth_type', s.auth_type, r.authTypes);
  oneOf(errors, 'hmac_algorithm', s.hmac_algorithm, r.hmacAlgorithms);
  oneOf(errors, 'content_type', s.content_type, r.contentTypes);
  oneOf(errors, 'payload_format', s.payload_format, r.payloadFormats);
  for (const field of ['api_key_header', 'hmac_header'] as const) {
    if (!HEADER_NAME.test(s[field])) errors.push({ field, message: 'must be a valid HTTP header name' });
    else if (RESERVED_HEADERS.has(s[field].toLowerCase())) errors.push({ field, message: `may not be ${s[field]} (a header Vigil sets itself)` });
  }
  for (const field of SECRET_OF_AUTH_TYPE[s.auth_type] ?? []) {
    if (!secrets[field]) errors.push({ field, message: `is required with auth_type ${s.auth_type}` });
  }
  if (s.auth_type === 'basic') {
    if (!s.auth_username) errors.push({ field: 'auth_username', message: 'is required with auth_type basic' });
    else if (s.auth_username.includes(':')) errors.push({ field: 'auth_username', message: 'may not contain ":" (Basic authentication separates user and password with it)' });
  }
  for (const field of AlertDestinationSecretFields) {
    const value = secrets[field];
    if (value !== undefined && value.length > r.maxSecretLength) errors.push({ field, message: `must be at most ${r.maxSecretLength} characters` });
    if (value !== undefined && field !== 'hmac_secret' && !HEADER_VALUE.test(value)) errors.push({ field, message: 'may not contain control characters (it is sent in a header)' });
  }
  const headers = Object.entries(s.custom_headers);
  if (headers.length > r.maxCustomHeaders) errors.push({ field: 'custom_headers', message: `at most ${r.maxCustomHeaders} headers` });
  const authHeaders = new Set<string>();
  if (s.auth_type === 'api_key') authHeaders.add(s.api_key_header.toLowerCase());
  if (s.auth_type === 'hmac') {
    authHeaders.add(s.hmac_header.toLowerCase());
    // Sent with every hmac request (Standard Webhooks): neither the hmac header nor a custom one may take their names.
    for (const name of STANDARD_WEBHOOK_HEADERS) authHeaders.add(name);
    if ((STANDARD_WEBHOOK_HEADERS as readonly string[]).includes(s.hmac_header.toLowerCase())) {
      errors.push({ field: 'hmac_header', message: `may not be ${s.hmac_header} (a Standard Webhooks header Vigil sets itself with auth_type hmac)` });
    }
  }
  for (const [name, value] of headers) {
    const field = `custom_headers.${name}`;
    if (!HEADER_NAME.test(name)) errors.push({ field, message: 'is not a valid HTTP header name' });
    else if (RESERVED_HEADERS.has(name.toLowerCase()) || authHeaders.has(name.toLowerCase())) {
      errors.push({ field, message: 'may not replace a header Vigil sets (authentication, content type, framing)' });
    }
    if (typeof value !== 'string') errors.push({ field, message: 'must be a string' });
    else if (!HEADER_VALUE.test(value)) errors.push({ field, message: 'may not contain CR, LF or other control characters' });
    else if (value.length > r.maxHeaderValueLength) errors.push({ field, message: `must be at most ${r.maxHeaderValueLength} characters` });
  }
  if (s.payload_format === 'custom' && !s.payload_template) errors.push({ field: 'payload_template', message: 'is required with payload_format custom' });
  if (s.payload_template && s.payload_template.length > r.maxTemplateLength) errors.push({ field: 'payload_template', message: `must be at most ${r.maxTemplateLength} characters` });
  s.severity_filter.forEach((v, i) => oneOf(errors, `severity_filter[${i}]`, v, AlertSeverities));
  s.alert_types.forEach((v, i) => oneOf(errors, `alert_types[${i}]`, v, AlertRequestTypes));
  if (s.database_filter.length > r.maxDatabaseFilter) errors.push({ field: 'database_filter', message: `at most ${r.maxDatabaseFilter} databases` });
  s.database_filter.forEach((v, i) => {
    if (!v) errors.push({ field: `database_filter[${i}]`, message: 'must not be empty' });
  });
  bounded(errors, 'rate_limit', s.rate_limit, r.rateLimit);
  bounded(errors, 'timeout_seconds', s.timeout_seconds, r.timeoutSeconds);
  bounded(errors, 'retry_attempts', s.retry_attempts, r.retryAttempts);
  bounded(errors, 'retry_delay_seconds', s.retry_delay_seconds, r.retryDelaySeconds);
  if (!s.success_codes.length) errors.push({ field: 'success_codes', message: 'must name at least one status' });
  if (s.success_codes.length > r.maxSuccessCodes) errors.push({ field: 'success_codes', message: `at most ${r.maxSuccessCodes} statuses` });
  s.success_codes.forEach((code, i) => bounded(errors, `success_codes[${i}]`, code, r.successCode));
  return errors;
}

/** Whether a destination takes an alert (severity_filter, alert_types, database_filter; plus policy channels). */
export function destinationAccepts(
  destination: { name: string; settings: AlertDestinationSettings },
  alert: { severity: string; type: string; database_id: string; channels: string[] },
): boolean {
  const s = destination.settings;
  if (!s.enabled) return false;
  if (!s.severity_filter.includes(alert.severity)) return false;
  if (!s.alert_types.includes(alert.type)) return false;
  if (s.database_filter.length && !s.database_filter.includes(alert.database_id)) return false;
  if (alert.channels.length && !alert.channels.includes(destination.name)) return false;
  return true;
}
