import { AuditEventCatalog, WebhookEventCatalog } from '../events/catalog';

/**
 * Webhook subscriptions between the gateway and the delivery service (docs/webhooks.md).
 * Form A: the client chose the secret; deliveries sign `<timestamp>.<raw body>` and carry
 * `{id, type, created, data}`. Form B: the service generated the secret; deliveries sign the raw
 * body and carry `{id, type, created_at, data}` plus the X-Service-Event / -Delivery-ID headers.
 */
export type WebhookForm = 'A' | 'B';

/** `active` and `inactive` follow the `active` flag; `failing` marks an endpoint held after repeated failure. */
export type WebhookStatus = 'active' | 'inactive' | 'failing';

/** Every type a subscription may name: the events API catalog and the webhook catalog. */
export const SubscribableEventTypes: readonly string[] = [
  ...new Set([...Object.keys(AuditEventCatalog), ...Object.keys(WebhookEventCatalog)]),
].sort();

/** `*` matches every type; `prefix.*` every type starting with `prefix.`; anything else matches itself. */
export function matchesEventPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** A pattern is valid when it is `*`, a catalog type, or `prefix.*` matching at least one catalog type. */
export function isValidEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -2);
    if (!/^[a-z_]+(\.[a-z_]+)*$/.test(prefix)) return false;
    return SubscribableEventTypes.some((t) => matchesEventPattern(pattern, t));
  }
  return SubscribableEventTypes.includes(pattern);
}

/** Event families that carry audit log content (queries, users, data access, Vigil's own audit trail). */
export const AuditLogEventFamilies: readonly string[] = ['database', 'user', 'data', 'vigil'];

/**
 * Whether subscribing to `pattern` hands out audit log content, so needs `read:logs` besides
 * `write:alerts`: `*`, a pattern or a type of an audit log family (`database.*`, `user.login_failed`).
 */
export function patternNeedsLogScope(pattern: string): boolean {
  if (pattern === '*') return true;
  const [family = ''] = pattern.split('.');
  return AuditLogEventFamilies.includes(family);
}

export const WebhookLimits = {
  maxEvents: 50,
  maxUrlLength: 2048,
  maxDescriptionLength: 1000,
  minSecretLength: 16,
  maxSecretLength: 256,
} as const;

export type DeliveryStatus = 'pending' | 'in_flight' | 'succeeded' | 'failed' | 'held';
export const DeliveryStatuses: readonly DeliveryStatus[] = ['pending', 'in_flight', 'succeeded', 'failed', 'held'];

export interface CreateWebhookRequest {
  url: string;
  events: string[];
  /** Present: form A (client secret). Absent: form B (generated secret). */
  secret?: string;
  description?: string;
  active?: boolean;
}

export interface UpdateWebhookRequest {
  id: string;
  url?: string;
  events?: string[];
  description?: string;
  active?: boolean;
}

export interface WebhookResponse {
  id: string;
  url: string;
  events: string[];
  form: WebhookForm;
  description: string;
  active: boolean;
  status: WebhookStatus;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

/** Form A answer: id, url, events, status, created_at. */
export interface CreatedWebhookFormA {
  id: string;
  url: string;
  events: string[];
  status: WebhookStatus;
  created_at: string;
}

/** Form B answer: the generated secret appears here and nowhere else. */
export interface CreatedWebhookFormB {
  id: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  secret: string;
  created_at: string;
}

export interface WebhookPageRequest {
  page: number;
  per_page: number;
}

export interface WebhookPage<T> {
  data: T[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

export interface WebhookIdRequest {
  id: string;
}

export interface TestWebhookRequest {
  id: string;
  event_type: string;
}

export interface ListDeliveriesRequest extends WebhookPageRequest {
  id: string;
  status?: DeliveryStatus;
}

export interface DeliveryIdRequest {
  id: string;
  delivery_id: string;
}

export interface RedeliverRequest {
  id: string;
  /** Which deliveries to send again; default failed only. */
  statuses?: ('failed' | 'held' | 'succeeded')[];
  since?: string;
  until?: string;
}

export interface DeliveryAttemptResponse {
  /** The X-Service-Delivery-ID of this attempt. */
  delivery_attempt_id: string;
  attempt: number;
  started_at: string;
  status_code: number | null;
  latency_ms: number;
  success: boolean;
  error: string | null;
}

export interface DeliveryResponse {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  test: boolean;
  status: DeliveryStatus;
  attempt_count: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: DeliveryAttemptResponse[];
}

export interface TestDeliveryResponse {
  delivery_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
}
