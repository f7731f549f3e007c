import { Inject, Injectable } from '@nestjs/common';
import {
  type AlertCounts,
  type AlertCountsRequest,
  type AlertLifecycle,
  type AlertLifecycleType,
  type AlertListRequest,
  type AlertPage,
  type AlertReport,
  type AlertReportRequest,
  AlertRequestTypes,
  type AlertResponse,
  AlertSeverities,
  type AlertSeverity,
  AlertSeverityOrder,
  type AlertStatus,
  AlertStatuses,
  type EventEnvelope,
  type FieldError,
  Topics,
  type AdminAuditType,
} from '@vigil/contracts';
import { newId, ulid } from '@vigil/domain';
import { AuditTrail, OutboxWriter } from '@vigil/messaging';
import { CONFIG, DomainException } from '@vigil/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { AlertDeliveriesRepository } from '../alert-destinations/alert-deliveries.repository';
import { AlertDestinationsRepository } from '../alert-destinations/alert-destinations.repository';
import type { AlertSnapshot } from '../alert-destinations/alert-payload';
import { destinationAccepts } from '../alert-destinations/destination-settings';
import type { DeliveryConfig } from '../delivery.service-definition';
import { alertReportRequestErrors, toAlertReport } from './alert-report';
import { planAlertBatch } from './alert-batch';
import type { NewAlert } from './alert-sources';
import { type AlertRow, AlertsRepository } from './alerts.repository';

export enum AlertsErrorCode {
  AlertNotFound = 'alert_not_found',
  TransitionNotAllowed = 'alert_transition_not_allowed',
  NotHigherSeverity = 'alert_severity_not_higher',
}

/** The list's (and the counts') filters hold only known values: 400 naming each unknown one. */
function checkFilters(request: AlertCountsRequest): void {
  const errors: FieldError[] = [];
  const check = (field: string, values: string[] | undefined, allowed: readonly string[]) => {
    for (const value of values ?? []) if (!allowed.includes(value)) errors.push({ field, message: `"${value}" is not one of ${allowed.join(', ')}` });
  };
  check('severity', request.severity, AlertSeverities);
  check('status', request.status, AlertStatuses);
  check('type', request.type, AlertRequestTypes);
  if (errors.length) throw DomainException.validation(errors);
}

const rank = (severity: string) => AlertSeverityOrder.indexOf(severity as AlertSeverity);

export function toAlertResponse(row: AlertRow): AlertResponse {
  return {
    id: row.id,
    type: row.type as AlertResponse['type'],
    severity: row.severity as AlertSeverity,
    status: row.status as AlertResponse['status'],
    title: row.title,
    description: row.description,
    database_id: row.database_id,
    policy_id: row.policy_id,
    policy_name: row.policy_name,
    event_ids: row.event_ids,
    occurrences: row.occurrences,
    first_seen_at: row.first_seen_at.toISOString(),
    last_seen_at: row.last_seen_at.toISOString(),
    acknowledged_at: row.acknowledged_at?.toISOString() ?? null,
    resolved_at: row.resolved_at?.toISOString() ?? null,
    escalated_at: row.escalated_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toSnapshot(row: AlertRow): AlertSnapshot {
  const { source, actor, event, policy } = row.context;
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    status: row.status,
    title: row.title,
    description: row.description,
    database_id: row.database_id,
    occurred_at: row.last_seen_at.toISOString(),
    source,
    actor,
    event,
    policy: { id: policy.id ?? row.policy_id, name: policy.name ?? row.policy_name },
    raw_event: row.raw_event,
  };
}

/**
 * Alerts: raised from policy alert requests and audit events, de-duplicated per condition and
 * subject within ALERT_DEDUP_WINDOW_MS, moved through open -> acknowledged -> resolved and escalated.
 * Every change is announced on alert.events.v1 (outbox, same transaction) and new or escalated
 * alerts are queued for the destinations that accept them in that transaction too.
 */
/** The vigil.* event of each alert transition (docs/events.md#administrative-actions). */
const AUDIT_TYPES: Record<'acknowledge' | 'resolve' | 'escalate', AdminAuditType> = { acknowledge: 'vigil.alert.acknowledged', resolve: 'vigil.alert.resolved', escalate: 'vigil.alert.escalated' };

@Injectable()
export class AlertsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AlertsRepository) private readonly alerts: AlertsRepository,
    @Inject(AlertDestinationsRepository) private readonly destinations: AlertDestinationsRepository,
    @Inject(AlertDeliveriesRepository) private readonly deliveries: AlertDeliveriesRepository,
    @Inject(OutboxWriter) private readonly outbox: OutboxWriter,
    @Inject(CONFIG) private readonly config: DeliveryConfig,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  /**
   * Inside the consumer's transaction (with the inbox record): raises or folds a consumed batch of
   * alerts, in a fixed number of statements whatever the batch size (docs/alerts.md#de-duplication):
   * the batch's keys are locked, their open alerts read and locked, the batch is decided in memory
   * in arrival order (planAlertBatch), then new alerts are inserted, open ones updated, every
   * created/escalated change announced and queued for the destinations that accept it.
   */
  async raise(manager: EntityManager, incoming: NewAlert[]): Promise<void> {
    if (!incoming.length) return;
    const keys = [...new Set(incoming.map((a) => a.dedup_key))];
    await this.alerts.lockKeys(manager, keys);
    const open = await this.alerts.findNewestOpen(manager, keys);
    const plan = planAlertBatch(open, incoming, this.config.ALERT_DEDUP_WINDOW_MS, () => newId('alert'));
    await this.alerts.insertMany(manager, plan.inserts);
    await this.alerts.recordOccurrences(manager, plan.updates);
    await this.outbox.enqueue(manager, Topics.alertEvents, plan.changes.map((c) => lifecycleEnvelope(c.type, c.row, c.previous_severity)));
    await this.route(manager, plan.changes.map((c) => c.row));
  }

  async list(request: AlertListRequest): Promise<AlertPage<AlertResponse>> {
    checkFilters(request);
    const { rows, total } = await this.alerts.list(request);
    return { data: rows.map(toAlertResponse), pagination: { total, page: request.page, per_page: request.per_page, has_more: request.page * request.per_page < total } };
  }

  /** How many alerts match the list's filters: in all, by severity and by status (zeros included). */
  async counts(request: AlertCountsRequest): Promise<AlertCounts> {
    checkFilters(request);
    const counts: AlertCounts = {
      total: 0,
      by_severity: Object.fromEntries(AlertSeverities.map((s) => [s, 0])) as AlertCounts['by_severity'],
      by_status: Object.fromEntries(AlertStatuses.map((s) => [s, 0])) as AlertCounts['by_status'],
    };
    for (const { severity, status, count } of await this.alerts.counts(request)) {
      counts.total += count;
      counts.by_severity[severity as AlertSeverity] = (counts.by_severity[severity as AlertSeverity] ?? 0) + count;
      counts.by_status[status as AlertStatus] = (counts.by_status[status as AlertStatus] ?? 0) + count;
    }
    return counts;
  }

  /** A compliance report's alert figures (event-ingest asks at generation; docs/reports.md#alerts). */
  async report(request: AlertReportRequest): Promise<AlertReport> {
    const errors = alertReportRequestErrors(request);
    if (errors.length) throw DomainException.validation(errors, 'The alert report request is invalid.');
    const { groups, top } = await this.alerts.report(request);
    return toAlertReport(groups, top, request.limit);
  }

  async get(id: string): Promise<AlertResponse> {
    const row = await this.alerts.findById(id);
    if (!row) throw DomainException.notFound('alert', id, AlertsErrorCode.AlertNotFound);
    return toAlertResponse(row);
  }

  /** open -> acknowledged; announced as alert.resolved with status acknowledged (alert.resolved means resolved or acknowledged). */
  acknowledge(id: string): Promise<AlertResponse> {
    return this.transition(id, ['open'], 'acknowledge', (manager) => this.alerts.setState(manager, id, { status: 'acknowledged' }), 'alert.resolved');
  }

  /** open or acknowledged -> resolved. A later occurrence of the condition raises a new alert. */
  resolve(id: string): Promise<AlertResponse> {
    return this.transition(id, ['open', 'acknowledged'], 'resolve', (manager) => this.alerts.setState(manager, id, { status: 'resolved' }), 'alert.resolved');
  }

  /** Raises the severity (default: one step up) of an unresolved alert and sends it again to the destinations that accept it now. */
  async escalate(id: string, severity?: string): Promise<AlertResponse> {
    if (severity !== undefined && !(AlertSeverities as readonly string[]).includes(severity)) {
      throw new DomainException(422, AlertsErrorCode.NotHigherSeverity, `"${severity}" is not an alert severity.`, [{ field: 'severity', message: `must be one of ${AlertSeverities.join(', ')}` }]);
    }
    let previous: AlertSeverity | undefined;
    return this.transition(id, ['open', 'acknowledged'], 'escalate', async (manager, current) => {
      previous = current.severity as AlertSeverity;
      const target = severity ?? AlertSeverityOrder[rank(current.severity) + 1];
      if (!target || rank(target) <= rank(current.severity)) {
        throw new DomainException(409, AlertsErrorCode.NotHigherSeverity, `The alert is ${current.severity}; escalation needs a higher severity.`, [
          { field: 'severity', message: `must be higher than ${current.severity}` },
        ]);
      }
      const row = await this.alerts.setState(manager, id, { severity: target });
      await this.route(manager, [row]);
      return row;
    }, 'alert.escalated', () => previous);
  }

  private async transition(
    id: string,
    from: string[],
    verb: keyof typeof AUDIT_TYPES,
    apply: (manager: EntityManager, current: AlertRow) => Promise<AlertRow>,
    announce: AlertLifecycleType,
    previousSeverity: () => AlertSeverity | undefined = () => undefined,
  ): Promise<AlertResponse> {
    const row = await this.dataSource.transaction(async (manager) => {
      const current = await this.alerts.findById(id, manager, true);
      if (!current) throw DomainException.notFound('alert', id, AlertsErrorCode.AlertNotFound);
      if (!from.includes(current.status)) {
        throw new DomainException(409, AlertsErrorCode.TransitionNotAllowed, `An alert that is ${current.status} cannot ${verb}; allowed from ${from.join(' or ')}.`);
      }
      const changed = await apply(manager, current);
      await this.announce(manager, announce, changed, previousSeverity());
      await this.audit.record(manager, {
        type: AUDIT_TYPES[verb],
        target: { type: 'alert', id },
        before: { status: current.status, severity: current.severity },
        after: { status: changed.status, severity: changed.severity },
      });
      return changed;
    });
    return toAlertResponse(row);
  }

  private async announce(manager: EntityManager, type: AlertLifecycleType, row: AlertRow, previous?: AlertSeverity): Promise<void> {
    await this.outbox.enqueue(manager, Topics.alertEvents, [lifecycleEnvelope(type, row, previous)]);
  }

  /** Queues each alert (in its state at that point) for every enabled destination whose filters (and the policy's channels) accept it. */
  private async route(manager: EntityManager, rows: AlertRow[]): Promise<void> {
    if (!rows.length) return;
    const destinations = await this.destinations.enabled(manager);
    const deliveries = rows.flatMap((row) => {
      const accepted = destinations.filter((d) => destinationAccepts(d, { severity: row.severity, type: row.type, database_id: row.database_id, channels: row.channels }));
      if (!accepted.length) return [];
      const snapshot = toSnapshot(row);
      return accepted.map((d) => ({ id: `ald_${ulid()}`, destination_id: d.id, alert: snapshot }));
    });
    await this.deliveries.enqueue(manager, deliveries);
  }
}

/** The alert.events.v1 message announcing a change of `row`. */
function lifecycleEnvelope(type: AlertLifecycleType, row: AlertRow, previous?: AlertSeverity): EventEnvelope<AlertLifecycle> {
  const data: AlertLifecycle = {
    alert_id: row.id,
    type: row.type as AlertLifecycle['type'],
    severity: row.severity as AlertSeverity,
    ...(previous ? { previous_severity: previous } : {}),
    status: row.status as AlertLifecycle['status'],
    title: row.title,
    message: row.description,
    database_id: row.database_id,
    policy_id: row.policy_id,
    query: row.context.query,
    user: row.context.actor.user,
    source_ip: row.context.actor.client_ip,
    event_ids: row.event_ids,
    occurred_at: new Date().toISOString(),
  };
  return { id: newId('event'), type, schema_version: 1, occurred_at: data.occurred_at, key: row.id, data };
}
