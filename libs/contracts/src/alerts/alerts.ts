import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';
import { AlertRequestTypes, AlertSeverities } from '../events/alert-request';

/**
 * Alerts and alert destinations between the gateway and the delivery service (docs/alerts.md),
 * and the alert lifecycle events on `alert.events.v1`.
 */
export type AlertSeverity = (typeof AlertSeverities)[number];
export type AlertType = (typeof AlertRequestTypes)[number];
export const AlertStatuses = ['open', 'acknowledged', 'resolved'] as const;
export type AlertStatus = (typeof AlertStatuses)[number];

/** Lowest first: escalation moves an alert to a later entry. */
export const AlertSeverityOrder: readonly AlertSeverity[] = ['info', 'low', 'medium', 'high', 'critical'];

export const AlertLifecycleTypes = ['alert.created', 'alert.resolved', 'alert.escalated'] as const;
export type AlertLifecycleType = (typeof AlertLifecycleTypes)[number];

/** The alert record of the API. */
export interface AlertResponse {
  id: string;
  type: AlertType;
  severity: AlertSeverity;
  status: AlertStatus;
  title: string;
  description: string;
  database_id: string;
  policy_id: string | null;
  policy_name: string | null;
  event_ids: string[];
  /** How many times the condition was seen within the de-duplication window (1 = once). */
  occurrences: number;
  first_seen_at: string;
  last_seen_at: string;
  acknowledged_at: string | null;
  resolved_at: string | null;
  escalated_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Data of an `alert.created|resolved|escalated` envelope: the form B alert fields plus the alert state. */
export const AlertLifecycleSchema = Type.Object({
  alert_id: Type.String({ pattern: '^alt_' }),
  type: Type.Union(AlertRequestTypes.map((t) => Type.Literal(t))),
  severity: Type.Union(AlertSeverities.map((s) => Type.Literal(s))),
  previous_severity: Type.Optional(Type.Union(AlertSeverities.map((s) => Type.Literal(s)))),
  status: Type.Union(AlertStatuses.map((s) => Type.Literal(s))),
  title: Type.String(),
  message: Type.String(),
  database_id: Type.String(),
  policy_id: Type.Union([Type.String(), Type.Null()]),
  query: Type.Union([Type.String(), Type.Null()]),
  user: Type.Union([Type.String(), Type.Null()]),
  source_ip: Type.Union([Type.String(), Type.Null()]),
  event_ids: Type.Array(Type.String()),
  occurred_at: Type.String({ format: 'date-time' }),
});
export type AlertLifecycle = Static<typeof AlertLifecycleSchema>;
export const alertLifecycleValidator = createEnvelopeValidator(AlertLifecycleSchema);

export interface AlertListRequest {
  start_date?: string;
  end_date?: string;
  severity?: string[];
  status?: string[];
  type?: string[];
  database_id?: string;
  page: number;
  per_page: number;
}

/** `GET /v1/alerts/counts`: the list's filters, no paging. */
export type AlertCountsRequest = Omit<AlertListRequest, 'page' | 'per_page'>;

/** How many alerts match, in all and by severity and by status (every severity and status, zeros included). */
export interface AlertCounts {
  total: number;
  by_severity: Record<AlertSeverity, number>;
  by_status: Record<AlertStatus, number>;
}

export interface AlertPage<T> {
  data: T[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

/**
 * What a compliance report needs about alerts (event-ingest -> delivery, `delivery.alerts.report`):
 * alerts whose condition was first seen in [period_start, period_end), on the databases named
 * (empty: every database).
 */
export interface AlertReportRequest {
  period_start: string;
  period_end: string;
  databases: string[];
  /** How many of the most severe alerts to list (1–1000). */
  limit: number;
}

/** One alert of a report's list: most severe first, then newest first. */
export interface AlertReportItem {
  id: string;
  type: string;
  severity: string;
  status: string;
  title: string;
  database_id: string;
  policy_id: string | null;
  occurrences: number;
  first_seen_at: string;
  created_at: string;
  acknowledged_at: string | null;
  resolved_at: string | null;
  escalated_at: string | null;
}

export interface AlertReport {
  total: number;
  /** Every severity, status and type, 0 when none. */
  by_severity: Record<string, number>;
  by_status: Record<string, number>;
  by_type: Record<string, number>;
  databases: number;
  /** Times conditions were seen, de-duplicated into these alerts. */
  occurrences: number;
  escalated: number;
  /** Alerts with an acknowledgement time, and from creation to it (seconds; null when none). */
  acknowledged: number;
  seconds_to_acknowledge_mean: number | null;
  seconds_to_acknowledge_max: number | null;
  resolved: number;
  seconds_to_resolve_mean: number | null;
  seconds_to_resolve_max: number | null;
  /** The most severe alerts, up to the limit asked for; `truncated` when there are more. */
  alerts: AlertReportItem[];
  truncated: boolean;
}

export interface AlertIdRequest {
  id: string;
}

export interface EscalateAlertRequest {
  id: string;
  /** Target severity; default the next one up. */
  severity?: string;
}

/** Every setting of an alert destination; secrets are write-only. */
export interface AlertDestinationSettings {
  name: string;
  provider: string;
  enabled: boolean;
  url: string;
  method: string;
  auth_type: string;
  auth_username: string | null;
  api_key_header: string;
  hmac_header: string;
  hmac_algorithm: string;
  content_type: string;
  custom_headers: Record<string, string>;
  payload_format: string;
  payload_template: string | null;
  include_raw_event: boolean;
  severity_filter: string[];
  alert_types: string[];
  database_filter: string[];
  rate_limit: number;
  timeout_seconds: number;
  retry_attempts: number;
  retry_delay_seconds: number;
  success_codes: number[];
}

export const AlertDestinationSecretFields = ['auth_password', 'auth_token', 'api_key_value', 'hmac_secret'] as const;
export type AlertDestinationSecretField = (typeof AlertDestinationSecretFields)[number];

/**
 * Create or update body as the gateway passes it on (shape checked there, meaning checked by
 * delivery). `null` resets a setting to its default or clears a secret.
 */
export type AlertDestinationInput = { [K in keyof AlertDestinationSettings]?: AlertDestinationSettings[K] | null } & Partial<Record<AlertDestinationSecretField, string | null>>;

export interface UpdateAlertDestinationRequest {
  id: string;
  changes: AlertDestinationInput;
}

export interface AlertDestinationResponse extends AlertDestinationSettings {
  id: string;
  /** Which secret fields hold a value (the values themselves are never returned). */
  secrets_set: AlertDestinationSecretField[];
  created_at: string;
  updated_at: string;
}

export interface DestinationDeliveriesRequest {
  id: string;
  page: number;
  per_page: number;
  status?: string;
}

export const AlertDeliveryStatuses = ['pending', 'in_flight', 'succeeded', 'failed'] as const;
export type AlertDeliveryStatus = (typeof AlertDeliveryStatuses)[number];

export interface AlertDeliveryAttemptResponse {
  attempt: number;
  started_at: string;
  status_code: number | null;
  latency_ms: number;
  success: boolean;
  error: string | null;
}

export interface AlertDeliveryResponse {
  id: string;
  destination_id: string;
  alert_id: string;
  severity: AlertSeverity;
  test: boolean;
  status: AlertDeliveryStatus;
  attempt_count: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: AlertDeliveryAttemptResponse[];
}

export interface TestAlertRequest {
  destination_id: string;
}

/** POST /v1/alerts/test: the outcome of the test alert's delivery, all attempts included. */
export interface TestAlertResponse {
  destination_id: string;
  delivery_id: string;
  alert_id: string;
  success: boolean;
  /** Status of the last attempt (null when no answer arrived). */
  status_code: number | null;
  /** Whole delivery, first attempt to last answer, in ms. */
  duration_ms: number;
  error: string | null;
  attempts: AlertDeliveryAttemptResponse[];
}
