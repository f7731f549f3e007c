import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

/** Database engines a registered database may be (docs/reports.md#databases). */
export const DatabaseTypes = ['postgresql', 'mysql', 'mariadb', 'sqlserver', 'oracle', 'mongodb', 'db2', 'snowflake', 'redshift', 'cockroachdb', 'other'] as const;
export type DatabaseType = (typeof DatabaseTypes)[number];

export const DatabaseEnvironments = ['production', 'staging', 'development', 'test', 'other'] as const;

/** `registered`: someone gave its details; `discovered`: only named by audit records or policies so far. */
export const DatabaseStatuses = ['registered', 'discovered'] as const;
export type DatabaseStatus = (typeof DatabaseStatuses)[number];

/** What monitoring of the database's event flow concluded (docs/reports.md#connection-events). */
export const DatabaseConnectionStates = ['unknown', 'connected', 'disconnected', 'error'] as const;
export type DatabaseConnectionState = (typeof DatabaseConnectionStates)[number];

export const DatabaseListLimits = { defaultPerPage: 20, maxPerPage: 100 } as const;

export interface DatabaseResponse {
  id: string;
  name: string;
  type: DatabaseType | null;
  host: string | null;
  port: number | null;
  database: string | null;
  environment: string | null;
  description: string;
  tags: string[];
  status: DatabaseStatus;
  connection_status: DatabaseConnectionState;
  connection_status_changed_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  first_event_at: string | null;
  last_event_at: string | null;
  event_count: number;
  event_counts: { info: number; warning: number; critical: number };
}

export interface CreateDatabaseRequest {
  id?: string;
  name: string;
  type: DatabaseType;
  host?: string;
  port?: number;
  database?: string;
  environment?: string;
  description?: string;
  tags?: string[];
}

export interface UpdateDatabaseRequest {
  id: string;
  changes: Partial<Omit<CreateDatabaseRequest, 'id'>>;
}

export interface ListDatabasesRequest {
  status?: DatabaseStatus;
  type?: string;
  environment?: string;
  tag?: string;
  connection_status?: DatabaseConnectionState;
  q?: string;
  page: number;
  per_page: number;
}

export interface DatabasePage {
  data: DatabaseResponse[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

/** Webhook types of the `databases` group. */
export const DatabaseWebhookTypes = ['database.connected', 'database.disconnected', 'database.error'] as const;

/**
 * Payload on `database.status.v1` (key: database id; producer: event-ingest, outbox; consumer:
 * delivery webhooks). The envelope type is one of DatabaseWebhookTypes.
 */
export const DatabaseStatusChangedSchema = Type.Object({
  database_id: Type.String({ pattern: '^db_' }),
  name: Type.String(),
  database_type: Type.Union([Type.String(), Type.Null()]),
  environment: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  connection_status: Type.String(),
  previous_connection_status: Type.String(),
  reason: Type.String(),
  message: Type.Optional(Type.String()),
  last_event_at: Type.Union([Type.String(), Type.Null()]),
  changed_at: Type.String({ format: 'date-time' }),
});
export type DatabaseStatusChanged = Static<typeof DatabaseStatusChangedSchema>;
export const databaseStatusChangedValidator = createEnvelopeValidator(DatabaseStatusChangedSchema);
