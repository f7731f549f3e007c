import { Type, type Static } from '@sinclair/typebox';
import { createValidator } from '../validation';
import { AuditEventTypes, EventSeverities } from './catalog';

export const DATABASE_ID_PATTERN = '^db_[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$';

/**
 * Details carried by an audit record. The well-known keys are typed; producers may add others,
 * which are stored as given.
 */
export const AuditDetailsSchema = Type.Object(
  {
    user: Type.Optional(Type.String({ maxLength: 256 })),
    source_ip: Type.Optional(Type.String({ maxLength: 64 })),
    query: Type.Optional(Type.String({ maxLength: 262_144 })),
    session_id: Type.Optional(Type.String({ maxLength: 256 })),
    client_application: Type.Optional(Type.String({ maxLength: 256 })),
    threat_type: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: true },
);

/** One audit record as published by an internal producer on `audit.ingest` or posted to /v1/events/ingest. */
export const AuditRecordSchema = Type.Object(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Producer-chosen idempotency key' }),
    ),
    type: Type.Union(AuditEventTypes.map((t) => Type.Literal(t))),
    database_id: Type.String({ pattern: DATABASE_ID_PATTERN }),
    timestamp: Type.Optional(Type.String({ format: 'date-time' })),
    severity: Type.Optional(Type.Union(EventSeverities.map((s) => Type.Literal(s)))),
    details: Type.Optional(AuditDetailsSchema),
  },
  { additionalProperties: false },
);

export type AuditRecord = Static<typeof AuditRecordSchema>;
export const auditRecordValidator = createValidator(AuditRecordSchema);

/** Limits of POST /v1/events/ingest. */
export const IngestLimits = { maxRecords: 1000, maxBodyBytes: 1024 * 1024 } as const;
