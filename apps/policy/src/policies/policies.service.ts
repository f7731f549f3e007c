import { Inject, Injectable } from '@nestjs/common';
import {
  type CreatePolicyRequest,
  DEFAULT_ENFORCEMENT_MODE,
  type DeletePolicyResponse,
  type EventEnvelope,
  type ListPoliciesRequest,
  type PolicyChanged,
  type PolicyEnabledResponse,
  type PolicyListItem,
  type PolicyPage,
  type PolicyResponse,
  type PolicySnapshot,
  type TestPolicyRequest,
  type TestPolicyResponse,
  Topics,
} from '@vigil/contracts';
import { ConcurrencyError, EventStore, isUniqueViolation, type NewEvent } from '@vigil/database';
import { newId } from '@vigil/domain';
import { AuditTrail, OutboxWriter } from '@vigil/messaging';
import { DomainException } from '@vigil/platform';
import { compilePolicy, simulate } from '@vigil/policy-engine';
import { DataSource, type EntityManager } from 'typeorm';
import { POLICY_EVENT_STORE } from './event-store.provider';
import { applyEvent, effectiveChanges, fold, type PolicyChange, type PolicyState, type PolicyStreamEvent } from './policy.aggregate';
import { PoliciesRepository } from './policies.repository';
import { SnapshotSigner } from '../signing/snapshot-signer';

export enum PolicyErrorCode {
  NotFound = 'policy_not_found',
  NameTaken = 'policy_name_taken',
  InvalidConfig = 'invalid_policy_config',
  ConcurrentUpdate = 'policy_concurrent_update',
}

/** Envelope type on policy.events.v1: every change is a `policy.updated` of the webhook catalog. */
export const POLICY_UPDATED = 'policy.updated';

const MAX_ATTEMPTS = 5;

/**
 * Commands on the policy aggregate and queries on its read model. A command loads the stream,
 * decides, appends at the version it loaded (another writer in between makes the append fail
 * and the command is decided again on the new state), projects the result and enqueues the
 * announcement, all in one transaction.
 */
@Injectable()
export class PoliciesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(POLICY_EVENT_STORE) private readonly store: EventStore,
    @Inject(PoliciesRepository) private readonly policies: PoliciesRepository,
    @Inject(OutboxWriter) private readonly outbox: OutboxWriter,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
    @Inject(SnapshotSigner) private readonly signer: SnapshotSigner,
  ) {}

  async create(request: CreatePolicyRequest): Promise<PolicyResponse> {
    const fields = {
      name: request.name,
      type: request.type,
      enabled: request.enabled ?? false,
      enforcement_mode: request.enforcement_mode ?? DEFAULT_ENFORCEMENT_MODE,
      description: request.description ?? '',
      databases: [...new Set(request.databases)],
      config: request.config,
    };
    const id = newId('policy');
    this.checkConfig({ id, ...fields });
    const event: PolicyStreamEvent = { type: 'policy.created', data: { id, ...fields, at: new Date().toISOString() } };
    await this.dataSource.transaction(async (manager) => {
      await this.ensureNameFree(manager, fields.name);
      await this.commit(manager, undefined, event, id);
    });
    return (await this.policies.find(id))!;
  }

  async update(id: string, changes: PolicyChange): Promise<PolicyResponse> {
    if (changes.databases) changes = { ...changes, databases: [...new Set(changes.databases)] };
    await this.execute(id, async (manager, state) => {
      const effective = effectiveChanges(state, changes);
      if (!Object.keys(effective).length) return undefined;
      if (effective.config !== undefined || effective.type !== undefined) this.checkConfig({ ...state, ...effective });
      if (effective.name !== undefined) await this.ensureNameFree(manager, effective.name, id);
      return { type: 'policy.updated', data: { changes: effective, at: new Date().toISOString() } };
    });
    return (await this.policies.find(id))!;
  }

  async setEnabled(id: string, enabled: boolean): Promise<PolicyEnabledResponse> {
    const state = await this.execute(id, async (_manager, current) => {
      if (current.enabled === enabled) return undefined; // already so: nothing changes, no event
      return { type: enabled ? 'policy.enabled' : 'policy.disabled', data: { at: new Date().toISOString() } };
    });
    return { id, enabled: state.enabled, updated_at: state.updated_at };
  }

  async delete(id: string): Promise<DeletePolicyResponse> {
    await this.execute(id, async () => ({ type: 'policy.deleted', data: { at: new Date().toISOString() } }));
    return { deleted: true, id };
  }

  async get(id: string): Promise<PolicyResponse> {
    const policy = await this.policies.find(id);
    if (!policy) throw DomainException.notFound('policy', id, PolicyErrorCode.NotFound);
    return policy;
  }

  async list(request: ListPoliciesRequest): Promise<PolicyPage<PolicyListItem>> {
    const { rows, total } = await this.policies.list(request);
    return {
      data: rows,
      pagination: { total, page: request.page, per_page: request.per_page, has_more: request.page * request.per_page < total },
    };
  }

  /** Simulation with the engine the pipeline runs: nothing is stored, blocked or sent. */
  async test(request: TestPolicyRequest): Promise<TestPolicyResponse> {
    const policy = await this.get(request.id);
    const { sample } = request;
    const result = simulate(policy, {
      type: sample.type ?? 'database.query',
      severity: sample.severity,
      database_id: sample.database_id ?? policy.databases.find((d) => d !== '*') ?? 'db_simulation',
      timestamp: sample.timestamp ? Date.parse(sample.timestamp) : Date.now(),
      user: sample.user,
      source_ip: sample.source_ip,
      query: sample.query,
      client_application: sample.client_application,
      details: sample.details,
    });
    return { would_trigger: result.would_trigger, matched_conditions: result.matched_conditions, actions_would_execute: result.actions_would_execute };
  }

  async snapshots(): Promise<PolicySnapshot[]> {
    return this.policies.snapshots();
  }

  /** 404 for an id that never existed; a deleted policy still has its violations. */
  async assertKnown(id: string): Promise<void> {
    if (!(await this.policies.find(id, { includeDeleted: true }))) throw DomainException.notFound('policy', id, PolicyErrorCode.NotFound);
  }

  private checkConfig(policy: { id: string; name: string; type: PolicyState['type']; enabled: boolean; databases: string[]; config: unknown }) {
    const result = compilePolicy(policy, 'config', { forSave: true });
    if (!result.ok) {
      throw new DomainException(422, PolicyErrorCode.InvalidConfig, `The config is not valid for a ${policy.type} policy.`, result.errors);
    }
  }

  private async ensureNameFree(manager: EntityManager, name: string, exceptId?: string) {
    if (await this.policies.nameTaken(manager, name, exceptId)) throw nameTaken(name);
  }

  /** Load, decide, append at the loaded version; decided again when another writer got there first. */
  private async execute(
    id: string,
    decide: (manager: EntityManager, state: PolicyState) => Promise<PolicyStreamEvent | undefined>,
  ): Promise<PolicyState> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(async (manager) => {
          const state = fold(await this.store.readStream(manager, id));
          if (!state || state.deleted) throw DomainException.notFound('policy', id, PolicyErrorCode.NotFound);
          const event = await decide(manager, state);
          if (!event) return state;
          return this.commit(manager, state, event, id);
        });
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
        if (attempt >= MAX_ATTEMPTS) {
          throw new DomainException(409, PolicyErrorCode.ConcurrentUpdate, 'The policy was changed concurrently; retry the request.');
        }
      }
    }
  }

  private async commit(manager: EntityManager, state: PolicyState | undefined, event: PolicyStreamEvent, id: string): Promise<PolicyState> {
    const expected = state?.version ?? 0;
    const [stored] = await this.store.append(manager, id, expected, [event as NewEvent]);
    const next = applyEvent(state, event, stored!.version);
    try {
      await this.policies.project(manager, next);
    } catch (error) {
      if (isUniqueViolation(error, 'policies_name_live')) throw nameTaken(next.name);
      throw error;
    }
    const envelope: EventEnvelope<PolicyChanged> = {
      id: `${id}:${next.version}`,
      type: POLICY_UPDATED,
      schema_version: 1,
      occurred_at: next.updated_at,
      key: id,
      data: { change: event.type, policy: next, signature: await this.signer.sign(next) },
    };
    await this.outbox.enqueue(manager, Topics.policyEvents, [envelope]);
    // The administrative record of the change, in the same transaction (docs/events.md#administrative-actions).
    await this.audit.record(manager, {
      type: `vigil.${event.type}`,
      target: { type: 'policy', id },
      before: state ? auditView(state) : null,
      after: next.deleted ? null : auditView(next),
    });
    return next;
  }
}

/** The fields of a policy an administrative record shows (bookkeeping left out). */
function auditView(state: PolicyState): Record<string, unknown> {
  const { name, type, enabled, enforcement_mode, description, databases, config } = state;
  return { name, type, enabled, enforcement_mode, description, databases, config };
}

function nameTaken(name: string) {
  return new DomainException(409, PolicyErrorCode.NameTaken, `A policy named "${name}" already exists.`);
}
