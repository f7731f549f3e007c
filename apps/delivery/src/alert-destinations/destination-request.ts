import { createHmac } from 'node:crypto';
import type { AlertDestinationSettings } from '@vigil/contracts';
import { standardWebhookHeaders } from '../signing/standard-webhooks';
import { type AlertSnapshot, defaultPayload, formEncode, templateContext } from './alert-payload';
import type { TemplateCache } from './alert-template';
import type { DestinationSecrets } from './destination-settings';

export interface OutgoingAlertRequest {
  method: 'POST' | 'PUT' | 'PATCH';
  headers: Record<string, string>;
  /** The exact bytes sent, and what the HMAC covers. */
  body: string;
}

/** The payload object for an alert: the default format, or the custom template rendered and parsed. */
export function alertPayload(settings: AlertDestinationSettings, alert: AlertSnapshot, dashboardUrl: string, templates: TemplateCache): unknown {
  if (settings.payload_format === 'custom' && settings.payload_template) {
    return templates.get(settings.payload_template)(templateContext(alert, dashboardUrl, settings.include_raw_event));
  }
  return defaultPayload(alert, dashboardUrl, settings.include_raw_event);
}

/** Identifies one attempt: the delivery it belongs to (the same on every retry) and its send time. */
export interface AlertAttemptMeta {
  deliveryId: string;
  /** Unix seconds at which this attempt is sent. */
  timestamp: number;
}

/**
 * One request to a destination: the payload in the chosen
 * content type, custom headers first, then Vigil's own headers and the authentication, so no
 * custom header can replace them (they are also refused at save).
 *
 * With `auth_type` `hmac` the request also carries the Standard Webhooks headers, keyed by the UTF-8
 * bytes of `hmac_secret` and always HMAC-SHA256 (the only algorithm of that scheme, whatever
 * `hmac_algorithm` says for the `hmac_header` signature): the header signature alone covers the body
 * only, so a captured request could be replayed; these add a signed send time.
 */
export function buildAlertRequest(
  settings: AlertDestinationSettings,
  secrets: DestinationSecrets,
  alert: AlertSnapshot,
  dashboardUrl: string,
  templates: TemplateCache,
  meta: AlertAttemptMeta,
): OutgoingAlertRequest {
  const payload = alertPayload(settings, alert, dashboardUrl, templates);
  const body = settings.content_type === 'application/x-www-form-urlencoded' ? formEncode(payload) : JSON.stringify(payload);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(settings.custom_headers)) headers[name.toLowerCase()] = value;
  headers['content-type'] = settings.content_type === 'application/json' ? 'application/json' : 'application/x-www-form-urlencoded';
  headers['user-agent'] ??= 'Vigil-Alerts/1';
  switch (settings.auth_type) {
    case 'basic':
      headers.authorization = `Basic ${Buffer.from(`${settings.auth_username ?? ''}:${secrets.auth_password ?? ''}`, 'utf8').toString('base64')}`;
      break;
    case 'bearer':
      headers.authorization = `Bearer ${secrets.auth_token ?? ''}`;
      break;
    case 'api_key':
      headers[settings.api_key_header.toLowerCase()] = secrets.api_key_value ?? '';
      break;
    case 'hmac':
      if (secrets.hmac_secret) Object.assign(headers, standardWebhookHeaders([secrets.hmac_secret], meta.deliveryId, meta.timestamp, body));
      headers[settings.hmac_header.toLowerCase()] = createHmac(settings.hmac_algorithm, secrets.hmac_secret ?? '').update(body, 'utf8').digest('hex');
      break;
    default:
      break;
  }
  return { method: settings.method as OutgoingAlertRequest['method'], headers, body };
}
