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
  },
  events: {
    ingest: 'event-ingest.events.ingest',
    get: 'event-ingest.events.get',
  },
  policies: {
    create: 'policy.policies.create',
    get: 'policy.policies.get',
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
