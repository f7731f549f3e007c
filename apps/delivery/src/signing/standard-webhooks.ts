import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks symmetric signatures (v1, HMAC-SHA256), sent beside Vigil's own
 * X-Service-* headers so receivers can verify with the official `standardwebhooks` libraries.
 *
 * The key is the UTF-8 bytes of the subscription's secret exactly as the user holds it (form A:
 * the secret they chose; form B: the whole generated string, `whsec_` prefix included), the same
 * bytes that key the X-Service-Signature HMAC. A secret is never base64-decoded: form A secrets are
 * arbitrary text and form B secrets are base64url, which the libraries' default (standard base64)
 * decoding would reject or, in Python, silently mangle. Receivers therefore construct the verifier
 * from raw bytes, or from `whsec_` + base64(UTF-8 bytes of the secret), which decodes to the same
 * key (see docs/webhooks.md).
 */

export const STANDARD_WEBHOOK_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** The HMAC key a secret stands for: its UTF-8 bytes. */
export function standardWebhookKey(secret: string): Buffer {
  return Buffer.from(secret, 'utf8');
}

/** The `whsec_` form of a secret, accepted by the libraries' default constructors; decodes to the same key. */
export function standardWebhookSecret(secret: string): string {
  return `whsec_${standardWebhookKey(secret).toString('base64')}`;
}

/**
 * `webhook-signature`: `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` per key,
 * space-separated, so a secret being rotated can be signed with old and new key at once.
 */
export function standardWebhookSignature(keys: readonly Uint8Array[], messageId: string, timestamp: number, body: string): string {
  if (!keys.length) throw new Error('at least one signing key is needed');
  if (!Number.isSafeInteger(timestamp)) throw new Error('the timestamp must be integer seconds');
  const signed = `${messageId}.${timestamp}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(signed, 'utf8').digest('base64')}`).join(' ');
}

/**
 * The three headers of one attempt. `messageId` stays the same across attempts of one message
 * (receivers de-duplicate on it); `timestamp` is the attempt's send time in Unix seconds.
 */
export function standardWebhookHeaders(secrets: readonly string[], messageId: string, timestamp: number, body: string): Record<(typeof STANDARD_WEBHOOK_HEADERS)[number], string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardWebhookSignature(secrets.map(standardWebhookKey), messageId, timestamp, body),
  };
}
