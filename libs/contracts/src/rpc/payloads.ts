import { type TSchema, Type } from '@sinclair/typebox';
import { OAuthGrantTypes, Scopes } from '../access/access';
import { AlertDeliveryStatuses } from '../alerts/alerts';
import { DatabaseConnectionStates, DatabaseEnvironments, DatabaseListLimits, DatabaseStatuses, DatabaseTypes } from '../databases/databases';
import { AlertSeverities } from '../events/alert-request';
import { DATABASE_ID_PATTERN, IngestLimits } from '../events/audit-record';
import { STORED_DATABASE_ID_PATTERN } from '../events/audit-event';
import { AuditEventTypes, EventSeverities } from '../events/catalog';
import { AggregateBuckets, AggregateGroupFields, AggregateMetrics } from '../events/events-api';
import { PolicyEnforcementModes, PolicyTypes } from '../events/policy-events';
import { IntegrityLimits } from '../integrity/integrity-api';
import { PolicyListLimits, PolicyListSorts, ViolationListLimits } from '../policies/policies-api';
import { REPORT_MAX_PERIOD_DAYS, ReportFormats, ReportListLimits, ReportStatuses, ReportTypes } from '../reports/reports';
import { DeliveryStatuses, WebhookLimits } from '../webhooks/webhooks';
import { RpcPatterns } from './patterns';

/**
 * The schema of every RPC payload (the `data` of an RPC message), checked by the receiving service
 * before its handler runs (RpcCallerGuard in @vigil/platform): what a handler gets is what its
 * contract says, whoever sent it. A pattern without a schema is refused, so the record below names
 * every pattern of RpcPatterns (the compiler checks it).
 *
 * Every value that becomes part of SQL text (an aggregate bucket, a metric or group field, a sort,
 * a limit, an offset, a page) is an enumerated value or a bounded integer here, and the service
 * turns it into SQL through a fixed table. Ids are checked by their prefix, timestamps by their
 * form. Free text (a user name, a query substring, a description) travels only as a bind
 * parameter, so any text within its length is a legitimate value for it.
 *
 * The schemas accept whatever the gateway sends after its own checks, and no more: values whose
 * meaning a service checks itself, answering with the field the public API names (a webhook's event
 * names, an alert destination's settings, a policy's config, each audit record of an ingest), are
 * checked here for their JSON type and size only.
 */

const int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const text = (maxLength: number, minLength = 0) => Type.String({ minLength, maxLength });
const strict = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object(properties, { additionalProperties: false });
const optional = <S extends TSchema>(schema: S) => Type.Optional(schema);
const nullable = <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]);
/** A field the gateway lets a client omit or send as null (`@IsOptional`), passed on as sent. */
const maybe = <S extends TSchema>(schema: S) => Type.Optional(nullable(schema));
const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));
/**
 * The form of an id made by Vigil: its prefix, then letters, digits, `_` or `-` (ULIDs; test ids
 * such as `alt_missing`). The gateway answers a path id of another form with 404 (no such
 * resource) before any call; a call carrying one is refused here.
 */
export const vigilIdPattern = (prefix: string): string => `^${prefix}_[0-9A-Za-z_-]{1,100}$`;
const id = (prefix: string) => Type.String({ pattern: vigilIdPattern(prefix) });
const databaseId = Type.String({ pattern: DATABASE_ID_PATTERN });
/** A timestamp the gateway made itself (toISOString). */
const dateTime = Type.String({ format: 'date-time', maxLength: 40 });
/** An ISO 8601 timestamp as a client wrote it and the gateway accepted it (dates, week dates, offsets). */
const isoTimestamp = Type.String({ pattern: '^[0-9][0-9TtWwZz:.,+ -]{3,39}$' });
const sequence = Type.String({ pattern: '^\\d{1,19}$' });
const cursor = Type.String({ pattern: '^[A-Za-z0-9_-]{1,2000}$' });
/** A word the service compares with its own list (answering with the public API's field name). */
const word = Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$' });
const empty = strict({});
const MAX_INDEX = Number.MAX_SAFE_INTEGER;

/** Tags and hosts of registered databases (the gateway checks the same patterns). */
export const DATABASE_TAG_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$';
export const DATABASE_HOST_PATTERN = '^[A-Za-z0-9._:[\\]-]{1,255}$';

const scopes = Type.Array(literals(Scopes), { maxItems: Scopes.length });
/** The credential that asked for a new credential: `user:usr_...`, `key:key_...` or `client:cli_...`. */
const createdBy = Type.String({ pattern: '^(user|key|client):[a-z]{1,10}_[0-9A-Za-z_-]{1,100}$' });
const accessPage = strict({ page: int(1, 1_000_000), per_page: int(1, 100) });
const page = (maxPage: number, maxPerPage: number) => ({ page: int(1, maxPage), per_page: int(1, maxPerPage) });

// ---- event-ingest: events --------------------------------------------------------------------

const EventFiltersSchema = strict({
  types: optional(Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)*$', maxLength: 100 }), { maxItems: 500 })),
  severities: optional(Type.Array(literals(EventSeverities), { maxItems: 3 })),
  database_ids: optional(Type.Array(Type.String({ pattern: STORED_DATABASE_ID_PATTERN }), { maxItems: 500 })),
  start: optional(dateTime),
  end: optional(dateTime),
  users: optional(Type.Array(text(256), { maxItems: 100 })),
  source_ips: optional(Type.Array(Type.String({ pattern: '^[0-9A-Fa-f:.]{2,45}$' }), { maxItems: 100 })),
  operations: optional(Type.Array(Type.String({ pattern: '^[A-Za-z]{1,32}$' }), { maxItems: 50 })),
  query_contains: optional(text(500)),
});

const BoundedFiltersSchema = Type.Intersect([EventFiltersSchema, Type.Object({ start: dateTime, end: dateTime })]);

// ---- policy ----------------------------------------------------------------------------------

const policyFields = {
  name: text(200, 1),
  type: literals(PolicyTypes),
  databases: Type.Array(Type.String({ pattern: `(${DATABASE_ID_PATTERN})|^\\*$` }), { maxItems: 100 }),
  /** Checked against the type's own schema by the policy service (422 with the field path). */
  config: Type.Object({}),
  description: text(2000),
  enabled: Type.Boolean(),
  enforcement_mode: literals(PolicyEnforcementModes),
};

// ---- delivery --------------------------------------------------------------------------------

/** Choices, bounds and what each auth type needs are checked by delivery (422 with the field path). */
const alertDestinationInput = (required: boolean) => {
  const setting = <S extends TSchema>(schema: S) => optional(nullable(schema));
  const strings = Type.Array(text(1000), { maxItems: 1000 });
  return strict({
    name: required ? text(1000, 1) : setting(text(1000, 1)),
    url: required ? text(10_000, 1) : setting(text(10_000, 1)),
    provider: setting(text(1000)),
    enabled: setting(Type.Boolean()),
    method: setting(text(1000)),
    auth_type: setting(text(1000)),
    auth_username: setting(text(1000)),
    auth_password: setting(text(10_000)),
    auth_token: setting(text(10_000)),
    api_key_header: setting(text(200)),
    api_key_value: setting(text(10_000)),
    hmac_secret: setting(text(10_000)),
    hmac_header: setting(text(200)),
    hmac_algorithm: setting(text(1000)),
    content_type: setting(text(1000)),
    custom_headers: setting(Type.Record(Type.String({ maxLength: 1000 }), Type.Unknown(), { maxProperties: 1000 })),
    payload_format: setting(text(1000)),
    payload_template: setting(text(1_000_000)),
    include_raw_event: setting(Type.Boolean()),
    severity_filter: setting(strings),
    alert_types: setting(strings),
    database_filter: setting(strings),
    rate_limit: setting(Type.Number()),
    timeout_seconds: setting(Type.Number()),
    retry_attempts: setting(Type.Number()),
    retry_delay_seconds: setting(Type.Number()),
    success_codes: setting(Type.Array(Type.Number(), { maxItems: 1000 })),
  });
};

const webhookEvents = Type.Array(text(100), { minItems: 1, maxItems: WebhookLimits.maxEvents });

// ---- event-ingest: databases and reports -----------------------------------------------------

const databaseFields = {
  name: text(200, 1),
  type: literals(DatabaseTypes),
  host: Type.String({ pattern: DATABASE_HOST_PATTERN }),
  port: int(1, 65535),
  database: text(200, 1),
  environment: literals(DatabaseEnvironments),
  description: text(2000),
  tags: Type.Array(Type.String({ pattern: DATABASE_TAG_PATTERN }), { maxItems: 50 }),
};

const reportDatabases = Type.Array(databaseId, { maxItems: 500 });
const reportFormats = Type.Array(literals(ReportFormats), { minItems: 1, maxItems: 20 });
const scheduleFields = {
  name: text(200, 1),
  type: literals(ReportTypes),
  cron: text(200, 9),
  timezone: text(64),
  period_days: int(1, REPORT_MAX_PERIOD_DAYS),
  databases: reportDatabases,
  formats: reportFormats,
  enabled: Type.Boolean(),
};

// ---- auth: OAuth (answers are values rendered by the gateway in RFC 6749 form) ---------------

const oauthText = text(8192);
const oauthClient = strict({
  client_id: optional(oauthText),
  client_secret: optional(oauthText),
  methods: Type.Array(literals(['client_secret_basic', 'client_secret_post'] as const), { maxItems: 2 }),
});

type Values<T> = T[keyof T];
/** Every pattern of RpcPatterns. */
export type RpcPattern = Values<{ [G in keyof typeof RpcPatterns]: Values<(typeof RpcPatterns)[G]> }>;

/** The alert list's filters, shared by the list and the counts. */
const alertFilters = {
  start_date: optional(isoTimestamp),
  end_date: optional(isoTimestamp),
  severity: optional(Type.Array(word, { maxItems: 100 })),
  status: optional(Type.Array(word, { maxItems: 100 })),
  type: optional(Type.Array(word, { maxItems: 150 })),
  database_id: optional(databaseId),
};

export const RpcPayloadSchemas: Readonly<Record<RpcPattern, TSchema>> = {
  // auth: credentials and the scopes they carry.
  [RpcPatterns.auth.login]: strict({ email: text(320, 3), password: text(1024, 1), correlation_id: optional(text(200)) }),
  [RpcPatterns.auth.jwks]: empty,
  [RpcPatterns.auth.refresh]: strict({ refresh_token: text(4096, 1) }),
  [RpcPatterns.auth.usersCreate]: strict({ email: text(320, 3), password: text(1024, 1), scopes }),
  [RpcPatterns.auth.usersList]: accessPage,
  [RpcPatterns.auth.usersGet]: strict({ id: id('usr') }),
  [RpcPatterns.auth.usersUpdate]: strict({ id: id('usr'), scopes: maybe(scopes), disabled: maybe(Type.Boolean()) }),
  [RpcPatterns.auth.usersDelete]: strict({ id: id('usr') }),
  [RpcPatterns.auth.usersResetPassword]: strict({ id: id('usr'), password: text(1024, 1) }),
  [RpcPatterns.auth.usersChangeOwnPassword]: strict({
    user_id: id('usr'),
    current_password: text(1024, 1),
    new_password: text(1024, 1),
    keep_session_id: optional(nullable(id('sess'))),
  }),
  [RpcPatterns.auth.sessionsRevokeAll]: strict({ id: id('usr') }),
  [RpcPatterns.auth.sessionsLogout]: strict({ user_id: id('usr'), session_id: id('sess') }),
  [RpcPatterns.auth.signingKeysRotate]: empty,
  [RpcPatterns.auth.apiKeysCreate]: strict({
    name: text(200, 1),
    scopes,
    expires_at: optional(nullable(isoTimestamp)),
    created_by: createdBy,
  }),
  [RpcPatterns.auth.apiKeysList]: accessPage,
  [RpcPatterns.auth.apiKeysRevoke]: strict({ id: id('key') }),
  [RpcPatterns.auth.apiKeysVerify]: strict({ key: text(512) }),
  [RpcPatterns.auth.apiKeysTouch]: strict({ ids: Type.Array(id('key'), { maxItems: 10_000 }) }),
  [RpcPatterns.auth.apiKeysRotate]: strict({ id: id('key'), overlap_seconds: maybe(int(0, 30 * 86_400)) }),
  [RpcPatterns.auth.oauthClientsCreate]: strict({
    name: text(200, 1),
    redirect_uris: Type.Array(text(2000), { maxItems: 20 }),
    grant_types: Type.Array(literals(OAuthGrantTypes), { minItems: 1, maxItems: 20 }),
    scopes: Type.Array(literals(Scopes), { minItems: 1, maxItems: 100 }),
    created_by: createdBy,
  }),
  [RpcPatterns.auth.oauthClientsList]: accessPage,
  [RpcPatterns.auth.oauthClientsDelete]: strict({ client_id: id('cli') }),
  [RpcPatterns.auth.oauthClientsRotateSecret]: strict({ client_id: id('cli'), overlap_seconds: maybe(int(0, 30 * 86_400)) }),
  [RpcPatterns.auth.oauthAuthorize]: strict({
    params: strict({
      client_id: optional(oauthText),
      redirect_uri: optional(oauthText),
      response_type: optional(oauthText),
      scope: optional(oauthText),
      state: optional(oauthText),
      code_challenge: optional(oauthText),
      code_challenge_method: optional(oauthText),
    }),
    user: optional(strict({ id: id('usr'), scopes: Type.Array(literals(Scopes), { maxItems: 100 }) })),
  }),
  [RpcPatterns.auth.oauthAuthorizeComplete]: strict({
    request_id: oauthText,
    csrf_token: oauthText,
    decision: literals(['approve', 'deny'] as const),
    email: optional(oauthText),
    password: optional(oauthText),
  }),
  [RpcPatterns.auth.oauthToken]: strict({ client: oauthClient, form: Type.Record(Type.String({ maxLength: 200 }), oauthText, { maxProperties: 100 }) }),
  [RpcPatterns.auth.oauthRevoke]: strict({ client: oauthClient, token: optional(oauthText), token_type_hint: optional(oauthText) }),

  // event-ingest: events. Each record of an ingest is checked by the ingest service against the
  // audit record schema (400 `invalid_records`, the field as `events[i]...`) and stored with COPY.
  [RpcPatterns.events.ingest]: strict({
    records: Type.Array(Type.Object({}), { minItems: 1, maxItems: IngestLimits.maxRecords }),
    correlation_id: optional(text(200)),
  }),
  [RpcPatterns.events.get]: strict({ id: id('evt') }),
  [RpcPatterns.events.list]: strict({ filters: EventFiltersSchema, page: int(1, 1_000_000), limit: int(1, 1000), cursor: optional(cursor), snapshot: optional(sequence) }),
  [RpcPatterns.events.aggregate]: strict({
    filters: BoundedFiltersSchema,
    metrics: Type.Array(literals(AggregateMetrics), { minItems: 1, maxItems: AggregateMetrics.length }),
    group_by: Type.Array(literals(AggregateGroupFields), { maxItems: 4 }),
    bucket: optional(literals(AggregateBuckets)),
    limit: int(1, 10_000),
  }),
  [RpcPatterns.events.search]: strict({ filters: BoundedFiltersSchema, limit: int(1, 1000), cursor: optional(cursor) }),
  [RpcPatterns.events.replay]: strict({ after_seq: sequence, until_seq: optional(sequence), filters: EventFiltersSchema, limit: int(1, 10_000) }),
  [RpcPatterns.events.position]: strict({ id: optional(id('evt')) }),

  // event-ingest: integrity.
  [RpcPatterns.integrity.keys]: empty,
  [RpcPatterns.integrity.rotateKey]: empty,
  [RpcPatterns.integrity.latestCheckpoint]: empty,
  [RpcPatterns.integrity.checkpoints]: strict(page(100_000, IntegrityLimits.maxCheckpointsPerPage)),
  [RpcPatterns.integrity.checkpoint]: strict({ tree_size: int(1, MAX_INDEX) }),
  [RpcPatterns.integrity.inclusionProof]: strict({ event_id: Type.String({ pattern: '^evt_[0-9a-z]{1,64}$' }), tree_size: optional(int(1, MAX_INDEX)) }),
  [RpcPatterns.integrity.consistencyProof]: strict({ first: int(1, MAX_INDEX), second: int(1, MAX_INDEX) }),
  [RpcPatterns.integrity.leaves]: strict({ from: int(0, MAX_INDEX), limit: int(1, IntegrityLimits.maxLeavesPerPage) }),
  [RpcPatterns.integrity.startVerification]: strict({ from_index: maybe(int(0, MAX_INDEX)), to_index: maybe(int(1, MAX_INDEX)), tree_size: maybe(int(1, MAX_INDEX)) }),
  [RpcPatterns.integrity.verification]: strict({ id: id('ver') }),

  // delivery: webhooks.
  [RpcPatterns.webhooks.create]: strict({
    url: text(WebhookLimits.maxUrlLength, 1),
    events: webhookEvents,
    secret: optional(text(WebhookLimits.maxSecretLength, WebhookLimits.minSecretLength)),
    description: optional(text(WebhookLimits.maxDescriptionLength)),
    active: optional(Type.Boolean()),
  }),
  [RpcPatterns.webhooks.list]: strict(page(1_000_000, 100)),
  [RpcPatterns.webhooks.get]: strict({ id: id('wh') }),
  [RpcPatterns.webhooks.update]: strict({
    id: id('wh'),
    url: optional(text(WebhookLimits.maxUrlLength, 1)),
    events: optional(webhookEvents),
    description: maybe(text(WebhookLimits.maxDescriptionLength)),
    active: optional(Type.Boolean()),
  }),
  [RpcPatterns.webhooks.delete]: strict({ id: id('wh') }),
  [RpcPatterns.webhooks.test]: strict({ id: id('wh'), event_type: text(100, 1) }),
  [RpcPatterns.webhooks.deliveries]: strict({ id: id('wh'), ...page(1_000_000, 100), status: optional(literals(DeliveryStatuses)) }),
  [RpcPatterns.webhooks.delivery]: strict({ id: id('wh'), delivery_id: id('whd') }),
  [RpcPatterns.webhooks.redeliver]: strict({
    id: id('wh'),
    statuses: optional(Type.Array(literals(['failed', 'held', 'succeeded'] as const), { maxItems: 3 })),
    since: optional(isoTimestamp),
    until: optional(isoTimestamp),
  }),
  [RpcPatterns.webhooks.redeliverOne]: strict({ id: id('wh'), delivery_id: id('whd') }),

  // delivery: alerts. The list's severities, statuses and types are checked by delivery (400 naming
  // `severity`, `status` or `type`, as the public API documents) and bound as parameters.
  [RpcPatterns.alerts.list]: strict({ ...alertFilters, ...page(1_000_000, 100) }),
  [RpcPatterns.alerts.counts]: strict(alertFilters),
  [RpcPatterns.alerts.get]: strict({ id: id('alt') }),
  [RpcPatterns.alerts.acknowledge]: strict({ id: id('alt') }),
  [RpcPatterns.alerts.resolve]: strict({ id: id('alt') }),
  /** An unknown target severity is delivery's 422. */
  [RpcPatterns.alerts.escalate]: strict({ id: id('alt'), severity: optional(word) }),
  [RpcPatterns.alerts.test]: strict({ destination_id: id('dest') }),
  [RpcPatterns.alerts.report]: strict({ period_start: dateTime, period_end: dateTime, databases: Type.Array(databaseId, { maxItems: 10_000 }), limit: int(1, 1000) }),

  // delivery: alert destinations.
  [RpcPatterns.alertDestinations.create]: alertDestinationInput(true),
  [RpcPatterns.alertDestinations.list]: strict(page(1_000_000, 100)),
  [RpcPatterns.alertDestinations.get]: strict({ id: id('dest') }),
  [RpcPatterns.alertDestinations.update]: strict({ id: id('dest'), changes: alertDestinationInput(false) }),
  [RpcPatterns.alertDestinations.delete]: strict({ id: id('dest') }),
  [RpcPatterns.alertDestinations.deliveries]: strict({ id: id('dest'), ...page(1_000_000, 100), status: optional(literals(AlertDeliveryStatuses)) }),

  // policy: management (the gateway) and what enforcement points read (pg-proxy, event-ingest).
  [RpcPatterns.policies.create]: strict({
    ...policyFields,
    description: maybe(policyFields.description),
    enabled: maybe(policyFields.enabled),
    enforcement_mode: optional(policyFields.enforcement_mode),
  }),
  [RpcPatterns.policies.get]: strict({ id: id('pol') }),
  [RpcPatterns.policies.list]: strict({
    type: optional(literals(PolicyTypes)),
    enabled: optional(Type.Boolean()),
    enforcement_mode: optional(literals(PolicyEnforcementModes)),
    database_id: optional(Type.String({ pattern: `(${DATABASE_ID_PATTERN})|^\\*$` })),
    sort: optional(literals(PolicyListSorts)),
    ...page(1_000_000, PolicyListLimits.maxPerPage),
  }),
  [RpcPatterns.policies.update]: strict({ id: id('pol'), changes: Type.Partial(strict(policyFields)) }),
  [RpcPatterns.policies.delete]: strict({ id: id('pol') }),
  [RpcPatterns.policies.enable]: strict({ id: id('pol') }),
  [RpcPatterns.policies.disable]: strict({ id: id('pol') }),
  [RpcPatterns.policies.test]: strict({
    id: id('pol'),
    sample: strict({
      query: maybe(text(262_144)),
      user: maybe(text(256)),
      source_ip: maybe(text(64)),
      timestamp: maybe(isoTimestamp),
      type: maybe(literals(AuditEventTypes)),
      severity: maybe(literals(EventSeverities)),
      client_application: maybe(text(256)),
      database_id: maybe(text(200)),
      details: maybe(Type.Object({})),
    }),
  }),
  [RpcPatterns.policies.signingKeys]: empty,
  [RpcPatterns.policies.violations]: strict({
    policy_id: id('pol'),
    start_date: optional(isoTimestamp),
    end_date: optional(isoTimestamp),
    severity: optional(Type.Array(literals(AlertSeverities), { maxItems: 100 })),
    user: optional(text(256)),
    page: int(1, 1_000_000),
    limit: int(1, ViolationListLimits.maxLimit),
  }),
  [RpcPatterns.policies.snapshots]: empty,

  // event-ingest: registered databases.
  [RpcPatterns.databases.create]: strict({
    id: maybe(databaseId),
    ...databaseFields,
    host: maybe(databaseFields.host),
    port: maybe(databaseFields.port),
    database: maybe(databaseFields.database),
    environment: maybe(databaseFields.environment),
    description: maybe(databaseFields.description),
    tags: maybe(databaseFields.tags),
  }),
  [RpcPatterns.databases.list]: strict({
    status: optional(literals(DatabaseStatuses)),
    type: optional(literals(DatabaseTypes)),
    environment: optional(literals(DatabaseEnvironments)),
    tag: optional(text(64)),
    connection_status: optional(literals(DatabaseConnectionStates)),
    q: optional(text(200)),
    ...page(100_000, DatabaseListLimits.maxPerPage),
  }),
  [RpcPatterns.databases.get]: strict({ id: databaseId }),
  [RpcPatterns.databases.update]: strict({ id: databaseId, changes: Type.Partial(strict(databaseFields)) }),
  [RpcPatterns.databases.delete]: strict({ id: databaseId }),

  // event-ingest: compliance reports and their schedules.
  [RpcPatterns.reports.types]: empty,
  [RpcPatterns.reports.create]: strict({
    type: literals(ReportTypes),
    period_start: isoTimestamp,
    period_end: isoTimestamp,
    databases: maybe(reportDatabases),
    formats: maybe(reportFormats),
  }),
  [RpcPatterns.reports.list]: strict({
    type: optional(literals(ReportTypes)),
    status: optional(literals(ReportStatuses)),
    schedule_id: optional(id('rps')),
    ...page(100_000, ReportListLimits.maxPerPage),
  }),
  [RpcPatterns.reports.get]: strict({ id: id('rpt') }),
  [RpcPatterns.reports.content]: strict({ id: id('rpt'), format: literals(ReportFormats) }),
  [RpcPatterns.reports.delete]: strict({ id: id('rpt') }),
  [RpcPatterns.reports.schedulesCreate]: strict({
    ...scheduleFields,
    timezone: maybe(scheduleFields.timezone),
    period_days: maybe(scheduleFields.period_days),
    databases: maybe(scheduleFields.databases),
    formats: maybe(scheduleFields.formats),
    enabled: maybe(scheduleFields.enabled),
  }),
  [RpcPatterns.reports.schedulesList]: strict(page(100_000, ReportListLimits.maxPerPage)),
  [RpcPatterns.reports.schedulesGet]: strict({ id: id('rps') }),
  [RpcPatterns.reports.schedulesUpdate]: strict({ id: id('rps'), changes: Type.Partial(strict(scheduleFields)) }),
  [RpcPatterns.reports.schedulesDelete]: strict({ id: id('rps') }),
};

/** The schema of a pattern's payload, or undefined for a string that is no pattern of RpcPatterns. */
export function rpcPayloadSchema(pattern: string): TSchema | undefined {
  return Object.hasOwn(RpcPayloadSchemas, pattern) ? RpcPayloadSchemas[pattern as RpcPattern] : undefined;
}
