import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DATABASE_ID_PATTERN, REPORT_MAX_PERIOD_DAYS, ReportFormats, ReportListLimits, ReportStatuses, ReportTypes } from '@vigil/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { OptionalNotNull } from '@vigil/platform';

const DATABASE_ID = new RegExp(DATABASE_ID_PATTERN);

export class CreateReportDto {
  @ApiProperty({ enum: ReportTypes })
  @IsIn(ReportTypes)
  type!: (typeof ReportTypes)[number];

  @ApiProperty({ format: 'date-time', example: '2025-01-01T00:00:00Z', description: 'start of the period (inclusive)' })
  @IsISO8601({ strict: true })
  period_start!: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-31T00:00:00Z', description: `end of the period (exclusive); at most ${REPORT_MAX_PERIOD_DAYS} days after the start (422)` })
  @IsISO8601({ strict: true })
  period_end!: string;

  @ApiPropertyOptional({ type: [String], maxItems: 500, description: 'database ids in scope; omitted or empty: every database' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Matches(DATABASE_ID, { each: true, message: 'each database must be a database id (db_...)' })
  databases?: string[];

  @ApiPropertyOptional({ type: [String], enum: ReportFormats, default: [...ReportFormats] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(ReportFormats, { each: true })
  formats?: (typeof ReportFormats)[number][];
}

export class ListReportsQueryDto {
  @ApiPropertyOptional({ enum: ReportTypes })
  @IsOptional()
  @IsIn(ReportTypes)
  type?: (typeof ReportTypes)[number];

  @ApiPropertyOptional({ enum: ReportStatuses })
  @IsOptional()
  @IsIn(ReportStatuses)
  status?: (typeof ReportStatuses)[number];

  @ApiPropertyOptional({ description: 'reports of this schedule' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  schedule_id?: string;

  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: ReportListLimits.maxPerPage, default: ReportListLimits.defaultPerPage })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ReportListLimits.maxPerPage)
  per_page?: number;
}

export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: ReportListLimits.maxPerPage, default: ReportListLimits.defaultPerPage })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ReportListLimits.maxPerPage)
  per_page?: number;
}

export class DownloadQueryDto {
  @ApiPropertyOptional({ enum: ReportFormats, default: 'json' })
  @IsOptional()
  @IsIn(ReportFormats)
  format?: (typeof ReportFormats)[number];
}

export class CreateReportScheduleDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'unique among schedules (409 if taken)' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: ReportTypes })
  @IsIn(ReportTypes)
  type!: (typeof ReportTypes)[number];

  @ApiProperty({ example: '0 6 1 * *', description: 'five-field cron expression (minute hour day-of-month month day-of-week), read in `timezone`; invalid: 422' })
  @IsString()
  @MinLength(9)
  @MaxLength(200)
  cron!: string;

  @ApiPropertyOptional({ example: 'Europe/Berlin', default: 'UTC', description: 'IANA time zone; unknown: 422' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: REPORT_MAX_PERIOD_DAYS, default: 30, description: 'each run covers the days before its slot' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(REPORT_MAX_PERIOD_DAYS)
  period_days?: number;

  @ApiPropertyOptional({ type: [String], maxItems: 500, description: 'omitted or empty: every database' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Matches(DATABASE_ID, { each: true, message: 'each database must be a database id (db_...)' })
  databases?: string[];

  @ApiPropertyOptional({ type: [String], enum: ReportFormats, default: [...ReportFormats] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(ReportFormats, { each: true })
  formats?: (typeof ReportFormats)[number][];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateReportScheduleDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ enum: ReportTypes })
  @OptionalNotNull()
  @IsIn(ReportTypes)
  type?: (typeof ReportTypes)[number];

  @ApiPropertyOptional({ description: 'five-field cron expression' })
  @OptionalNotNull()
  @IsString()
  @MinLength(9)
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({ description: 'IANA time zone' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: REPORT_MAX_PERIOD_DAYS })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(REPORT_MAX_PERIOD_DAYS)
  period_days?: number;

  @ApiPropertyOptional({ type: [String], maxItems: 500 })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @Matches(DATABASE_ID, { each: true, message: 'each database must be a database id (db_...)' })
  databases?: string[];

  @ApiPropertyOptional({ type: [String], enum: ReportFormats })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(ReportFormats, { each: true })
  formats?: (typeof ReportFormats)[number][];

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

class PaginationDto {
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
}

export class ReportDto {
  @ApiProperty({ example: 'rpt_01jabc...' }) id!: string;
  @ApiProperty({ enum: ReportTypes }) type!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: ReportStatuses }) status!: string;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'generation progress in percent' }) progress!: number;
  @ApiProperty({ format: 'date-time' }) period_start!: string;
  @ApiProperty({ format: 'date-time' }) period_end!: string;
  @ApiProperty({ type: [String], description: 'empty: every database' }) databases!: string[];
  @ApiProperty({ type: [String], enum: ReportFormats }) formats!: string[];
  @ApiProperty({ type: String, nullable: true }) schedule_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, nullable: true, description: 'headline figures once completed: total_events and one per section' })
  summary!: Record<string, number> | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: '`self`, and one download address per format once completed' })
  links!: Record<string, string>;
}

export class ReportPageDto {
  @ApiProperty({ type: [ReportDto] }) data!: ReportDto[];
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
}

export class ReportScheduleDto {
  @ApiProperty({ example: 'rps_01jabc...' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ReportTypes }) type!: string;
  @ApiProperty() cron!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty() period_days!: number;
  @ApiProperty({ type: [String] }) databases!: string[];
  @ApiProperty({ type: [String], enum: ReportFormats }) formats!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the next slot (UTC); null when disabled' }) next_run_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_run_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) last_report_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class ReportSchedulePageDto {
  @ApiProperty({ type: [ReportScheduleDto] }) data!: ReportScheduleDto[];
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
}

class ReportSectionDescriptionDto {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: [String] }) controls!: string[];
  @ApiProperty() description!: string;
}

export class ReportTypeDto {
  @ApiProperty({ enum: ReportTypes }) type!: string;
  @ApiProperty() title!: string;
  @ApiProperty() framework!: string;
  @ApiProperty({ type: [ReportSectionDescriptionDto] }) sections!: ReportSectionDescriptionDto[];
}

export class ReportTypeListDto {
  @ApiProperty({ type: [ReportTypeDto] }) data!: ReportTypeDto[];
}

export class DeletedDto {
  @ApiProperty() deleted!: boolean;
  @ApiProperty() id!: string;
}
