import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatedWebhookFormA,
  type CreatedWebhookFormB,
  type CreateWebhookRequest,
  type DeliveryAttemptResponse,
  type DeliveryResponse,
  DeliveryStatuses,
  type DeliveryStatus,
  type FieldError,
  isValidEventPattern,
  type ListDeliveriesRequest,
  type WebhookPage,
  type RedeliverRequest,
  SubscribableEventTypes,
  type TestDeliveryResponse,
  type UpdateWebhookRequest,
  type WebhookResponse,
} from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { DomainException, SecretBox, secretContext } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { type AttemptRow, DeliveriesRepository, type DeliveryRow } from '../deliveries/deliveries.repository';
import { newDeliveryId, RETRY_SCHEDULE } from '../deliveries/delivery-router';
import type { RetrySchedule } from '../deliveries/retry-schedule';
import { WEBHOOK_SECRET } from '../database/sealed-columns';
import { EgressClient } from '../egress/egress-client';
import { webhookBody, type WebhookEvent } from './webhook-payload';
import { type WebhookRow, WebhooksRepository } from './webhooks.repository';

export enum WebhooksErrorCode {
  WebhookNotFound = 'webhook_not_found',
  DeliveryNotFound = 'webhook_delivery_not_found',
  UnknownEventType = 'unknown_event_type',
  UrlNotAllowed = 'webhook_url_not_allowed',
  InvalidWebhook = 'invalid_webhook',
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function toWebhookResponse(row: WebhookRow): WebhookResponse {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    form: row.form,
    description: row.description,
    active: row.active,
    status: !row.active ? 'inactive' : row.failing_since ? 'failing' : 'active',
    failing_since: iso(row.failing_since),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toAttemptResponse(row: AttemptRow): DeliveryAttemptResponse {
  return {
    delivery_attempt_id: row.id,
    attempt: row.attempt,
    started_at: row.started_at.toISOString(),
    status_code: row.status_code,
    latency_ms: row.latency_ms,
    success: row.success,
    error: row.error,
  };
}

/** Sample data for test deliveries, shaped like the data of a real event of each type. */
function sampleData(type: string): Record<string, unknown> {
  if (type.startsWith('alert.')) {
    return { alert_id: 'alt_test', severity: 'high', database_id: 'db_test', policy_id: 'pol_test', query: 'SELECT 1', user: 'test_user', source_ip: '203.0.113.10', message: 'Test alert from Vigil' };
  }
  if (type === 'policy.updated') return { policy_id: 'pol_test', change: 'updated', name: 'Test policy', policy_type: 'query_control', enabled: true, enforcement_mode: 'enforce' };
  return { database_id: 'db_test', severity: 'info', user: 'test_user', source_ip: '203.0.113.10', query: 'SELECT 1' };
}

/** What an administrative record shows of a subscription: never its secret. */
function auditView(row: WebhookRow): Record<string, unknown> {
  return { url: row.url, events: row.events, form: row.form, description: row.description, active: row.active };
}

/** Webhook subscriptions: both create forms, sealed secrets, validated patterns and targets, history and replay. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(WebhooksRepository) private readonly webhooks: WebhooksRepository,
    @Inject(DeliveriesRepository) private readonly deliveries: DeliveriesRepository,
    @Inject(SecretBox) private readonly secrets: SecretBox,
    @Inject(EgressClient) private readonly egress: EgressClient,
    @Inject(RETRY_SCHEDULE) private readonly schedule: RetrySchedule,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  async create(request: CreateWebhookRequest): Promise<CreatedWebhookFormA | CreatedWebhookFormB> {
    const form = request.secret !== undefined ? 'A' : 'B';
    const events = this.checkEvents(request.events);
    await this.checkUrl(request.url);
    const secret = form === 'A' ? request.secret! : `whsec_${randomBytes(32).toString('base64url')}`;
    const id = newId('webhook');
    const row = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.webhooks.insert(
        {
          id,
          url: request.url,
          events,
          form,
          secret_sealed: this.secrets.seal(secret, secretContext(WEBHOOK_SECRET, id)),
          secret_key_id: this.secrets.currentKeyId,
          description: request.description ?? '',
          active: request.active ?? true,
        },
        manager,
      );
      await this.audit.record(manager, { type: 'vigil.webhook.created', target: { type: 'webhook', id: inserted.id }, after: auditView(inserted) });
      return inserted;
    });
    const view = toWebhookResponse(row);
    if (form === 'A') return { id: view.id, url: view.url, events: view.events, status: view.status, created_at: view.created_at };
    return { id: view.id, url: view.url, events: view.events, description: view.description, active: view.active, secret, created_at: view.created_at };
  }

  async list(page: number, perPage: number): Promise<WebhookPage<WebhookResponse>> {
    const { rows, total } = await this.webhooks.list(page, perPage);
    return { data: rows.map(toWebhookResponse), pagination: { total, page, per_page: perPage, has_more: page * perPage < total } };
  }

  async get(id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.require(id));
  }

  /** A new url or (re)activation clears the failing flag and sends what was held. */
  async update(request: UpdateWebhookRequest): Promise<WebhookResponse> {
    const events = request.events !== undefined ? this.checkEvents(request.events) : undefined;
    if (request.url !== undefined) await this.checkUrl(request.url);
    const clearFailing = request.url !== undefined || request.active === true;
    const row = await this.dataSource.transaction(async (manager) => {
      const before = await this.webhooks.findById(request.id, manager);
      const updated = await this.webhooks.update(manager, request.id, {
        url: request.url,
        events,
        description: request.description,
        active: request.active,
        clearFailing,
      });
      if (updated && clearFailing && updated.active) await this.deliveries.releaseHeld(manager, [updated.id]);
      if (updated && before) {
        await this.audit.record(manager, { type: 'vigil.webhook.updated', target: { type: 'webhook', id: updated.id }, before: auditView(before), after: auditView(updated) });
      }
      return updated;
    });
    if (!row) throw DomainException.notFound('webhook', request.id, WebhooksErrorCode.WebhookNotFound);
    return toWebhookResponse(row);
  }

  async delete(id: string): Promise<{ deleted: boolean; id: string }> {
    await this.dataSource.transaction(async (manager) => {
      const deleted = await this.webhooks.delete(id, manager);
      if (!deleted) throw DomainException.notFound('webhook', id, WebhooksErrorCode.WebhookNotFound);
      await this.audit.record(manager, { type: 'vigil.webhook.deleted', target: { type: 'webhook', id }, before: auditView(deleted) });
    });
    return { deleted: true, id };
  }

  /** A test delivery of `event_type` to this subscription only, payload marked `test: true`, queued at once. */
  async test(id: string, eventType: string): Promise<TestDeliveryResponse> {
    const webhook = await this.require(id);
    if (!SubscribableEventTypes.includes(eventType)) {
      throw new DomainException(422, WebhooksErrorCode.UnknownEventType, `"${eventType}" is not an event type of either catalog.`, [
        { field: 'event_type', message: 'must be an event type of the events or the webhook catalog' },
      ]);
    }
    const event: WebhookEvent = { id: newId('event'), type: eventType, occurred_at: new Date().toISOString(), data: sampleData(eventType), test: true };
    const deliveryId = newDeliveryId();
    await this.dataSource.transaction(async (manager) => {
      await this.deliveries.insert(
        manager,
        [{ id: event.id, type: event.type, test: true, body_a: webhookBody('A', event), body_b: webhookBody('B', event) }],
        [{ id: deliveryId, webhook_id: webhook.id, event_id: event.id, event_type: event.type, test: true, held: false, delay_ms: 0 }],
      );
      await this.audit.record(manager, {
        type: 'vigil.webhook.tested',
        target: { type: 'webhook', id: webhook.id },
        after: { delivery_id: deliveryId, event_type: event.type },
      });
    });
    return { delivery_id: deliveryId, event_id: event.id, event_type: event.type, status: 'pending' };
  }

  async deliveriesOf(request: ListDeliveriesRequest): Promise<WebhookPage<DeliveryResponse>> {
    await this.require(request.id);
    if (request.status !== undefined && !DeliveryStatuses.includes(request.status)) {
      throw DomainException.validation([{ field: 'status', message: `must be one of ${DeliveryStatuses.join(', ')}` }]);
    }
    const { rows, total } = await this.deliveries.list(request.id, request.page, request.per_page, request.status);
    const data = await this.withAttempts(rows);
    return { data, pagination: { total, page: request.page, per_page: request.per_page, has_more: request.page * request.per_page < total } };
  }

  async delivery(id: string, deliveryId: string): Promise<DeliveryResponse> {
    await this.require(id);
    const row = await this.deliveries.findOne(id, deliveryId);
    if (!row) throw DomainException.notFound('delivery', deliveryId, WebhooksErrorCode.DeliveryNotFound);
    return (await this.withAttempts([row]))[0]!;
  }

  async redeliverOne(id: string, deliveryId: string): Promise<DeliveryResponse> {
    await this.require(id);
    const existing = await this.deliveries.findOne(id, deliveryId);
    if (!existing) throw DomainException.notFound('delivery', deliveryId, WebhooksErrorCode.DeliveryNotFound);
    await this.deliveries.requeue(id, { deliveryId, statuses: ['failed', 'succeeded', 'held'] }, (manager, ids) =>
      this.auditRedelivered(manager, id, { before: { status: existing.status }, after: { delivery_id: deliveryId, requeued: ids.length > 0 } }),
    );
    return this.delivery(id, deliveryId);
  }

  /** Bulk replay: every delivery of the given statuses (default failed and held) in the time range. */
  async redeliver(request: RedeliverRequest): Promise<{ redelivered: number; delivery_ids: string[] }> {
    await this.require(request.id);
    const statuses: DeliveryStatus[] = request.statuses?.length ? request.statuses : ['failed', 'held'];
    const ids = await this.deliveries.requeue(request.id, { statuses, since: request.since, until: request.until }, (manager, requeued) =>
      this.auditRedelivered(manager, request.id, {
        after: { statuses, since: request.since ?? null, until: request.until ?? null, redelivered: requeued.length, delivery_ids: requeued.slice(0, 100) },
      }),
    );
    return { redelivered: ids.length, delivery_ids: ids.slice(0, 1000) };
  }

  /** A replay asked for, recorded with what it requeued (possibly nothing). */
  private auditRedelivered(manager: EntityManager, webhookId: string, change: { before?: Record<string, unknown>; after: Record<string, unknown> }) {
    return this.audit.record(manager, { type: 'vigil.webhook.redelivered', target: { type: 'webhook', id: webhookId }, before: change.before ?? null, ...change });
  }

  private async withAttempts(rows: DeliveryRow[]): Promise<DeliveryResponse[]> {
    const attempts = await this.deliveries.attemptsOf(rows.map((r) => r.id));
    const byDelivery = new Map<string, AttemptRow[]>();
    for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
    return rows.map((row) => ({
      id: row.id,
      webhook_id: row.webhook_id,
      event_id: row.event_id,
      event_type: row.event_type,
      test: row.test,
      status: row.status,
      attempt_count: row.attempt_count,
      max_attempts: this.schedule.attempts,
      next_attempt_at: row.status === 'pending' ? iso(row.due_at) : null,
      last_attempt_at: iso(row.last_attempt_at),
      last_status_code: row.last_status_code,
      last_latency_ms: row.last_latency_ms,
      last_error: row.last_error,
      created_at: row.created_at.toISOString(),
      completed_at: iso(row.completed_at),
      attempts: (byDelivery.get(row.id) ?? []).map(toAttemptResponse),
    }));
  }

  private async require(id: string): Promise<WebhookRow> {
    const row = await this.webhooks.findById(id);
    if (!row) throw DomainException.notFound('webhook', id, WebhooksErrorCode.WebhookNotFound);
    return row;
  }

  /** Unknown names are 422 (a type of either catalog, `*`, or `prefix.*` matching at least one). */
  private checkEvents(events: string[]): string[] {
    const errors: FieldError[] = [];
    events.forEach((pattern, i) => {
      if (!isValidEventPattern(pattern)) {
        errors.push({ field: `events[${i}]`, message: `"${pattern}" is not an event type (or pattern) of the events or webhook catalog` });
      }
    });
    if (errors.length) throw new DomainException(422, WebhooksErrorCode.UnknownEventType, 'Some subscribed event types are unknown.', errors);
    return [...new Set(events)];
  }

  private async checkUrl(url: string): Promise<void> {
    const check = await this.egress.checkTarget(url);
    if (check.ok) return;
    if (check.code === 'invalid_url') throw DomainException.validation([{ field: 'url', message: check.reason }]);
    throw new DomainException(422, WebhooksErrorCode.UrlNotAllowed, `The webhook URL is not allowed: ${check.reason}.`, [
      { field: 'url', message: check.reason },
    ]);
  }
}
