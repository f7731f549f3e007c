import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DATABASE_HOST_PATTERN,
  DATABASE_ID_PATTERN,
  DATABASE_TAG_PATTERN,
  DatabaseConnectionStates,
  DatabaseEnvironments,
  DatabaseListLimits,
  DatabaseStatuses,
  DatabaseTypes,
} from '@vigil/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { OptionalNotNull } from '@vigil/platform';

const TAG = new RegExp(DATABASE_TAG_PATTERN);
const HOST = new RegExp(DATABASE_HOST_PATTERN);

export class CreateDatabaseDto {
  @ApiPropertyOptional({ pattern: DATABASE_ID_PATTERN, example: 'db_prod_main', description: 'choose the id (e.g. to register a discovered database); generated when omitted' })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(DATABASE_ID_PATTERN), { message: 'must be a database id: db_ followed by letters, digits, _ . -' })
  id?: string;

  @ApiProperty({ minLength: 1, maxLength: 200, description: 'unique among databases, case-insensitive (409 if taken)' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: DatabaseTypes })
  @IsIn(DatabaseTypes)
  type!: (typeof DatabaseTypes)[number];

  @ApiPropertyOptional({ maxLength: 255, example: 'db1.internal' })
  @IsOptional()
  @IsString()
  @Matches(HOST, { message: 'must be a host name or address' })
  host?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 65535, example: 5432 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  port?: number;

  @ApiPropertyOptional({ maxLength: 200, description: 'database (catalog/schema) name on the server' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  database?: string;

  @ApiPropertyOptional({ enum: DatabaseEnvironments })
  @IsOptional()
  @IsIn(DatabaseEnvironments)
  environment?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 50, example: ['pci', 'finance'], description: 'free labels (letters, digits, _ . : -); report scopes and filters use them' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(TAG, { each: true, message: 'each tag must be 1-64 letters, digits, _ . : -' })
  tags?: string[];
}

/** PATCH: any subset of the registrable fields except the id. */
export class UpdateDatabaseDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ enum: DatabaseTypes })
  @OptionalNotNull()
  @IsIn(DatabaseTypes)
  type?: (typeof DatabaseTypes)[number];

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNotNull()
  @IsString()
  @Matches(HOST, { message: 'must be a host name or address' })
  host?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 65535 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(65535)
  port?: number;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  database?: string;

  @ApiPropertyOptional({ enum: DatabaseEnvironments })
  @OptionalNotNull()
  @IsIn(DatabaseEnvironments)
  environment?: string;

  @ApiPropertyOptional({ maxLength: 2000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(TAG, { each: true, message: 'each tag must be 1-64 letters, digits, _ . : -' })
  tags?: string[];
}

export class ListDatabasesQueryDto {
  @ApiPropertyOptional({ enum: DatabaseStatuses })
  @IsOptional()
  @IsIn(DatabaseStatuses)
  status?: (typeof DatabaseStatuses)[number];

  @ApiPropertyOptional({ enum: DatabaseTypes })
  @IsOptional()
  @IsIn(DatabaseTypes)
  type?: string;

  @ApiPropertyOptional({ enum: DatabaseEnvironments })
  @IsOptional()
  @IsIn(DatabaseEnvironments)
  environment?: string;

  @ApiPropertyOptional({ description: 'databases carrying this tag' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tag?: string;

  @ApiPropertyOptional({ enum: DatabaseConnectionStates })
  @IsOptional()
  @IsIn(DatabaseConnectionStates)
  connection_status?: (typeof DatabaseConnectionStates)[number];

  @ApiPropertyOptional({ description: 'substring of the name or id, case-insensitive' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: DatabaseListLimits.maxPerPage, default: DatabaseListLimits.defaultPerPage })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DatabaseListLimits.maxPerPage)
  per_page?: number;
}

class EventCountsDto {
  @ApiProperty() info!: number;
  @ApiProperty() warning!: number;
  @ApiProperty() critical!: number;
}

export class DatabaseDto {
  @ApiProperty({ example: 'db_prod_main' }) id!: string;
  @ApiProperty({ description: 'the id itself while discovered' }) name!: string;
  @ApiProperty({ type: String, nullable: true, enum: DatabaseTypes, description: 'null while discovered' }) type!: string | null;
  @ApiProperty({ type: String, nullable: true }) host!: string | null;
  @ApiProperty({ type: Number, nullable: true }) port!: number | null;
  @ApiProperty({ type: String, nullable: true }) database!: string | null;
  @ApiProperty({ type: String, nullable: true }) environment!: string | null;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ enum: DatabaseStatuses, description: '`discovered`: named by audit records or policies, not registered yet' }) status!: string;
  @ApiProperty({ enum: DatabaseConnectionStates, description: 'what monitoring of its event flow concluded (docs/reports.md)' }) connection_status!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) connection_status_changed_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the last monitoring error an agent reported' }) last_error!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) first_event_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_event_at!: string | null;
  @ApiProperty({ description: 'audit events stored for it since it became known' }) event_count!: number;
  @ApiProperty({ type: EventCountsDto }) event_counts!: EventCountsDto;
}

class PaginationDto {
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
}

export class DatabasePageDto {
  @ApiProperty({ type: [DatabaseDto] }) data!: DatabaseDto[];
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
}

export class DatabaseDeletedDto {
  @ApiProperty() deleted!: boolean;
  @ApiProperty() id!: string;
}
