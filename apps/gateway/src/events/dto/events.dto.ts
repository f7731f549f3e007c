import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AggregateBuckets, AggregateGroupFields, AggregateMetrics } from '@vigil/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

const SEVERITY_LIST = /^(info|warning|critical)(,(info|warning|critical))*$/;
const TYPE_PATTERNS = /^[a-z_.*]+(,[a-z_.*]+)*$/;
// A monitored database (db_...) or `vigil`, where Vigil's own events (vigil.*, audit.checkpoint) are.
const ONE_DATABASE = 'db_[A-Za-z0-9][A-Za-z0-9_.-]{0,127}|vigil';
const DATABASE_IDS = new RegExp(`^(${ONE_DATABASE})(,(${ONE_DATABASE}))*$`);

/** Filters of GET /v1/events and of the stream, as query parameters. */
export class EventFilterQueryDto {
  @ApiPropertyOptional({ description: 'Event type or pattern (`security.*`, `*`); several comma-separated.', example: 'security.*' })
  @IsOptional()
  @IsString()
  @Matches(TYPE_PATTERNS, { message: 'must be event types or patterns such as security.*, comma-separated' })
  @MaxLength(500)
  type?: string;

  @ApiPropertyOptional({ description: 'One severity, or several comma-separated.', example: 'critical' })
  @IsOptional()
  @Matches(SEVERITY_LIST, { message: 'must be info, warning or critical (comma-separated for several)' })
  severity?: string;

  @ApiPropertyOptional({ description: 'A database id, or several comma-separated; `vigil` selects the events about Vigil itself.', example: 'db_main' })
  @IsOptional()
  @Matches(DATABASE_IDS, { message: 'must be database ids (db_... or vigil), comma-separated' })
  @MaxLength(2000)
  database_id?: string;
}

export class ListEventsQueryDto extends EventFilterQueryDto {
  @ApiPropertyOptional({ description: 'Start of the range (inclusive), ISO 8601.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  start_date?: string;

  @ApiPropertyOptional({ description: 'End of the range (exclusive), ISO 8601.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  end_date?: string;

  @ApiPropertyOptional({ description: 'Database user.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  user?: string;

  @ApiPropertyOptional({ description: 'Source IP address.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  source_ip?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ minimum: 1, default: 1, description: '(page - 1) * limit may reach 10000; deeper pages use cursor.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ description: '`pagination.next_cursor` of the previous page: the next page at any depth, at constant cost.' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  cursor?: string;

  @ApiPropertyOptional({ description: '`pagination.snapshot` of page 1: later pages ignore events stored after it (stable pages).' })
  @IsOptional()
  @Matches(/^\d{1,19}$/, { message: 'must be a snapshot from pagination.snapshot' })
  snapshot?: string;
}

export class StreamQueryDto extends EventFilterQueryDto {
  @ApiPropertyOptional({ description: 'Resume after this event id, for clients that cannot send the Last-Event-ID header.' })
  @IsOptional()
  @Matches(/^evt_[0-9a-z]{1,40}$/, { message: 'must be an event id' })
  last_event_id?: string;
}

export class TimeRangeDto {
  @ApiPropertyOptional({ description: 'A duration back from now: 15m, 24h, 7d, 2w (at most 400d).', example: '24h' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  last?: string;

  @ApiPropertyOptional({ description: 'Start (inclusive), ISO 8601; instead of `last`.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  start?: string;

  @ApiPropertyOptional({ description: 'End (exclusive), ISO 8601; default now.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  end?: string;
}

export class InFilterDto {
  @ApiProperty({ type: [String], example: ['DELETE', 'DROP'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(/^[A-Za-z]{1,32}$/, { each: true, message: 'each must be one SQL keyword' })
  in!: string[];
}

export class ContainsFilterDto {
  @ApiProperty({ description: 'Case-insensitive substring of the query text.', example: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  contains!: string;
}

@ApiExtraModels(TimeRangeDto, InFilterDto, ContainsFilterDto)
export class BodyFiltersDto {
  @ApiPropertyOptional({ type: TimeRangeDto, description: 'Default: the last 24 hours.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => TimeRangeDto)
  time_range?: TimeRangeDto;

  @ApiPropertyOptional({ description: 'Event type or pattern; several comma-separated.', example: 'security.*' })
  @IsOptional()
  @IsString()
  @Matches(TYPE_PATTERNS, { message: 'must be event types or patterns such as security.*, comma-separated' })
  @MaxLength(500)
  type?: string;

  @ApiPropertyOptional({ example: 'critical' })
  @IsOptional()
  @Matches(SEVERITY_LIST, { message: 'must be info, warning or critical (comma-separated for several)' })
  severity?: string;

  @ApiPropertyOptional({ example: 'db_main' })
  @IsOptional()
  @Matches(DATABASE_IDS, { message: 'must be database ids (db_... or vigil), comma-separated' })
  @MaxLength(2000)
  database_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  user?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  source_ip?: string;

  @ApiPropertyOptional({ type: InFilterDto, description: 'SQL operation: the first keyword of the query (SELECT, UPDATE, DROP, ...).' })
  @IsOptional()
  @ValidateNested()
  @Type(() => InFilterDto)
  operation?: InFilterDto;

  @ApiPropertyOptional({ type: ContainsFilterDto, description: 'Text match on the query (search only).' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ContainsFilterDto)
  query?: ContainsFilterDto;
}

const GROUP_BY_VALUES = [...AggregateGroupFields, ...AggregateBuckets] as string[];

export class AggregateEventsDto {
  @ApiProperty({ enum: AggregateMetrics, isArray: true, example: ['count'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(AggregateMetrics as unknown as string[], { each: true, message: `each must be one of ${AggregateMetrics.join(', ')}` })
  metrics!: string[];

  @ApiPropertyOptional({ type: BodyFiltersDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => BodyFiltersDto)
  filters?: BodyFiltersDto;

  @ApiPropertyOptional({
    enum: GROUP_BY_VALUES,
    isArray: true,
    example: ['database_name'],
    description: 'Fields to group by; `minute`, `hour` or `day` (at most one) adds a UTC time bucket.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(4)
  @ArrayUnique()
  @IsIn(GROUP_BY_VALUES, { each: true, message: `each must be one of ${GROUP_BY_VALUES.join(', ')}` })
  group_by?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 10_000, default: 1000, description: 'Most groups returned (largest count first).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  limit?: number;
}

export class SearchEventsDto {
  @ApiPropertyOptional({ type: BodyFiltersDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => BodyFiltersDto)
  filters?: BodyFiltersDto;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 50 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: '`pagination.next_cursor` of the previous answer.' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  cursor?: string;
}
