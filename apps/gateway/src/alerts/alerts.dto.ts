import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AlertRequestTypes, AlertSeverities, AlertStatuses } from '@vigil/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { AlertDeliveryAttemptView, DestinationPagination } from '../alert-destinations/alert-destinations.dto';

/** GET /v1/alerts/counts (and the list's filters): severity, status and type each take a comma-separated list. */
export class AlertFiltersQueryDto {
  @ApiPropertyOptional({ description: 'Alerts created at or after this time (ISO 8601).' })
  @IsOptional() @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  start_date?: string;

  @ApiPropertyOptional({ description: 'Alerts created before this time (ISO 8601).' })
  @IsOptional() @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  end_date?: string;

  @ApiPropertyOptional({ description: `Comma-separated severities (${AlertSeverities.join(', ')}).`, example: 'critical,high' })
  @IsOptional() @IsString() @MaxLength(200)
  severity?: string;

  @ApiPropertyOptional({ description: `Comma-separated statuses (${AlertStatuses.join(', ')}).` })
  @IsOptional() @IsString() @MaxLength(200)
  status?: string;

  @ApiPropertyOptional({ description: `Comma-separated alert types (${AlertRequestTypes.join(', ')}).` })
  @IsOptional() @IsString() @MaxLength(300)
  type?: string;

  @ApiPropertyOptional()
  @IsOptional() @IsString() @MaxLength(200)
  database_id?: string;
}

/** GET /v1/alerts: the filters and the page. */
export class ListAlertsQueryDto extends AlertFiltersQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  per_page?: number;
}

export class EscalateAlertDto {
  @ApiPropertyOptional({ enum: AlertSeverities, description: 'Target severity, higher than the current one (default: one step up).' })
  @IsOptional() @IsString()
  severity?: string;
}

export class TestAlertDto {
  @ApiProperty({ description: 'The alert destination to send a test alert to.', example: 'dest_01j...' })
  @IsString() @MinLength(1) @MaxLength(200)
  destination_id!: string;
}

export class AlertView {
  @ApiProperty({ example: 'alt_01j...' }) id!: string;
  @ApiProperty({ enum: AlertRequestTypes }) type!: string;
  @ApiProperty({ enum: AlertSeverities }) severity!: string;
  @ApiProperty({ enum: AlertStatuses }) status!: string;
  @ApiProperty() title!: string;
  @ApiProperty() description!: string;
  @ApiProperty() database_id!: string;
  @ApiProperty({ nullable: true, type: String }) policy_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) policy_name!: string | null;
  @ApiProperty({ type: [String], description: 'Audit events behind the alert (the latest 100).' }) event_ids!: string[];
  @ApiProperty({ description: 'Occurrences folded into this alert within the de-duplication window.' }) occurrences!: number;
  @ApiProperty() first_seen_at!: string;
  @ApiProperty() last_seen_at!: string;
  @ApiProperty({ nullable: true, type: String }) acknowledged_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) resolved_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) escalated_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class AlertPageView {
  @ApiProperty({ type: [AlertView] }) data!: AlertView[];
  @ApiProperty({ type: DestinationPagination }) pagination!: DestinationPagination;
}

class AlertSeverityCountsView {
  @ApiProperty() critical!: number;
  @ApiProperty() high!: number;
  @ApiProperty() medium!: number;
  @ApiProperty() low!: number;
  @ApiProperty() info!: number;
}

class AlertStatusCountsView {
  @ApiProperty() open!: number;
  @ApiProperty() acknowledged!: number;
  @ApiProperty() resolved!: number;
}

export class AlertCountsView {
  @ApiProperty({ description: 'Alerts matching the filters.' }) total!: number;
  @ApiProperty({ type: AlertSeverityCountsView, description: 'Of those, how many of each severity (every severity, zeros included).' }) by_severity!: AlertSeverityCountsView;
  @ApiProperty({ type: AlertStatusCountsView, description: 'Of those, how many in each status (every status, zeros included).' }) by_status!: AlertStatusCountsView;
}

export class TestAlertView {
  @ApiProperty() destination_id!: string;
  @ApiProperty() delivery_id!: string;
  @ApiProperty() alert_id!: string;
  @ApiProperty() success!: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'Status of the last attempt (null when no answer arrived).' }) status_code!: number | null;
  @ApiProperty({ description: 'First attempt to last answer, in ms.' }) duration_ms!: number;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ type: [AlertDeliveryAttemptView] }) attempts!: AlertDeliveryAttemptView[];
}
