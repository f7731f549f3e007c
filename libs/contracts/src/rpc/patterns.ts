import type { AuditEvent } from '../events/audit-event';
import type { AuditRecord } from '../events/audit-record';

/**
 * Request-response patterns between the gateway and the services (TCP transport).
 * Names read `<service>.<resource>.<verb>`.
 */
export const RpcPatterns = {
  auth: {
    login: 'auth.login',
    jwks: 'auth.jwks',
    refresh: 'auth.refresh',
    usersCreate: 'auth.users.create',
    usersList: 'auth.users.list',
    usersGet: 'auth.users.get',
    usersUpdate: 'auth.users.update',
    usersDelete: 'auth.users.delete',
    usersResetPassword: 'auth.users.reset-password',
    usersChangeOwnPassword: 'auth.users.change-own-password',
    sessionsRevokeAll: 'auth.sessions.revoke-all',
    sessionsLogout: 'auth.sessions.logout',
    signingKeysRotate: 'auth.signing-keys.rotate',
    apiKeysCreate: 'auth.api-keys.create',
    apiKeysList: 'auth.api-keys.list',
    apiKeysRevoke: 'auth.api-keys.revoke',
    apiKeysVerify: 'auth.api-keys.verify',
    apiKeysTouch: 'auth.api-keys.touch',
    apiKeysRotate: 'auth.api-keys.rotate',
    oauthClientsCreate: 'auth.oauth-clients.create',
    oauthClientsList: 'auth.oauth-clients.list',
    oauthClientsDelete: 'auth.oauth-clients.delete',
    oauthClientsRotateSecret: 'auth.oauth-clients.rotate-secret',
    oauthAuthorize: 'auth.oauth.authorize',
    oauthAuthorizeComplete: 'auth.oauth.authorize-complete',
    oauthToken: 'auth.oauth.token',
    oauthRevoke: 'auth.oauth.revoke',
  },
  events: {
    ingest: 'event-ingest.events.ingest',
    get: 'event-ingest.events.get',
    list: 'event-ingest.events.list',
    aggregate: 'event-ingest.events.aggregate',
    search: 'event-ingest.events.search',
    replay: 'event-ingest.events.replay',
    position: 'event-ingest.events.position',
  },
  integrity: {
    keys: 'event-ingest.integrity.keys',
    rotateKey: 'event-ingest.integrity.keys.rotate',
    latestCheckpoint: 'event-ingest.integrity.checkpoints.latest',
    checkpoints: 'event-ingest.integrity.checkpoints.list',
    checkpoint: 'event-ingest.integrity.checkpoints.get',
    inclusionProof: 'event-ingest.integrity.proofs.inclusion',
    consistencyProof: 'event-ingest.integrity.proofs.consistency',
    leaves: 'event-ingest.integrity.leaves',
    startVerification: 'event-ingest.integrity.verifications.start',
    verification: 'event-ingest.integrity.verifications.get',
  },
  webhooks: {
    create: 'delivery.webhooks.create',
    list: 'delivery.webhooks.list',
    get: 'delivery.webhooks.get',
    update: 'delivery.webhooks.update',
    delete: 'delivery.webhooks.delete',
    test: 'delivery.webhooks.test',
    deliveries: 'delivery.webhooks.deliveries',
    delivery: 'delivery.webhooks.delivery',
    redeliver: 'delivery.webhooks.redeliver',
    redeliverOne: 'delivery.webhooks.redeliver-one',
  },
  alerts: {
    list: 'delivery.alerts.list',
    counts: 'delivery.alerts.counts',
    get: 'delivery.alerts.get',
    acknowledge: 'delivery.alerts.acknowledge',
    resolve: 'delivery.alerts.resolve',
    escalate: 'delivery.alerts.escalate',
    test: 'delivery.alerts.test',
    /** Alert figures of a compliance report (event-ingest's report generation; docs/reports.md#alerts). */
    report: 'delivery.alerts.report',
  },
  alertDestinations: {
    create: 'delivery.alert-destinations.create',
    list: 'delivery.alert-destinations.list',
    get: 'delivery.alert-destinations.get',
    update: 'delivery.alert-destinations.update',
    delete: 'delivery.alert-destinations.delete',
    deliveries: 'delivery.alert-destinations.deliveries',
  },
  policies: {
    create: 'policy.policies.create',
    get: 'policy.policies.get',
    list: 'policy.policies.list',
    update: 'policy.policies.update',
    delete: 'policy.policies.delete',
    enable: 'policy.policies.enable',
    disable: 'policy.policies.disable',
    test: 'policy.policies.test',
    /** The public keys that sign policy snapshots (every key still accepted, newest first). */
    signingKeys: 'policy.policies.signing-keys',
    violations: 'policy.policies.violations',
    snapshots: 'policy.policies.snapshots',
  },
  databases: {
    create: 'event-ingest.databases.create',
    list: 'event-ingest.databases.list',
    get: 'event-ingest.databases.get',
    update: 'event-ingest.databases.update',
    delete: 'event-ingest.databases.delete',
  },
  reports: {
    types: 'event-ingest.reports.types',
    create: 'event-ingest.reports.create',
    list: 'event-ingest.reports.list',
    get: 'event-ingest.reports.get',
    content: 'event-ingest.reports.content',
    delete: 'event-ingest.reports.delete',
    schedulesCreate: 'event-ingest.report-schedules.create',
    schedulesList: 'event-ingest.report-schedules.list',
    schedulesGet: 'event-ingest.report-schedules.get',
    schedulesUpdate: 'event-ingest.report-schedules.update',
    schedulesDelete: 'event-ingest.report-schedules.delete',
  },
} as const;

/**
 * Error crossing an RPC boundary: the fields of a problem document without its HTTP framing.
 * The gateway turns it into an RFC 9457 document with the same status and code.
 */
export interface RpcProblem {
  status: number;
  code: string;
  title: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

export function isRpcProblem(value: unknown): value is RpcProblem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === 'number' && typeof v.code === 'string' && typeof v.title === 'string';
}

export interface LoginRequest {
  email: string;
  password: string;
  correlation_id?: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
}

/**
 * The one algorithm of access tokens: auth signs with it, the gateway accepts nothing else. ECDSA
 * P-256 rather than EdDSA because the gateway verifies with passport-jwt (jsonwebtoken), which has
 * no EdDSA.
 */
export const ACCESS_TOKEN_ALGORITHM = 'ES256';

export interface JsonWebKeySet {
  keys: (Record<string, unknown> & { kid: string; alg: string })[];
}

export interface IngestRequest {
  records: AuditRecord[];
  correlation_id?: string;
}

export interface IngestResponse {
  accepted: number;
  ids: string[];
}

export interface GetEventRequest {
  id: string;
}

export type EventResponse = AuditEvent & { database_name: string | null; related_events: string[] };
