import { Inject, Injectable } from '@nestjs/common';
import {
  ALERT_REQUESTED,
  type AlertRequest,
  type AuditEvent,
  type EventEnvelope,
  escapeStoredValue,
  type EventSeverity,
  POLICY_VIOLATION_RECORDED,
  type PolicyViolationRecorded,
  Topics,
} from '@vigil/contracts';
import { newId, riskScore } from '@vigil/domain';
import { NotReady, OutboxWriter } from '@vigil/messaging';
import { Counter, Registry } from '@vigil/platform';
import type { EngineEvent, PolicyEvaluation, PolicySeverity } from '@vigil/policy-engine';
import type { EntityManager } from 'typeorm';
import { PolicyCache } from './policy-cache';

/** Policy severities (five levels) onto the events catalog's three. */
const EVENT_SEVERITY: Record<PolicySeverity, EventSeverity> = { critical: 'critical', high: 'warning', medium: 'warning', low: 'warning', info: 'info' };

/**
 * What a shadow-mode policy records instead of what it would have done: nothing is blocked or
 * masked and no alert is sent (docs/policies.md#shadow-mode). `logged` is what shadow mode does anyway.
 */
const SHADOW_ACTION: Record<PolicyEvaluation['action_taken'], string> = {
  blocked: 'would_block',
  alerted: 'would_alert',
  masked: 'would_mask',
  logged: 'logged',
};

/** Events enforcement itself produces are not evaluated again (no policy can loop on its own output). */
const DERIVED_TYPES = new Set(['policy.violation', 'policy.match']);

/**
 * No audit record is stored unenforced: while this instance has not loaded the policies, ingestion
 * is refused as a whole (HTTP 503 with Retry-After; audit.ingest batches stay uncommitted and come
 * again, the consumer's NotReady path). docs/policies.md#enforcement.
 */
export class EnforcementNotReady extends NotReady {
  constructor() {
    super('policies not loaded from the policy service yet: records are not stored until they can be enforced');
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

function toEngineEvent(event: AuditEvent): EngineEvent {
  const d = event.details;
  return {
    id: event.id,
    type: event.type,
    severity: event.severity,
    database_id: event.database_id,
    timestamp: Date.parse(event.timestamp),
    user: d.user,
    source_ip: d.source_ip ?? undefined,
    query: d.query,
    client_application: d.client_application,
    session_id: d.session_id,
    details: d,
  };
}

/**
 * Evaluates ingested events against the enabled policies of their database, inside the ingest
 * transaction: the `policy.violation` / `policy.match` events it returns are stored with the
 * batch, and the violation reports (policy.violations.v1) and alert requests (alert.requests.v1)
 * go to the outbox in the same transaction. Either all of it commits with the batch or none.
 */
@Injectable()
export class EnforcementService {
  private readonly evaluations: Counter<'outcome'>;

  constructor(
    @Inject(PolicyCache) private readonly cache: PolicyCache,
    @Inject(OutboxWriter) private readonly outbox: OutboxWriter,
    @Inject(Registry) metrics: Registry,
  ) {
    this.evaluations = new Counter({
      name: 'vigil_policy_evaluations_total',
      help: 'Audit events evaluated against the enabled policies, by outcome (violation, match, shadow: a shadow-mode policy triggered, none)',
      labelNames: ['outcome'],
      registers: [metrics],
    });
  }

  /**
   * Before an ingest transaction: waits for the policies at start (ENFORCEMENT_READY_TIMEOUT_MS,
   * one wait shared by all), then throws EnforcementNotReady while they are still not loaded.
   */
  async whenReady(): Promise<void> {
    if (!(await this.cache.whenReady())) this.refuse();
  }

  /** Inside an ingest transaction, before anything is written: throws EnforcementNotReady without the policies. */
  assertReady(): void {
    if (!this.cache.isLoaded) this.refuse();
  }

  private refuse(): never {
    this.cache.reportRefused();
    throw new EnforcementNotReady();
  }

  async enforce<E extends AuditEvent>(manager: EntityManager, events: E[]): Promise<E[]> {
    // Never evaluated against a partial state: the whole transaction rolls back instead.
    this.assertReady();
    if (!events.length) return [];
    const derived: E[] = [];
    const violations: EventEnvelope<PolicyViolationRecorded>[] = [];
    const alerts: EventEnvelope<AlertRequest>[] = [];
    for (const event of events) {
      if (DERIVED_TYPES.has(event.type)) continue;
      const results = this.cache.engine.evaluate(toEngineEvent(event));
      if (!results.length) this.evaluations.inc({ outcome: 'none' });
      for (const evaluation of results) {
        this.evaluations.inc({ outcome: evaluation.shadow ? 'shadow' : evaluation.outcome === 'violation' ? 'violation' : 'match' });
        const out = this.derive(event, evaluation);
        derived.push(out.event);
        if (out.violation) violations.push(out.violation);
        if (out.alert) alerts.push(out.alert);
      }
    }
    await this.outbox.enqueue(manager, Topics.policyViolations, violations);
    await this.outbox.enqueue(manager, Topics.alertRequests, alerts);
    return derived;
  }

  private derive<E extends AuditEvent>(source: E, evaluation: PolicyEvaluation) {
    const violation = evaluation.outcome === 'violation';
    // A shadow-mode policy's violation is recorded (violation record, counted, listed under the
    // policy) as what it would have done, and its audit event is an informational policy.match:
    // no policy.violation webhook and no alert request, so trying a policy pages nobody.
    const shadow = evaluation.shadow === true;
    const actionTaken = shadow ? SHADOW_ACTION[evaluation.action_taken] : evaluation.action_taken;
    const type = violation && !shadow ? 'policy.violation' : 'policy.match';
    const severity = shadow ? 'info' : EVENT_SEVERITY[evaluation.severity];
    const violationId = violation ? newId('violation') : null;
    const d = source.details as AuditEvent['details'] & Record<string, unknown>;
    const fromSource: Record<string, unknown> = {
      ...(d.user !== undefined ? { user: d.user } : {}),
      ...(d.source_ip !== undefined ? { source_ip: d.source_ip } : {}),
      ...(d.query !== undefined ? { query: d.query } : {}),
      ...(d.session_id !== undefined ? { session_id: d.session_id } : {}),
      ...(d.client_application !== undefined ? { client_application: d.client_application } : {}),
    };
    const fromPolicy: Record<string, unknown> = {
      policy_name: evaluation.policy_name,
      policy_type: evaluation.policy_type,
      matched_conditions: evaluation.matched_conditions,
      action_taken: actionTaken,
      ...(shadow ? { shadow: true } : {}),
      policy_severity: evaluation.severity,
      triggering_event_id: source.id,
      ...(violationId ? { violation_id: violationId } : {}),
      ...(evaluation.rule_name ? { rule_name: evaluation.rule_name } : {}),
      ...(evaluation.message ? { message: shadow ? `Shadow mode, not enforced: ${evaluation.message}` : evaluation.message } : {}),
      // Agents and proxies act on `masking`; a shadow policy's instructions are only reported.
      ...(evaluation.masking ? (shadow ? { would_mask: evaluation.masking } : { masking: evaluation.masking }) : {}),
    };
    // A source stored escaped (docs/events.md#records-with-nul-characters) passes its flag on: what
    // the policy adds is escaped too, so restoring the derived event gives back every part exactly.
    const details = { ...fromSource, ...(source.escaped ? escapeStoredValue(fromPolicy) : fromPolicy) };
    // The derived event shares the stored form of its source (same batch, same columns), with
    // its own id, type and policy context.
    const event = {
      ...source,
      id: newId('event'),
      type,
      severity,
      details: details as AuditEvent['details'],
      context: { policy_id: evaluation.policy_id, rule_id: null, risk_score: riskScore(type, severity, d.query) },
      producer_id: null,
      // Derived by Vigil, not submitted by the source's producer.
      ingested_by: { kind: 'system', id: 'event-ingest' },
    } as E;
    const version = this.cache.engine.versionOf(evaluation.policy_id) ?? 1;
    const envelope = <T>(id: string, kind: string, data: T): EventEnvelope<T> => ({
      id,
      type: kind,
      schema_version: 1,
      occurred_at: source.timestamp,
      key: evaluation.policy_id,
      data,
    });
    const report = violationId
      ? envelope<PolicyViolationRecorded>(violationId, POLICY_VIOLATION_RECORDED, {
          violation: {
            id: violationId,
            policy_id: evaluation.policy_id,
            timestamp: source.timestamp,
            user: d.user ?? null,
            database: source.database_id,
            source_ip: d.source_ip ?? null,
            query: d.query ?? null,
            matched_conditions: [...new Set(evaluation.matched_conditions.map((c) => c.type))],
            action_taken: actionTaken,
            severity: evaluation.severity,
          },
          event_id: source.id,
          violation_event_id: event.id,
          policy_version: version,
          reasons: evaluation.matched_conditions,
        })
      : undefined;
    const alertInstruction = shadow ? undefined : evaluation.alert;
    const requestId = alertInstruction ? (violationId ?? `alr_${event.id}`) : undefined;
    const alert =
      alertInstruction && requestId
        ? envelope<AlertRequest>(`alert:${requestId}`, ALERT_REQUESTED, {
            request_id: requestId,
            type: alertInstruction.type,
            severity: alertInstruction.severity,
            title: alertInstruction.title.slice(0, 300),
            description: (alertInstruction.message ?? evaluation.matched_conditions.map((c) => c.reason).join('; ')).slice(0, 2000),
            occurred_at: source.timestamp,
            database_id: source.database_id,
            channels: alertInstruction.channels,
            policy: { id: evaluation.policy_id, name: evaluation.policy_name },
            violation_id: violationId,
            event_ids: [source.id, event.id],
            actor: { user: d.user ?? null, client_ip: d.source_ip ?? null, application: d.client_application ?? null },
            event: {
              type: source.type,
              query: d.query ?? null,
              query_type: str(d.query?.trim().split(/\s+/)[0]?.toUpperCase()),
              object: str(d.object),
              rows_affected: int(d.rows_affected),
              duration_ms: int(d.duration_ms),
            },
            source: { database: source.database_id, db_type: str(d.db_type), host: str(d.host), port: int(d.port) },
            matched_conditions: evaluation.matched_conditions,
          })
        : undefined;
    return { event, violation: report, alert };
  }
}
