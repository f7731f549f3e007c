import { type Static, type TLiteral, type TSchema, type TUnion, Type } from '@sinclair/typebox';
import { AuditEventTypes, EventSeverities } from '@vigil/contracts';

/**
 * The configuration of each policy type as JSON Schema (TypeBox): the same definitions validate
 * configurations at save time and are published in the OpenAPI document. Unknown fields are
 * refused everywhere, so a typo never silently disables a condition.
 */
export const PolicySeverities = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type PolicySeverity = (typeof PolicySeverities)[number];

export const AlertTypes = ['policy_violation', 'anomaly_detection', 'threshold_breach', 'classification_alert'] as const;
export type AlertType = (typeof AlertTypes)[number];

const literalUnion = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<{ [K in keyof T]: TLiteral<T[K]> }[number][]>;

const closed = { additionalProperties: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 200 });
const StringList = (description: string, maxItems = 1000) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems, description });

const Severity = literalUnion(PolicySeverities, { description: 'critical, high, medium, low or info' });

const Channels = StringList('notification channel names (alert destinations by name or id)', 50);

/** Actions of access_control and data_protection policies. */
export const PolicyActionSchema = Type.Object(
  {
    type: literalUnion(['block', 'alert', 'log'] as const, {
      description: '`block`: the operation is refused (recorded as `blocked`); `alert`: an alert is raised; `log`: only recorded as a policy match',
    }),
    severity: Type.Optional(Severity),
    channels: Type.Optional(Channels),
  },
  closed,
);

export const TimeWindowSchema = Type.Object(
  {
    start: Type.String({ description: 'HH:MM, inclusive', maxLength: 5 }),
    end: Type.String({ description: 'HH:MM, exclusive; an end not after start crosses midnight', maxLength: 5 }),
    timezone: Type.Optional(Type.String({ description: 'IANA zone name, default UTC', maxLength: 64 })),
    days: Type.Optional(
      Type.Array(Type.String({ maxLength: 16 }), { maxItems: 7, description: 'lowercase weekday names; the day a window starts on; default every day' }),
    ),
  },
  closed,
);

export const AccessControlConfigSchema = Type.Object(
  {
    conditions: Type.Object(
      {
        users: Type.Optional(StringList('database users the policy governs; omitted or empty = every user')),
        time_window: Type.Optional(TimeWindowSchema),
        allowed_ips: Type.Optional(StringList('IPv4 or IPv6 CIDR ranges (or single addresses) access is allowed from')),
      },
      closed,
    ),
    actions: Type.Array(PolicyActionSchema, { minItems: 1, maxItems: 10 }),
  },
  { ...closed, title: 'access_control config', description: 'Access outside time_window or from outside allowed_ips by a governed user violates the policy.' },
);

export const QueryRuleSchema = Type.Object(
  {
    name: Name,
    pattern: Type.String({ minLength: 1, maxLength: 4096, description: 'RE2 regular expression searched in the query' }),
    action: literalUnion(['block', 'alert', 'log'] as const),
    severity: Type.Optional(Severity),
    message: Type.Optional(Type.String({ maxLength: 1000 })),
    case_sensitive: Type.Optional(Type.Boolean({ description: 'default false: SQL keywords match in any case' })),
    channels: Type.Optional(Channels),
  },
  closed,
);

const ExceptionsSchema = Type.Object(
  {
    users: Type.Optional(StringList('database users exempt from the rules (the user the database authenticated)')),
    applications: Type.Optional(
      StringList(
        'narrows the user exemption: with `users`, only those users connected with one of these client applications (application_name) are exempt. ' +
          'Refused (422) without `users`: application_name is chosen by the database client and cannot be trusted alone',
      ),
    ),
  },
  {
    ...closed,
    description:
      'who the rules do not apply to: `users` alone exempts those users; `users` with `applications` exempts only those users using those applications; `applications` alone is refused',
  },
);

export const QueryControlConfigSchema = Type.Object(
  {
    rules: Type.Array(QueryRuleSchema, { minItems: 1, maxItems: 100 }),
    exceptions: Type.Optional(ExceptionsSchema),
  },
  { ...closed, title: 'query_control config' },
);

export const MaskingMethods = ['redact', 'partial', 'hash', 'null'] as const;
export type MaskingMethod = (typeof MaskingMethods)[number];

export const ProtectionRuleSchema = Type.Object(
  {
    name: Name,
    columns: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
        maxItems: 200,
        description: '`column`, `table.column` or `*.column` (case-insensitive); referenced in a query = access',
      }),
    ),
    classifications: Type.Optional(
      StringList('data classes (e.g. pii, pci); matched against details.classifications of the event', 50),
    ),
    method: literalUnion(MaskingMethods, {
      description: '`redact`: replaced by ***; `partial`: only show_first/show_last characters kept; `hash`: SHA-256; `null`: NULL',
    }),
    show_first: Type.Optional(Type.Integer({ minimum: 0, maximum: 64, description: 'partial: leading characters kept (default 0)' })),
    show_last: Type.Optional(Type.Integer({ minimum: 0, maximum: 64, description: 'partial: trailing characters kept (default 4)' })),
  },
  closed,
);

export const DataProtectionConfigSchema = Type.Object(
  {
    rules: Type.Array(ProtectionRuleSchema, { minItems: 1, maxItems: 100 }),
    exceptions: Type.Optional(ExceptionsSchema),
    actions: Type.Optional(
      Type.Array(PolicyActionSchema, {
        maxItems: 10,
        description: 'beyond masking (always applied): `alert` or `block` make an access a violation; default none = a policy match',
      }),
    ),
  },
  { ...closed, title: 'data_protection config', description: 'Masks protected columns or classified data in query results for everyone but the exceptions.' },
);

export const EventFields = ['type', 'severity', 'user', 'source_ip', 'query', 'client_application', 'session_id', 'database_id'] as const;

export const FieldConditionSchema = Type.Object(
  {
    field: Type.String({ minLength: 1, maxLength: 200, description: `${EventFields.join(', ')} or details.<key>` }),
    operator: literalUnion(['equals', 'not_equals', 'in', 'contains', 'matches', 'exists', 'gt', 'gte', 'lt', 'lte'] as const),
    value: Type.Optional(Type.Unknown({ description: 'string, number, boolean, or an array for `in`; RE2 pattern for `matches`' })),
  },
  closed,
);

export const ThresholdGroupBy = ['user', 'source_ip', 'database_id', 'client_application', 'session_id'] as const;

export const AlertingConfigSchema = Type.Object(
  {
    conditions: Type.Object(
      {
        event_types: Type.Optional(
          Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
            maxItems: 50,
            description: `event types of the events catalog (${AuditEventTypes.length} types), \`prefix.*\` or \`*\``,
          }),
        ),
        severities: Type.Optional(Type.Array(literalUnion(EventSeverities), { maxItems: 3 })),
        users: Type.Optional(StringList('only events of these users')),
        fields: Type.Optional(Type.Array(FieldConditionSchema, { maxItems: 20, description: 'all must hold' })),
        threshold: Type.Optional(
          Type.Object(
            {
              count: Type.Integer({ minimum: 1, maximum: 100_000 }),
              window_minutes: Type.Integer({ minimum: 1, maximum: 1440 }),
              group_by: Type.Optional(Type.Array(literalUnion(ThresholdGroupBy), { maxItems: 5 })),
            },
            { ...closed, description: 'raise the alert when `count` matching events of one group occur within `window_minutes`' },
          ),
        ),
      },
      closed,
    ),
    alert: Type.Object(
      {
        severity: Severity,
        type: Type.Optional(literalUnion(AlertTypes, { description: 'default threshold_breach with a threshold, else policy_violation' })),
        title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        message: Type.Optional(Type.String({ maxLength: 1000 })),
        channels: Type.Optional(Channels),
      },
      closed,
    ),
  },
  { ...closed, title: 'alerting config' },
);

export type PolicyAction = Static<typeof PolicyActionSchema>;
export type AccessControlConfig = Static<typeof AccessControlConfigSchema>;
export type QueryControlConfig = Static<typeof QueryControlConfigSchema>;
export type DataProtectionConfig = Static<typeof DataProtectionConfigSchema>;
export type AlertingConfig = Static<typeof AlertingConfigSchema>;
export type FieldCondition = Static<typeof FieldConditionSchema>;

export const PolicyConfigSchemas = {
  access_control: AccessControlConfigSchema,
  data_protection: DataProtectionConfigSchema,
  query_control: QueryControlConfigSchema,
  alerting: AlertingConfigSchema,
} as const satisfies Record<string, TSchema>;

/** The schemas as plain JSON Schema objects (no TypeBox symbols), for the OpenAPI document. */
export function policyConfigJsonSchemas(): Record<keyof typeof PolicyConfigSchemas, Record<string, unknown>> {
  return JSON.parse(JSON.stringify(PolicyConfigSchemas));
}
