import { DEFAULT_ENFORCEMENT_MODE, type PolicyEnforcementMode, type PolicySnapshot, type PolicyType } from '@vigil/contracts';

/**
 * The policy aggregate: its state is the fold of its stream's events, and commands are decided
 * against that state. Pure code, so the same fold serves commands, projections and the rebuild.
 */
export interface PolicyFields {
  name: string;
  type: PolicyType;
  enabled: boolean;
  /** Absent from events stored before the field existed: those policies are enforced. */
  enforcement_mode?: PolicyEnforcementMode;
  description: string;
  databases: string[];
  config: Record<string, unknown>;
}

export type PolicyChange = Partial<PolicyFields>;

export type PolicyStreamEvent =
  | { type: 'policy.created'; data: PolicyFields & { id: string; at: string } }
  | { type: 'policy.updated'; data: { changes: PolicyChange; at: string } }
  | { type: 'policy.enabled'; data: { at: string } }
  | { type: 'policy.disabled'; data: { at: string } }
  | { type: 'policy.deleted'; data: { at: string } };

export type PolicyState = PolicySnapshot;

export class UnknownPolicyEvent extends Error {}

export function applyEvent(state: PolicyState | undefined, event: PolicyStreamEvent, version: number): PolicyState {
  if (event.type === 'policy.created') {
    const { at, ...fields } = event.data;
    return { ...fields, enforcement_mode: fields.enforcement_mode ?? DEFAULT_ENFORCEMENT_MODE, version, created_at: at, updated_at: at, deleted: false };
  }
  if (!state) throw new UnknownPolicyEvent(`${event.type} before policy.created`);
  switch (event.type) {
    case 'policy.updated':
      return { ...state, ...event.data.changes, version, updated_at: event.data.at };
    case 'policy.enabled':
      return { ...state, enabled: true, version, updated_at: event.data.at };
    case 'policy.disabled':
      return { ...state, enabled: false, version, updated_at: event.data.at };
    case 'policy.deleted':
      return { ...state, enabled: false, deleted: true, version, updated_at: event.data.at };
    default:
      throw new UnknownPolicyEvent(`unknown policy event ${(event as { type: string }).type}`);
  }
}

export function fold(events: { type: string; data: unknown; version: number }[]): PolicyState | undefined {
  let state: PolicyState | undefined;
  for (const event of events) state = applyEvent(state, event as PolicyStreamEvent, event.version);
  return state;
}

/** The fields of `changes` that differ from the state: an update that changes nothing is no event. */
export function effectiveChanges(state: PolicyState, changes: PolicyChange): PolicyChange {
  const out: PolicyChange = {};
  for (const [key, value] of Object.entries(changes) as [keyof PolicyFields, unknown][]) {
    if (value === undefined) continue;
    if (JSON.stringify(state[key]) !== JSON.stringify(value)) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}
