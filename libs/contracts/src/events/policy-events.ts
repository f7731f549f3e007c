import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

export const PolicyTypes = ['access_control', 'data_protection', 'query_control', 'alerting'] as const;
export type PolicyType = (typeof PolicyTypes)[number];

/** The full state of a policy after a change; consumers keep it as their local view. */
export const PolicySnapshotSchema = Type.Object({
  id: Type.String({ pattern: '^pol_' }),
  name: Type.String(),
  type: Type.Union(PolicyTypes.map((t) => Type.Literal(t))),
  enabled: Type.Boolean(),
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

/** Payload of every message on `policy.events.v1`: what changed and the resulting state. */
export const PolicyChangedSchema = Type.Object({
  change: Type.Union(PolicyEventTypes.map((t) => Type.Literal(t))),
  policy: PolicySnapshotSchema,
});
export type PolicyChanged = Static<typeof PolicyChangedSchema>;
export const policyChangedValidator = createEnvelopeValidator(PolicyChangedSchema);
