import { Inject, Injectable } from '@nestjs/common';
import type { AlertDestinationSettings } from '@vigil/contracts';
import { CONFIG, SecretBox, secretContext } from '@vigil/platform';
import { DESTINATION_SECRETS } from '../database/sealed-columns';
import type { DeliveryConfig } from '../delivery.service-definition';
import { EgressClient } from '../egress/egress-client';
import type { AlertSnapshot } from './alert-payload';
import { TemplateCache, TemplateError } from './alert-template';
import { buildAlertRequest } from './destination-request';
import type { DestinationSecrets } from './destination-settings';

export interface AlertAttemptResult {
  startedAt: Date;
  latencyMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
}

/**
 * One request of an alert to a destination: render (default payload or template, parsed), add
 * headers and authentication, send through the SSRF-safe egress client within `timeout_seconds`,
 * and judge the answer against `success_codes`. Used by the queue workers and by the test endpoint.
 */
@Injectable()
export class AlertSender {
  readonly templates = new TemplateCache();
  private readonly secretCache = new Map<string, DestinationSecrets>();

  constructor(
    @Inject(EgressClient) private readonly egress: EgressClient,
    @Inject(SecretBox) private readonly box: SecretBox,
    @Inject(CONFIG) private readonly config: DeliveryConfig,
  ) {}

  /** The secret fields of the destination `destinationId`, sealed for its row (null when there are none). */
  sealSecrets(destinationId: string, secrets: DestinationSecrets): string | null {
    return Object.keys(secrets).length ? this.box.seal(JSON.stringify(secrets), secretContext(DESTINATION_SECRETS, destinationId)) : null;
  }

  /** Cached by destination and sealed value: the same value read from another row must still be refused. */
  openSecrets(destinationId: string, sealed: string | null): DestinationSecrets {
    if (!sealed) return {};
    const context = secretContext(DESTINATION_SECRETS, destinationId);
    const cacheKey = `${context}\n${sealed}`;
    let secrets = this.secretCache.get(cacheKey);
    if (!secrets) {
      secrets = JSON.parse(this.box.open(sealed, context)) as DestinationSecrets;
      if (this.secretCache.size > 10_000) this.secretCache.clear();
      this.secretCache.set(cacheKey, secrets);
    }
    return secrets;
  }

  /** `deliveryId` names the delivery this attempt belongs to (the same on every retry of it). */
  async attempt(
    destinationId: string,
    settings: AlertDestinationSettings,
    secretsSealed: string | null,
    alert: AlertSnapshot,
    deliveryId: string,
  ): Promise<AlertAttemptResult> {
    const startedAt = new Date();
    let request;
    try {
      request = buildAlertRequest(settings, this.openSecrets(destinationId, secretsSealed), alert, this.config.DASHBOARD_URL, this.templates, {
        deliveryId,
        timestamp: Math.floor(startedAt.getTime() / 1000),
      });
    } catch (error) {
      const message = error instanceof TemplateError ? `payload_template ${error.message}` : `not sent: ${(error as Error).message}`;
      return { startedAt, latencyMs: 0, statusCode: null, success: false, error: message };
    }
    const result = await this.egress.send({ url: settings.url, method: request.method, headers: request.headers, body: request.body, timeoutMs: settings.timeout_seconds * 1000 });
    const success = result.statusCode !== null && settings.success_codes.includes(result.statusCode);
    const error = success ? null : (result.error ?? `HTTP ${result.statusCode} is not one of the success codes ${settings.success_codes.join(', ')}`);
    return { startedAt, latencyMs: result.latencyMs, statusCode: result.statusCode, success, error };
  }
}
