import { createHmac } from 'node:crypto';
import type { WebhookForm } from '@vigil/contracts';
import { standardWebhookHeaders } from '../signing/standard-webhooks';

/** An event as webhooks see it, whatever bus message it came from. */
export interface WebhookEvent {
  /** The event id: the same in every attempt and every subscription. */
  id: string;
  /** A type of one of the two catalogs. */
  type: string;
  occurred_at: string;
  data: Record<string, unknown>;
  test?: boolean;
}

/** Form A body: `{id, type, created, data}`; Form B: `{id, type, created_at, data}`; tests add `test: true`. */
export function webhookBody(form: WebhookForm, event: WebhookEvent): string {
  const stamp = form === 'A' ? { created: event.occurred_at } : { created_at: event.occurred_at };
  return JSON.stringify({ id: event.id, type: event.type, ...stamp, data: event.data, ...(event.test ? { test: true } : {}) });
}

export function hmacSha256Hex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/**
 * The headers of one attempt. Form A signs `<timestamp>.<raw body>`, form B the raw body alone;
 * both send `sha256=<hex>`. Both forms also carry the Standard Webhooks headers (`webhook-id` =
 * the delivery id, the same on every attempt of this event to this subscription; the timestamp of
 * this attempt, which the form B X-Service signature does not cover, so only these headers let a
 * receiver refuse a replayed capture). The body passed here is the exact string sent.
 */
export function signedHeaders(
  form: WebhookForm,
  secret: string,
  body: string,
  meta: { eventType: string; deliveryId: string; deliveryAttemptId: string; timestamp: number },
): Record<string, string> {
  const timestamp = String(meta.timestamp);
  const signed = form === 'A' ? `${timestamp}.${body}` : body;
  return {
    'content-type': 'application/json',
    'user-agent': 'Vigil-Webhooks/1',
    'x-service-signature': `sha256=${hmacSha256Hex(secret, signed)}`,
    'x-service-timestamp': timestamp,
    'x-service-event': meta.eventType,
    'x-service-delivery-id': meta.deliveryAttemptId,
    ...standardWebhookHeaders([secret], meta.deliveryId, meta.timestamp, body),
  };
}
