import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AuditEventTypes, DATABASE_ID_PATTERN, EventSeverities, PolicyEnforcementModes, PolicyListLimits, type PolicyListSort, PolicyListSorts, PolicyTypes, ViolationListLimits } from '@vigil/contracts';
import { policyConfigJsonSchemas, PolicySeverities } from '@vigil/policy-engine';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { OptionalNotNull } from '@vigil/platform';

const DATABASE_OR_ALL = new RegExp(`(${DATABASE_ID_PATTERN})|^\\*$`);
const schemas = policyConfigJsonSchemas();
const configSchema = {
  description: 'Depends on `type`; 422 with field paths when invalid for it. One of:',
  oneOf: Object.entries(schemas).map(([type, schema]) => ({ ...schema, title: `${type} config` })),
};
const enforcementModeDoc =
  '`enforce`: blocks, masks and alerts happen. `shadow`: the policy is evaluated everywhere (pipeline and proxy) but nothing is ' +
  'blocked, masked or alerted; matches are recorded as violations with `action_taken` `would_block` / `would_alert` and ' +
  '`policy.match` events with `shadow: true` (docs/policies.md#shadow-mode). Changing it takes effect within a second.';
/** Optional, but present means a valid mode: `null` is a wrong type (400), not "leave unchanged". */
const presentMode = (o: { enforcement_mode?: unknown }) => o.enforcement_mode !== undefined;
const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class CreatePolicyDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'unique among policies (409 if taken)' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: PolicyTypes })
  @IsIn(PolicyTypes)
  type!: (typeof PolicyTypes)[number];

  @ApiProperty({ type: [String], example: ['db_prod_main'], description: 'database ids (`db_...`), or `*` for every database' })
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(DATABASE_OR_ALL, { each: true, message: 'each database must be a database id (db_...) or *' })
  databases!: string[];

  @ApiProperty(configSchema)
  @IsObject()
  config!: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: PolicyEnforcementModes, default: 'enforce', description: enforcementModeDoc })
  @ValidateIf(presentMode)
  @IsIn(PolicyEnforcementModes)
  enforcement_mode?: (typeof PolicyEnforcementModes)[number];
}

/** PUT: any subset of the creatable fields; omitted fields stay as they are. */
export class UpdatePolicyDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ enum: PolicyTypes, description: 'changing the type re-checks config (the given one, or the current one) against it' })
  @OptionalNotNull()
  @IsIn(PolicyTypes)
  type?: (typeof PolicyTypes)[number];

  @ApiPropertyOptional({ type: [String] })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Matches(DATABASE_OR_ALL, { each: true, message: 'each database must be a database id (db_...) or *' })
  databases?: string[];

  @ApiPropertyOptional(configSchema)
  @OptionalNotNull()
  @IsObject()
  config?: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: PolicyEnforcementModes, description: enforcementModeDoc })
  @ValidateIf(presentMode)
  @IsIn(PolicyEnforcementModes)
  enforcement_mode?: (typeof PolicyEnforcementModes)[number];
}

export class ListPoliciesQueryDto {
  @ApiPropertyOptional({ enum: PolicyTypes })
  @IsOptional()
  @IsIn(PolicyTypes)
  type?: (typeof PolicyTypes)[number];

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: PolicyEnforcementModes, description: 'policies in that enforcement mode' })
  @IsOptional()
  @IsIn(PolicyEnforcementModes)
  enforcement_mode?: (typeof PolicyEnforcementModes)[number];

  @ApiPropertyOptional({ description: 'policies applied to that database (including those applied to `*`)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  database_id?: string;

  @ApiPropertyOptional({
    enum: PolicyListSorts,
    default: 'created_at',
    description:
      'Order of the list: `created_at`, oldest first; `violation_count`, most violated first (the all-time `violation_count`, ties oldest first), e.g. for a "most violated policies" view with `per_page=5`.',
  })
  @IsOptional()
  @IsIn(PolicyListSorts)
  sort?: PolicyListSort;

  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ default: PolicyListLimits.defaultPerPage, minimum: 1, maximum: PolicyListLimits.maxPerPage })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PolicyListLimits.maxPerPage)
  per_page?: number;
}

export class TestPolicyDto {
  @ApiPropertyOptional({ example: 'DROP TABLE customers' })
  @IsOptional()
  @IsString()
  @MaxLength(262_144)
  query?: string;

  @ApiPropertyOptional({ example: 'alice' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  user?: string;

  @ApiPropertyOptional({ example: '203.0.113.7' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  source_ip?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'default: now' })
  @IsOptional()
  @IsISO8601({ strict: true })
  timestamp?: string;

  @ApiPropertyOptional({ enum: AuditEventTypes, default: 'database.query', description: 'Vigil extension: the simulated event type (alerting conditions)' })
  @IsOptional()
  @IsIn(AuditEventTypes)
  type?: string;

  @ApiPropertyOptional({ enum: EventSeverities, description: 'Vigil extension: the simulated event severity' })
  @IsOptional()
  @IsIn(EventSeverities)
  severity?: string;

  @ApiPropertyOptional({ description: 'Vigil extension: the client application (exceptions)' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  client_application?: string;

  @ApiPropertyOptional({ description: 'Vigil extension: the database of the simulated event' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  database_id?: string;

  @ApiPropertyOptional({ type: Object, description: 'Vigil extension: further details (e.g. classifications, fields of alerting conditions)' })
  @IsOptional()
  @IsObject()
  details?: Record<string, unknown>;
}

const SEVERITY_LIST = new RegExp(`^(${PolicySeverities.join('|')})(,(${PolicySeverities.join('|')}))*$`);

export class ListViolationsQueryDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'violations at or after' })
  @IsOptional()
  @IsISO8601({ strict: true })
  start_date?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'violations at or before' })
  @IsOptional()
  @IsISO8601({ strict: true })
  end_date?: string;

  @ApiPropertyOptional({ description: `comma-separated: ${PolicySeverities.join(', ')}`, example: 'critical,high' })
  @IsOptional()
  @Matches(SEVERITY_LIST, { message: `severity must be a comma-separated list of ${PolicySeverities.join(', ')}` })
  severity?: string;

  @ApiPropertyOptional({ description: 'database user' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  user?: string;

  @ApiPropertyOptional({ default: ViolationListLimits.defaultLimit, minimum: 1, maximum: ViolationListLimits.maxLimit })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ViolationListLimits.maxLimit)
  limit?: number;

  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;
}

export class PolicyListItemDto {
  @ApiProperty({ example: 'pol_01j9...' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: PolicyTypes }) type!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: PolicyEnforcementModes, description: enforcementModeDoc }) enforcement_mode!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: [String] }) databases!: string[];
  @ApiProperty() violation_count!: number;
}

export class PolicyDto extends PolicyListItemDto {
  @ApiProperty(configSchema) config!: Record<string, unknown>;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_violation_at!: string | null;
}

export class PaginationDto {
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
}

export class PolicyPageDto {
  @ApiProperty({ type: [PolicyListItemDto] }) data!: PolicyListItemDto[];
  @ApiProperty() pagination!: PaginationDto;
}

export class PolicyEnabledDto {
  @ApiProperty() id!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PolicyDeletedDto {
  @ApiProperty() deleted!: boolean;
  @ApiProperty() id!: string;
}

export class MatchedConditionDto {
  @ApiProperty({ example: 'time_window', description: 'user, time_window, ip_restriction, query_pattern, protected_column, classification, event_type, severity, field, threshold' })
  type!: string;
  @ApiProperty({ example: 'saturday 23:10 Europe/Berlin is outside monday, friday 08:00-18:00 Europe/Berlin' }) reason!: string;
}

export class ActionDto {
  @ApiProperty({ example: 'block', description: 'block, alert, log or mask' }) type!: string;
  @ApiPropertyOptional({ enum: PolicySeverities }) severity?: string;
}

export class TestPolicyResultDto {
  @ApiProperty() would_trigger!: boolean;
  @ApiProperty({ type: [MatchedConditionDto] }) matched_conditions!: MatchedConditionDto[];
  @ApiProperty({ type: [ActionDto] }) actions_would_execute!: ActionDto[];
}

export class ViolationDto {
  @ApiProperty({ example: 'vio_01j9...' }) id!: string;
  @ApiProperty() policy_id!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: String, nullable: true }) user!: string | null;
  @ApiProperty({ description: 'database id' }) database!: string;
  @ApiProperty({ type: String, nullable: true }) source_ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) query!: string | null;
  @ApiProperty({ type: [String], example: ['time_window', 'ip_restriction'] }) matched_conditions!: string[];
  @ApiProperty({
    example: 'blocked',
    description: '`blocked` or `alerted`; for a policy in shadow mode `would_block` or `would_alert` (nothing was blocked and no alert was sent)',
  })
  action_taken!: string;
  @ApiProperty({ enum: PolicySeverities }) severity!: string;
}

export class ViolationPageDto {
  @ApiProperty({ type: [ViolationDto] }) data!: ViolationDto[];
  @ApiProperty() pagination!: PaginationDto;
}
