import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AuditEventTypes, EventSeverities, IngesterKinds } from '@vigil/contracts';

/** Response shapes, for the OpenAPI document only (the services build the bodies). */
export class EventDetailsDto {
  @ApiPropertyOptional() threat_type?: string;
  @ApiPropertyOptional() query?: string;
  @ApiPropertyOptional() source_ip?: string;
  @ApiPropertyOptional() user?: string;
  @ApiPropertyOptional() session_id?: string;
  @ApiPropertyOptional() client_application?: string;
}

export class EventListItemDto {
  @ApiProperty({ example: 'evt_01jd6w8k2m3n4p5q6r7s8t9v0w' }) id!: string;
  @ApiProperty({ enum: AuditEventTypes }) type!: string;
  @ApiProperty({ enum: EventSeverities }) severity!: string;
  @ApiProperty({ example: 'db_main', description: 'A monitored database, or `vigil` for events about Vigil itself (vigil.*, audit.checkpoint).' }) database_id!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: EventDetailsDto, description: 'Keys present depend on the event; producers may add others.' }) details!: EventDetailsDto;
}

export class EventsPaginationDto {
  @ApiProperty({ description: 'Matching events; exact up to 1000, then the planner estimate (total_estimated).' }) total!: number;
  @ApiProperty() total_estimated!: boolean;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ description: 'Pass as `snapshot` for stable later pages.' }) snapshot!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page.' }) next_cursor!: string | null;
}

export class ListEventsResponseDto {
  @ApiProperty({ type: [EventListItemDto] }) events!: EventListItemDto[];
  @ApiProperty({ type: EventsPaginationDto }) pagination!: EventsPaginationDto;
}

export class EventContextDto {
  @ApiProperty({ nullable: true, type: String }) policy_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) rule_id!: string | null;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'Computed at ingest (docs/architecture.md#risk-score).' }) risk_score!: number;
}

export class IngestedByDto {
  @ApiProperty({ enum: IngesterKinds }) kind!: string;
  @ApiProperty({ example: 'key_01jd6w8k2m3n4p5q6r7s8t9v0w' }) id!: string;
}

export class EventDetailDto extends EventListItemDto {
  @ApiProperty({ description: 'details.database_name when the producer sent one, else the database id.' }) database_name!: string;
  @ApiProperty({ format: 'date-time' }) processed_at!: string;
  @ApiProperty({ type: EventContextDto }) context!: EventContextDto;
  @ApiProperty({ type: [String], description: 'Same session on the same database, and same policy and rule within an hour.' }) related_events!: string[];
  @ApiProperty({ nullable: true, type: String, description: 'The producer idempotency key, if any.' }) producer_id!: string | null;
  @ApiProperty({
    nullable: true,
    type: IngestedByDto,
    description:
      'Who submitted the event: the credential of POST /v1/events/ingest (user, api_key, oauth_client), the internal producer of ' +
      'the audit.ingest topic (producer, e.g. kafka:audit.ingest), the pg-proxy (proxy), or Vigil itself for derived and vigil.* events ' +
      '(system, id = the service). Null for events stored before it was recorded.',
  })
  ingested_by!: IngestedByDto | null;
}

export class TimeRangeResponseDto {
  @ApiProperty({ format: 'date-time' }) start!: string;
  @ApiProperty({ format: 'date-time' }) end!: string;
}

export class AggregateGroupDto {
  @ApiProperty({ description: 'The group_by fields and their values.', example: { database_name: 'db_main' } }) key!: Record<string, string | null>;
  @ApiPropertyOptional({ format: 'date-time', description: 'Start of the time bucket (with a bucket in group_by).' }) bucket?: string;
  @ApiPropertyOptional() count?: number;
  @ApiPropertyOptional() unique_users?: number;
  @ApiPropertyOptional() unique_source_ips?: number;
  @ApiPropertyOptional() max_risk_score?: number;
  @ApiPropertyOptional() avg_risk_score?: number;
}

export class AggregateResponseDto {
  @ApiProperty({ type: TimeRangeResponseDto }) time_range!: TimeRangeResponseDto;
  @ApiProperty({ type: [String] }) metrics!: string[];
  @ApiProperty({ type: [String] }) group_by!: string[];
  @ApiProperty({ type: [AggregateGroupDto] }) groups!: AggregateGroupDto[];
  @ApiProperty({ description: 'The metrics over every matching event.', example: { count: 1234 } }) totals!: Record<string, number>;
  @ApiProperty({ description: 'True when more groups exist than `limit`.' }) truncated!: boolean;
}

export class SearchPaginationDto {
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;
}

export class SearchResponseDto {
  @ApiProperty({ type: [EventListItemDto] }) events!: EventListItemDto[];
  @ApiProperty({ type: SearchPaginationDto }) pagination!: SearchPaginationDto;
  @ApiProperty({ type: TimeRangeResponseDto }) time_range!: TimeRangeResponseDto;
}

export class IngestResponseDto {
  @ApiProperty() accepted!: number;
  @ApiProperty({ type: [String] }) ids!: string[];
}
