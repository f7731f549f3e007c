import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

/** Envelope type of messages on `policy.violations.v1`. */
export const POLICY_VIOLATION_RECORDED = 'policy.violation.recorded';

/**
 * A policy violation as the API shows it. event-ingest creates it when an ingested
 * event violates an enabled policy; the policy service owns and stores it.
 */
export const PolicyViolationSchema = Type.Object({
  id: Type.String({ pattern: '^vio_' }),
  policy_id: Type.String({ pattern: '^pol_' }),
  timestamp: Type.String({ format: 'date-time' }),
  user: Type.Union([Type.String(), Type.Null()]),
  database: Type.String(),
  source_ip: Type.Union([Type.String(), Type.Null()]),
  query: Type.Union([Type.String(), Type.Null()]),
  matched_conditions: Type.Array(Type.String()),
  action_taken: Type.String(),
  severity: Type.String(),
});
export type PolicyViolation = Static<typeof PolicyViolationSchema>;

/**
 * Payload on `policy.violations.v1` (key: policy id; producer: event-ingest, outbox; consumer:
 * policy). `event_id` is the audit event that violated the policy, `violation_event_id` the
 * `policy.violation` audit event stored for it.
 */
export const PolicyViolationRecordedSchema = Type.Object({
  violation: PolicyViolationSchema,
  event_id: Type.String({ pattern: '^evt_' }),
  violation_event_id: Type.String({ pattern: '^evt_' }),
  policy_version: Type.Integer({ minimum: 1 }),
  reasons: Type.Array(Type.Object({ type: Type.String(), reason: Type.String() })),
});
export type PolicyViolationRecorded = Static<typeof PolicyViolationRecordedSchema>;
export const policyViolationRecordedValidator = createEnvelopeValidator(PolicyViolationRecordedSchema);
