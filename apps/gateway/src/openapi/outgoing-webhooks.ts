type Json = Record<string, unknown>;

const header = (name: string, description: string, example: string): Json => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example });

/** The Standard Webhooks headers every webhook delivery (and every alert destination request with auth_type hmac) carries. */
const standardWebhookHeaders = (idDescription: string, keyDescription: string): Json[] => [
  header('webhook-id', `Standard Webhooks message id: ${idDescription}. The same on every attempt of the message; de-duplicate on it.`, 'whd_01JDZ4M6W8Q5N2R7T3V9X1Y0AB'),
  header('webhook-timestamp', 'Standard Webhooks timestamp: Unix seconds at which this attempt was sent (new on every attempt).', '1767225600'),
  header(
    'webhook-signature',
    'Standard Webhooks signature: `v1,` then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by ' +
      `${keyDescription}; a space-separated list when several keys sign. The official \`standardwebhooks\` libraries verify it ` +
      '(built from the raw UTF-8 bytes of the secret, or from `whsec_` + base64 of those bytes) and refuse a timestamp more than 5 minutes away from their clock.',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

const xService = (signatureDescription: string): Json[] => [
  header('X-Service-Signature', signatureDescription, 'sha256=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd'),
  header('X-Service-Timestamp', 'Unix seconds at which this attempt was sent.', '1767225600'),
  header('X-Service-Event', 'The event type.', 'security.threat_detected'),
  header('X-Service-Delivery-ID', 'Unique id of this delivery attempt (new on every attempt).', 'wha_01JDZ4M7A2B3C4D5E6F7G8H9J0'),
];

const event = (timeField: 'created' | 'created_at'): Json => ({
  type: 'object',
  required: ['id', 'type', timeField, 'data'],
  properties: {
    id: { type: 'string', description: 'The event id, the same on every attempt.' },
    type: { type: 'string' },
    [timeField]: { type: 'string', format: 'date-time' },
    data: { type: 'object', additionalProperties: true },
    test: { type: 'boolean', const: true, description: 'Present on test deliveries only.' },
  },
});

const answered = { '2XX': { description: 'Delivered. Any other answer, or none within 30 seconds, is retried on the schedule.' } };
const WEBHOOK_KEY = 'the UTF-8 bytes of the subscription secret exactly as held (form B: the whole `whsec_…` string, not base64-decoded)';

/**
 * The requests Vigil sends (OpenAPI 3.1 `webhooks`): deliveries to webhook subscriptions in both
 * forms and requests to alert destinations, with the headers a receiver verifies.
 */
export const OUTGOING_WEBHOOKS: Json = {
  webhookDeliveryFormA: {
    post: {
      summary: 'Delivery to a form A subscription (created with `secret`)',
      description: 'X-Service-Signature covers `<X-Service-Timestamp>.<raw body>`. Verify one of the two schemes, in constant time, before processing.',
      parameters: [...xService('`sha256=` then the hex HMAC-SHA256, keyed by the secret, of `<X-Service-Timestamp>.<raw body>`.'), ...standardWebhookHeaders('the delivery id (`whd_…`) of this event to this subscription', WEBHOOK_KEY)],
      requestBody: { required: true, content: { 'application/json': { schema: event('created') } } },
      responses: answered,
    },
  },
  webhookDeliveryFormB: {
    post: {
      summary: 'Delivery to a form B subscription (generated secret)',
      description: 'X-Service-Signature covers the raw body only, so it does not bind the time: check webhook-signature (which does) to refuse replays.',
      parameters: [...xService('`sha256=` then the hex HMAC-SHA256, keyed by the secret, of the raw body.'), ...standardWebhookHeaders('the delivery id (`whd_…`) of this event to this subscription', WEBHOOK_KEY)],
      requestBody: { required: true, content: { 'application/json': { schema: event('created_at') } } },
      responses: answered,
    },
  },
  alertDestinationRequest: {
    post: {
      summary: 'Request to an alert destination (POST, PUT or PATCH as configured)',
      description:
        'The default or templated alert payload, in the configured content type, with the custom headers and authentication. With `auth_type` `hmac`, ' +
        '`hmac_header` carries the hex HMAC (`hmac_algorithm`) of the raw body, and the Standard Webhooks headers below are added; without, they are absent.',
      parameters: standardWebhookHeaders('the alert delivery id (`ald_…`)', 'the UTF-8 bytes of `hmac_secret`, always SHA-256 whatever `hmac_algorithm`').map((p) => ({ ...p, required: false })),
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', additionalProperties: true } }, 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: true } } } },
      responses: { default: { description: 'A status in `success_codes` is a success; anything else is retried `retry_attempts` times.' } },
    },
  },
};
