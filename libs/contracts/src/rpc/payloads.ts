import { type TSchema, Type } from '@sinclair/typebox';
import { Scopes } from '../access/access';
import { AggregateBuckets, AggregateGroupFields, AggregateMetrics } from '../events/events-api';
import { EventSeverities } from '../events/catalog';
import { RpcPatterns } from './patterns';

/**
 * The schema of RPC payloads, checked by the receiving service before its handler runs
 * (RpcCallerGuard in @vigil/platform): what a handler gets is what its contract says, whoever sent
 * it. Every value that becomes part of SQL text (a bucket, a metric name, a group field, a limit,
 * an offset) is an enumerated value or a bounded integer here; free text (a user name, a query
 * substring) travels only as a bind parameter, so any text is a legitimate value for it.
 */

const int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const text = (maxLength: number) => Type.String({ maxLength });
const id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,64}$` });
const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
const dateTime = Type.String({ format: 'date-time', maxLength: 40 });
const sequence = Type.String({ pattern: '^\\d{1,19}$' });
const cursor = Type.String({ pattern: '^[A-Za-z0-9_-]{1,2000}$' });

const EventFiltersSchema = Type.Object(
  {
    types: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)*$', maxLength: 100 }), { maxItems: 500 })),
    severities: Type.Optional(Type.Array(literals(EventSeverities), { maxItems: 3 })),
    database_ids: Type.Optional(Type.Array(Type.String({ pattern: '^db_[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$' }), { maxItems: 500 })),
    start: Type.Optional(dateTime),
    end: Type.Optional(dateTime),
    users: Type.Optional(Type.Array(text(256), { maxItems: 100 })),
    source_ips: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9A-Fa-f:.]{2,45}$' }), { maxItems: 100 })),
    operations: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z]{1,32}$' }), { maxItems: 50 })),
    query_contains: Type.Optional(text(500)),
  },
  { additionalProperties: false },
);

const BoundedFiltersSchema = Type.Intersect([EventFiltersSchema, Type.Object({ start: dateTime, end: dateTime })]);

const scopes = Type.Array(literals(Scopes), { maxItems: Scopes.length });
const page = { page: int(1, 1_000_000), per_page: int(1, 1000) };

export const RpcPayloadSchemas: Partial<Record<string, TSchema>> = {
  // event-ingest: every request whose values reach a query.
  [RpcPatterns.events.list]: Type.Object(
    { filters: EventFiltersSchema, page: int(1, 1_000_000), limit: int(1, 1000), cursor: Type.Optional(cursor), snapshot: Type.Optional(sequence) },
    { additionalProperties: false },
  ),
  [RpcPatterns.events.aggregate]: Type.Object(
    {
      filters: BoundedFiltersSchema,
      metrics: Type.Array(literals(AggregateMetrics), { minItems: 1, maxItems: AggregateMetrics.length }),
      group_by: Type.Array(literals(AggregateGroupFields), { maxItems: 4 }),
      bucket: Type.Optional(literals(AggregateBuckets)),
      limit: int(1, 10_000),
    },
    { additionalProperties: false },
  ),
  [RpcPatterns.events.search]: Type.Object({ filters: BoundedFiltersSchema, limit: int(1, 1000), cursor: Type.Optional(cursor) }, { additionalProperties: false }),
  [RpcPatterns.events.replay]: Type.Object(
    { after_seq: sequence, until_seq: Type.Optional(sequence), filters: EventFiltersSchema, limit: int(1, 10_000) },
    { additionalProperties: false },
  ),
  [RpcPatterns.events.position]: Type.Object({ id: Type.Optional(id('evt')) }, { additionalProperties: false }),
  [RpcPatterns.events.get]: Type.Object({ id: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
  // auth: credentials and the scopes they carry.
  [RpcPatterns.auth.apiKeysCreate]: Type.Object(
    { name: Type.String({ minLength: 1, maxLength: 200 }), scopes, expires_at: Type.Optional(Type.Union([dateTime, Type.Null()])), created_by: Type.String({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: false },
  ),
  [RpcPatterns.auth.apiKeysList]: Type.Object(page),
  [RpcPatterns.auth.apiKeysVerify]: Type.Object({ key: text(512) }, { additionalProperties: false }),
  [RpcPatterns.auth.apiKeysTouch]: Type.Object({ ids: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 10_000 }) }, { additionalProperties: false }),
  [RpcPatterns.auth.usersCreate]: Type.Object({ email: Type.String({ minLength: 3, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1024 }), scopes }),
  [RpcPatterns.auth.usersList]: Type.Object(page),
  [RpcPatterns.auth.oauthClientsList]: Type.Object(page),
  // policy: what enforcement points read.
  [RpcPatterns.policies.snapshots]: Type.Object({}),
  [RpcPatterns.policies.signingKeys]: Type.Object({}),
};
