import { Inject, Injectable } from '@nestjs/common';
import {
  type AlertDeliveryAttemptResponse,
  type AlertDeliveryResponse,
  AlertDeliveryStatuses,
  type AlertDestinationInput,
  type AlertDestinationResponse,
  AlertDestinationSecretFields,
  type AlertPage,
  type DestinationDeliveriesRequest,
  type FieldError,
  type TestAlertResponse,
} from '@vigil/contracts';
import { newId, ulid } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { DomainException, SecretOpenError } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { type AlertAttemptRow, AlertDeliveriesRepository, type AlertDeliveryRow } from './alert-deliveries.repository';
import { AlertDestinationsRepository, type DestinationRow } from './alert-destinations.repository';
import { sampleAlert, templateContext } from './alert-payload';
import { AlertSender } from './alert-sender';
import { compileTemplate, TemplateError } from './alert-template';
import { EgressClient } from '../egress/egress-client';
import { type MergedDestination, mergeDestination, validateDestination } from './destination-settings';

export enum AlertDestinationsErrorCode {
  DestinationNotFound = 'alert_destination_not_found',
  NameTaken = 'alert_destination_name_taken',
  InvalidDestination = 'invalid_alert_destination',
  InvalidTemplate = 'invalid_payload_template',
  UrlNotAllowed = 'alert_destination_url_not_allowed',
  SecretsUnreadable = 'alert_destination_secrets_unreadable',
}

/** A test alert runs inline; retries stop once the next attempt could not finish within this budget. */
export const TEST_BUDGET_MS = 150_000;

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function toDestinationResponse(row: DestinationRow): AlertDestinationResponse {
  return { id: row.id, ...row.settings, name: row.name, enabled: row.enabled, secrets_set: row.secrets_set, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

function toAttempt(row: AlertAttemptRow): AlertDeliveryAttemptResponse {
  return { attempt: row.attempt, started_at: row.started_at.toISOString(), status_code: row.status_code, latency_ms: row.latency_ms, success: row.success, error: row.error };
}

/** What an administrative record shows of a destination: its settings and which secrets are set, never their values. */
function auditView(row: DestinationRow): Record<string, unknown> {
  return { ...row.settings, name: row.name, enabled: row.enabled, secrets_set: row.secrets_set };
}

/** Alert destinations: every setting validated, secrets sealed, history, and the test send. */
@Injectable()
export class AlertDestinationsService {
  constructor(
    @Inject(AlertDestinationsRepository) private readonly destinations: AlertDestinationsRepository,
    @Inject(AlertDeliveriesRepository) private readonly deliveries: AlertDeliveriesRepository,
    @Inject(AlertSender) private readonly sender: AlertSender,
    @Inject(EgressClient) private readonly egress: EgressClient,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  async create(input: AlertDestinationInput): Promise<AlertDestinationResponse> {
    const merged = mergeDestination(input);
    await this.check(merged);
    const row = await this.dataSource.transaction(async (manager) => {
      const id = newId('destination');
      const inserted = await this.destinations.insert({ id, ...this.toRow(id, merged) }, manager);
      if (!inserted) throw this.nameTaken(merged.settings.name);
      await this.audit.record(manager, { type: 'vigil.alert_destination.created', target: { type: 'alert_destination', id: inserted.id }, after: auditView(inserted) });
      return inserted;
    });
    return toDestinationResponse(row);
  }

  async list(page: number, perPage: number): Promise<AlertPage<AlertDestinationResponse>> {
    const { rows, total } = await this.destinations.list(page, perPage);
    return { data: rows.map(toDestinationResponse), pagination: { total, page, per_page: perPage, has_more: page * perPage < total } };
  }

  async get(id: string): Promise<AlertDestinationResponse> {
    return toDestinationResponse(await this.require(id));
  }

  async update(id: string, changes: AlertDestinationInput): Promise<AlertDestinationResponse> {
    const current = await this.require(id);
    const merged = mergeDestination(changes, { settings: current.settings, secrets: this.storedSecrets(current, changes) });
    await this.check(merged);
    const row = await this.dataSource.transaction(async (manager) => {
      const updated = await this.destinations.update({ id, ...this.toRow(id, merged) }, manager);
      if (updated === 'taken') throw this.nameTaken(merged.settings.name);
      if (!updated) throw DomainException.notFound('alert destination', id, AlertDestinationsErrorCode.DestinationNotFound);
      await this.audit.record(manager, {
        type: 'vigil.alert_destination.updated',
        target: { type: 'alert_destination', id },
        before: auditView(current),
        // Secrets are never shown; that one was replaced is.
        after: { ...auditView(updated), ...(updated.secrets_sealed !== current.secrets_sealed ? { secrets_replaced: true } : {}) },
      });
      return updated;
    });
    return toDestinationResponse(row);
  }

  async delete(id: string): Promise<{ deleted: boolean; id: string }> {
    await this.dataSource.transaction(async (manager) => {
      const deleted = await this.destinations.delete(id, manager);
      if (!deleted) throw DomainException.notFound('alert destination', id, AlertDestinationsErrorCode.DestinationNotFound);
      await this.audit.record(manager, { type: 'vigil.alert_destination.deleted', target: { type: 'alert_destination', id }, before: auditView(deleted) });
    });
    return { deleted: true, id };
  }

  async deliveriesOf(request: DestinationDeliveriesRequest): Promise<AlertPage<AlertDeliveryResponse>> {
    const destination = await this.require(request.id);
    if (request.status !== undefined && !(AlertDeliveryStatuses as readonly string[]).includes(request.status)) {
      throw DomainException.validation([{ field: 'status', message: `must be one of ${AlertDeliveryStatuses.join(', ')}` }]);
    }
    const { rows, total } = await this.deliveries.list(request.id, request.page, request.per_page, request.status);
    const attempts = await this.deliveries.attemptsOf(rows.map((r) => r.id));
    const data = rows.map((row) => this.toDelivery(row, attempts.filter((a) => a.delivery_id === row.id), destination.settings.retry_attempts + 1));
    return { data, pagination: { total, page: request.page, per_page: request.per_page, has_more: request.page * request.per_page < total } };
  }

  /**
   * POST /v1/alerts/test: a sample alert (marked `test: true`) through the same rendering,
   * authentication, egress and success rules as real alerts, with the destination's retries, sent
   * now (not queued behind the rate limit) and answered with the outcome; recorded in the history.
   */
  async test(destinationId: string): Promise<TestAlertResponse> {
    const destination = await this.require(destinationId);
    const alert = sampleAlert(newId('alert'));
    const deliveryId = `ald_${ulid()}`;
    await this.dataSource.transaction(async (manager) => {
      await this.deliveries.insertTest(deliveryId, destination.id, alert, manager);
      await this.audit.record(manager, { type: 'vigil.alert.tested', target: { type: 'alert_destination', id: destination.id }, after: { delivery_id: deliveryId } });
    });
    const settings = destination.settings;
    const attempts: AlertDeliveryAttemptResponse[] = [];
    const started = performance.now();
    let last: Awaited<ReturnType<AlertSender['attempt']>> | undefined;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, settings.retry_delay_seconds * 1000));
      last = await this.sender.attempt(destination.id, settings, destination.secrets_sealed, alert, deliveryId);
      const nextWouldEnd = performance.now() - started + (settings.retry_delay_seconds + settings.timeout_seconds) * 1000;
      const final = last.success || attempt === settings.retry_attempts + 1 || nextWouldEnd > TEST_BUDGET_MS;
      await this.deliveries.complete(null, [
        {
          id: `ala_${ulid()}`,
          deliveryId,
          destinationId: destination.id,
          attempt,
          startedAt: last.startedAt,
          latencyMs: last.latencyMs,
          statusCode: last.statusCode,
          success: last.success,
          error: last.error,
          status: last.success ? 'succeeded' : final ? 'failed' : 'pending',
          delayMs: 0,
        },
      ]);
      attempts.push({ attempt, started_at: last.startedAt.toISOString(), status_code: last.statusCode, latency_ms: last.latencyMs, success: last.success, error: last.error });
      if (final) break;
    }
    return {
      destination_id: destination.id,
      delivery_id: deliveryId,
      alert_id: alert.id,
      success: last!.success,
      status_code: last!.statusCode,
      duration_ms: Math.round(performance.now() - started),
      error: last!.error,
      attempts,
    };
  }

  private toDelivery(row: AlertDeliveryRow, attempts: AlertAttemptRow[], maxAttempts: number): AlertDeliveryResponse {
    return {
      id: row.id,
      destination_id: row.destination_id,
      alert_id: row.alert_id,
      severity: row.severity as AlertDeliveryResponse['severity'],
      test: row.test,
      status: row.status,
      attempt_count: row.attempt_count,
      max_attempts: maxAttempts,
      next_attempt_at: row.status === 'pending' ? iso(row.due_at) : null,
      last_status_code: row.last_status_code,
      last_latency_ms: row.last_latency_ms,
      last_error: row.last_error,
      created_at: row.created_at.toISOString(),
      completed_at: iso(row.completed_at),
      attempts: attempts.map(toAttempt),
    };
  }

  /**
   * The stored secrets an update merges with. When they do not open (sealed for another row, or
   * with a key no longer configured) nothing of them is used: the update is refused, unless it
   * moves the destination to a new url, which drops stored secrets anyway.
   */
  private storedSecrets(current: DestinationRow, changes: AlertDestinationInput): MergedDestination['secrets'] {
    try {
      return this.sender.openSecrets(current.id, current.secrets_sealed);
    } catch (error) {
      if (!(error instanceof SecretOpenError)) throw error;
      if (changes.url !== undefined && changes.url !== current.settings.url) return {};
      throw new DomainException(
        409,
        AlertDestinationsErrorCode.SecretsUnreadable,
        'The stored secrets of this destination do not open (sealed for another destination, or with a key no longer configured). Send its secrets again with a new url, or delete it and create it again.',
      );
    }
  }

  private toRow(id: string, merged: MergedDestination): Omit<DestinationRow, 'id' | 'created_at' | 'updated_at'> {
    const secretsSet = AlertDestinationSecretFields.filter((f) => merged.secrets[f] !== undefined);
    return {
      name: merged.settings.name,
      enabled: merged.settings.enabled,
      settings: merged.settings,
      secrets_sealed: this.sender.sealSecrets(id, merged.secrets),
      secrets_set: secretsSet,
    };
  }

  /** 422 with field paths for every rule broken; the template is compiled and rendered against a sample alert. */
  private async check(merged: MergedDestination): Promise<void> {
    const errors: FieldError[] = validateDestination(merged);
    const { settings } = merged;
    if (settings.payload_template && !errors.some((e) => e.field === 'payload_template')) {
      try {
        const render = compileTemplate(settings.payload_template);
        render(templateContext(sampleAlert('alt_sample'), 'https://dashboard.example.com', settings.include_raw_event));
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        throw new DomainException(422, AlertDestinationsErrorCode.InvalidTemplate, `The payload template ${error.message}`, [
          { field: 'payload_template', message: `${error.line ? `line ${error.line}: ` : ''}${error.message}` },
        ]);
      }
    }
    if (settings.url && !errors.some((e) => e.field === 'url')) {
      const target = await this.egress.checkTarget(settings.url);
      if (!target.ok) {
        if (!errors.length) {
          throw new DomainException(422, AlertDestinationsErrorCode.UrlNotAllowed, `The destination URL is not allowed: ${target.reason}.`, [{ field: 'url', message: target.reason }]);
        }
        errors.push({ field: 'url', message: target.reason });
      }
    }
    if (errors.length) throw new DomainException(422, AlertDestinationsErrorCode.InvalidDestination, 'The alert destination settings are invalid.', errors);
  }

  private nameTaken(name: string): DomainException {
    return new DomainException(409, AlertDestinationsErrorCode.NameTaken, `An alert destination named "${name}" exists.`, [{ field: 'name', message: 'is taken' }]);
  }

  private async require(id: string): Promise<DestinationRow> {
    const row = await this.destinations.findById(id);
    if (!row) throw DomainException.notFound('alert destination', id, AlertDestinationsErrorCode.DestinationNotFound);
    return row;
  }
}
