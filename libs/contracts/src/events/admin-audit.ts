import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

/**
 * Administrative audit events (`vigil.<resource>.<action>`): one per state change made through the
 * API, and one per login success or failure and refresh-token reuse (docs/events.md#administrative-actions).
 * Each type with its severity; every one of them is reserved to Vigil (see ReservedEventTypes).
 */
export const AdminAuditCatalog = {
  'vigil.policy.created': 'info',
  'vigil.policy.updated': 'info',
  'vigil.policy.deleted': 'warning',
  'vigil.policy.enabled': 'info',
  'vigil.policy.disabled': 'warning',
  'vigil.api_key.created': 'info',
  'vigil.api_key.revoked': 'info',
  'vigil.user.created': 'info',
  'vigil.user.updated': 'info',
  'vigil.user.disabled': 'warning',
  'vigil.user.deleted': 'warning',
  'vigil.user.password_reset': 'warning',
  'vigil.user.password_changed': 'info',
  'vigil.oauth_client.created': 'info',
  'vigil.oauth_client.secret_rotated': 'info',
  'vigil.oauth_client.deleted': 'warning',
  'vigil.api_key.rotated': 'info',
  'vigil.signing_key.rotated': 'info',
  'vigil.integrity_key.rotated': 'info',
  'vigil.secret.reencrypted': 'info',
  'vigil.token.revoked': 'info',
  'vigil.session.login_succeeded': 'info',
  'vigil.session.login_failed': 'warning',
  'vigil.session.refreshed': 'info',
  'vigil.session.refresh_reused': 'critical',
  'vigil.session.logged_out': 'info',
  'vigil.session.revoked': 'warning',
  'vigil.oauth.authorized': 'info',
  'vigil.oauth.token_issued': 'info',
  'vigil.webhook.created': 'info',
  'vigil.webhook.updated': 'info',
  'vigil.webhook.deleted': 'info',
  'vigil.webhook.tested': 'info',
  'vigil.webhook.redelivered': 'info',
  'vigil.alert_destination.created': 'info',
  'vigil.alert_destination.updated': 'info',
  'vigil.alert_destination.deleted': 'info',
  'vigil.alert.tested': 'info',
  'vigil.alert.acknowledged': 'info',
  'vigil.alert.resolved': 'info',
  'vigil.alert.escalated': 'warning',
  'vigil.database.registered': 'info',
  'vigil.database.updated': 'info',
  'vigil.database.deleted': 'warning',
  'vigil.report.requested': 'info',
  'vigil.report.deleted': 'info',
  'vigil.report_schedule.created': 'info',
  'vigil.report_schedule.updated': 'info',
  'vigil.report_schedule.deleted': 'info',
} as const;

export type AdminAuditType = keyof typeof AdminAuditCatalog;
export const AdminAuditTypes = Object.keys(AdminAuditCatalog) as AdminAuditType[];

export function isAdminAuditType(value: string): value is AdminAuditType {
  return Object.prototype.hasOwnProperty.call(AdminAuditCatalog, value);
}

/** The `database_id` of events about Vigil itself (vigil.*, audit.checkpoint): no monitored database. */
export const VIGIL_DATABASE_ID = 'vigil';

/** Who acted: the authenticated principal, or Vigil itself for work it does on its own. */
export const ActorKinds = ['user', 'api_key', 'oauth_client', 'system', 'anonymous'] as const;
export type ActorKind = (typeof ActorKinds)[number];

/**
 * `ingested_by` of a stored event: the principal of POST /v1/events/ingest, the internal producer
 * of `audit.ingest` (`producer`), the pg-proxy (`proxy`) or Vigil itself (`system`, for derived
 * and vigil.* events).
 */
export const IngesterKinds = ['user', 'api_key', 'oauth_client', 'producer', 'proxy', 'system'] as const;
export type IngesterKind = (typeof IngesterKinds)[number];

export const IngestedBySchema = Type.Union([
  Type.Object(
    {
      kind: Type.Union(IngesterKinds.map((k) => Type.Literal(k))),
      id: Type.String({ minLength: 1, maxLength: 200 }),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);
export type IngestedBy = Static<typeof IngestedBySchema>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/**
 * The `details` of a vigil.* event, and the data of the envelope a service writes to its outbox
 * (topic `vigil.audit.v1`) in the transaction of the change. Never a secret, hash or token:
 * `changes` holds the changed fields only, with secret-named fields replaced by "[redacted]".
 */
export const AdminAuditDetailsSchema = Type.Object({
  actor: Type.Object({
    kind: Type.Union(ActorKinds.map((k) => Type.Literal(k))),
    id: Nullable(Type.String({ maxLength: 200 })),
  }),
  source_ip: Nullable(Type.String({ maxLength: 64 })),
  user_agent: Nullable(Type.String({ maxLength: 512 })),
  correlation_id: Nullable(Type.String({ maxLength: 200 })),
  /** The service that made the change (auth, policy, delivery, event-ingest). */
  service: Type.String({ minLength: 1, maxLength: 64 }),
  target: Type.Object({ type: Type.String({ minLength: 1, maxLength: 64 }), id: Nullable(Type.String({ maxLength: 200 })) }),
  changes: Type.Object({
    before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  }),
  /** The login name of a login attempt (succeeded or failed); absent otherwise. */
  subject: Type.Optional(Type.String({ maxLength: 320 })),
  /** Why an attempt failed (login failures, refresh reuse); absent otherwise. */
  reason: Type.Optional(Type.String({ maxLength: 200 })),
});
export type AdminAuditDetails = Static<typeof AdminAuditDetailsSchema>;

/** The envelope on `vigil.audit.v1`: `id` is the id the event is stored under (`evt_...`). */
export const validateAdminAuditEnvelope = createEnvelopeValidator(AdminAuditDetailsSchema);
