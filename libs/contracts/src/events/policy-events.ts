import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

export const PolicyTypes = ['access_control', 'data_protection', 'query_control', 'alerting'] as const;
export type PolicyType = (typeof PolicyTypes)[number];

/**
 * How a policy's actions are carried out: `enforce` (blocks, masks and alerts happen) or `shadow`
 * (evaluated and recorded as "would block / would mask / would alert", nothing enforced, no alert
 * sent). docs/policies.md#shadow-mode
 */
export const PolicyEnforcementModes = ['enforce', 'shadow'] as const;
export type PolicyEnforcementMode = (typeof PolicyEnforcementModes)[number];
export const DEFAULT_ENFORCEMENT_MODE: PolicyEnforcementMode = 'enforce';

/** The mode of a snapshot: states announced before the field existed carry none and are enforced. */
export function enforcementModeOf(policy: { enforcement_mode?: PolicyEnforcementMode }): PolicyEnforcementMode {
  return policy.enforcement_mode ?? DEFAULT_ENFORCEMENT_MODE;
}

/** The full state of a policy after a change; consumers keep it as their local view. */
export const PolicySnapshotSchema = Type.Object({
  id: Type.String({ pattern: '^pol_' }),
  name: Type.String(),
  type: Type.Union(PolicyTypes.map((t) => Type.Literal(t))),
  enabled: Type.Boolean(),
  /** Always set by the policy service; optional because the compacted topic keeps states announced before it existed (read as `enforce`). */
  enforcement_mode: Type.Optional(Type.Union(PolicyEnforcementModes.map((m) => Type.Literal(m)))),
  description: Type.String(),
  databases: Type.Array(Type.String()),
  config: Type.Record(Type.String(), Type.Unknown()),
  version: Type.Integer({ minimum: 1 }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  deleted: Type.Boolean(),
});
export type PolicySnapshot = Static<typeof PolicySnapshotSchema>;

export const PolicyEventTypes = [
  'policy.created',
  'policy.updated',
  'policy.enabled',
  'policy.disabled',
  'policy.deleted',
] as const;
export type PolicyEventType = (typeof PolicyEventTypes)[number];

/** Purpose tag of the policy service's Ed25519 signature over a snapshot (signDocument). */
export const POLICY_SNAPSHOT_SIGNATURE_PURPOSE = 'vigil.policy-snapshot/v1';

export const DocumentSignatureSchema = Type.Object({
  key_id: Type.String({ minLength: 1, maxLength: 100 }),
  value: Type.String({ minLength: 1, maxLength: 200 }),
});

/**
 * Payload of every message on `policy.events.v1`: what changed and the resulting state, signed by
 * the policy service (enforcement points apply only snapshots whose signature verifies with a key
 * the policy service lists; states announced before signing existed carry none and are ignored).
 */
export const PolicyChangedSchema = Type.Object({
  change: Type.Union(PolicyEventTypes.map((t) => Type.Literal(t))),
  policy: PolicySnapshotSchema,
  signature: Type.Optional(DocumentSignatureSchema),
});
export type PolicyChanged = Static<typeof PolicyChangedSchema>;
export const policyChangedValidator = createEnvelopeValidator(PolicyChangedSchema);
