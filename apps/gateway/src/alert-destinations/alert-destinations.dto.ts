import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { AlertDeliveryStatuses, AlertDestinationSecretFields, AlertRequestTypes, AlertSeverities } from '@vigil/contracts';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

/**
 * The generic HTTP destination and every setting of it (docs/alerts.md). Shapes and JSON types are checked here (400);
 * choices, bounds and what each auth type needs are checked by the delivery service (422 with the
 * field path), so every rule lives in one place.
 */
export class UpdateAlertDestinationDto {
  @ApiPropertyOptional({ description: 'Unique name; policy alert `channels` name destinations by it.', maxLength: 200 })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(1000)
  name?: string;

  @ApiPropertyOptional({ enum: ['webhook'], default: 'webhook', description: '`webhook` selects the generic HTTP destination.' })
  @IsOptional() @IsString()
  provider?: string;

  @ApiPropertyOptional({ default: true, description: 'Enables alert delivery.' })
  @IsOptional() @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ description: 'Target URL (https:// on a public address; checked at save and at send).', maxLength: 2048 })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(10_000)
  url?: string;

  @ApiPropertyOptional({ enum: ['POST', 'PUT', 'PATCH'], default: 'POST' })
  @IsOptional() @IsString()
  method?: string;

  @ApiPropertyOptional({ enum: ['none', 'basic', 'bearer', 'api_key', 'hmac'], default: 'none' })
  @IsOptional() @IsString()
  auth_type?: string;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'Basic auth user (required with basic).' })
  @IsOptional() @IsString() @MaxLength(1000)
  auth_username?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, writeOnly: true, description: 'Basic auth password. Write-only; null clears it.' })
  @IsOptional() @IsString() @MaxLength(10_000)
  auth_password?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, writeOnly: true, description: 'Bearer token. Write-only; null clears it.' })
  @IsOptional() @IsString() @MaxLength(10_000)
  auth_token?: string | null;

  @ApiPropertyOptional({ default: 'X-API-Key', description: 'Header carrying the API key.' })
  @IsOptional() @IsString() @MaxLength(200)
  api_key_header?: string;

  @ApiPropertyOptional({ nullable: true, type: String, writeOnly: true, description: 'The API key value. Write-only; null clears it.' })
  @IsOptional() @IsString() @MaxLength(10_000)
  api_key_value?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, writeOnly: true, description: 'HMAC secret. Write-only; null clears it.' })
  @IsOptional() @IsString() @MaxLength(10_000)
  hmac_secret?: string | null;

  @ApiPropertyOptional({ default: 'X-Signature', description: 'Header carrying the hex HMAC of the raw body. With auth_type hmac the request also carries the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (HMAC-SHA256 keyed by the UTF-8 bytes of hmac_secret); none of the three may be chosen here or as a custom header.' })
  @IsOptional() @IsString() @MaxLength(200)
  hmac_header?: string;

  @ApiPropertyOptional({ enum: ['sha256', 'sha384', 'sha512'], default: 'sha256' })
  @IsOptional() @IsString()
  hmac_algorithm?: string;

  @ApiPropertyOptional({ enum: ['application/json', 'application/x-www-form-urlencoded'], default: 'application/json' })
  @IsOptional() @IsString()
  content_type?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Extra headers; they cannot replace authentication, content type or framing headers, and may not contain CR/LF.' })
  @IsOptional() @IsObject()
  custom_headers?: Record<string, string>;

  @ApiPropertyOptional({ enum: ['default', 'custom'], default: 'default' })
  @IsOptional() @IsString()
  payload_format?: string;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'Handlebars template of a JSON document (with `custom`); values are JSON-escaped; `#if`, `else if`, `eq` and `json` helpers. Refused (422, with the line) unless it compiles and renders valid JSON for a sample alert.' })
  @IsOptional() @IsString() @MaxLength(1_000_000)
  payload_template?: string | null;

  @ApiPropertyOptional({ default: false, description: 'Adds the raw event data (`raw_event`) to the payload.' })
  @IsOptional() @IsBoolean()
  include_raw_event?: boolean;

  @ApiPropertyOptional({ type: [String], enum: AlertSeverities, description: 'Severities sent; empty or omitted = all.' })
  @IsOptional() @IsArray() @IsString({ each: true })
  severity_filter?: string[];

  @ApiPropertyOptional({ type: [String], enum: AlertRequestTypes, description: 'Alert types sent; empty or omitted = all.' })
  @IsOptional() @IsArray() @IsString({ each: true })
  alert_types?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Database ids; empty = all databases.' })
  @IsOptional() @IsArray() @IsString({ each: true })
  database_filter?: string[];

  @ApiPropertyOptional({ default: 60, minimum: 1, maximum: 100, description: 'Alerts per minute; excess alerts wait in the queue.' })
  @IsOptional() @IsNumber()
  rate_limit?: number;

  @ApiPropertyOptional({ default: 30, minimum: 5, maximum: 120 })
  @IsOptional() @IsNumber()
  timeout_seconds?: number;

  @ApiPropertyOptional({ default: 3, minimum: 0, maximum: 10, description: 'Retries after a failed attempt.' })
  @IsOptional() @IsNumber()
  retry_attempts?: number;

  @ApiPropertyOptional({ default: 5, minimum: 0, maximum: 3600, description: 'Seconds between retries.' })
  @IsOptional() @IsNumber()
  retry_delay_seconds?: number;

  @ApiPropertyOptional({ type: [Number], default: [200, 201, 202, 204], description: 'HTTP statuses counted as success.' })
  @IsOptional() @IsArray() @IsNumber({}, { each: true })
  success_codes?: number[];
}

export class CreateAlertDestinationDto extends OmitType(UpdateAlertDestinationDto, ['name', 'url'] as const) {
  @ApiProperty({ description: 'Unique name; policy alert `channels` name destinations by it.', maxLength: 200 })
  @IsString() @MinLength(1) @MaxLength(1000)
  name!: string;

  @ApiProperty({ description: 'Target URL (https:// on a public address; checked at save and at send).', maxLength: 2048 })
  @IsString() @MinLength(1) @MaxLength(10_000)
  url!: string;
}

export class DestinationPageQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100)
  per_page?: number;
}

export class DestinationDeliveriesQueryDto extends DestinationPageQueryDto {
  @ApiPropertyOptional({ enum: AlertDeliveryStatuses })
  @IsOptional() @IsIn(AlertDeliveryStatuses as unknown as string[])
  status?: string;
}

export class AlertDestinationView {
  @ApiProperty({ example: 'dest_01j...' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() provider!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() url!: string;
  @ApiProperty() method!: string;
  @ApiProperty() auth_type!: string;
  @ApiProperty({ nullable: true, type: String }) auth_username!: string | null;
  @ApiProperty() api_key_header!: string;
  @ApiProperty() hmac_header!: string;
  @ApiProperty() hmac_algorithm!: string;
  @ApiProperty() content_type!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) custom_headers!: Record<string, string>;
  @ApiProperty() payload_format!: string;
  @ApiProperty({ nullable: true, type: String }) payload_template!: string | null;
  @ApiProperty() include_raw_event!: boolean;
  @ApiProperty({ type: [String] }) severity_filter!: string[];
  @ApiProperty({ type: [String] }) alert_types!: string[];
  @ApiProperty({ type: [String] }) database_filter!: string[];
  @ApiProperty() rate_limit!: number;
  @ApiProperty() timeout_seconds!: number;
  @ApiProperty() retry_attempts!: number;
  @ApiProperty() retry_delay_seconds!: number;
  @ApiProperty({ type: [Number] }) success_codes!: number[];
  @ApiProperty({ type: [String], enum: AlertDestinationSecretFields, description: 'Secret fields that hold a value (values are never returned).' }) secrets_set!: string[];
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class DestinationPagination {
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
}

export class AlertDestinationPage {
  @ApiProperty({ type: [AlertDestinationView] }) data!: AlertDestinationView[];
  @ApiProperty({ type: DestinationPagination }) pagination!: DestinationPagination;
}

export class AlertDeliveryAttemptView {
  @ApiProperty() attempt!: number;
  @ApiProperty() started_at!: string;
  @ApiProperty({ nullable: true, type: Number }) status_code!: number | null;
  @ApiProperty() latency_ms!: number;
  @ApiProperty() success!: boolean;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

export class AlertDeliveryView {
  @ApiProperty() id!: string;
  @ApiProperty() destination_id!: string;
  @ApiProperty() alert_id!: string;
  @ApiProperty({ enum: AlertSeverities }) severity!: string;
  @ApiProperty() test!: boolean;
  @ApiProperty({ enum: AlertDeliveryStatuses }) status!: string;
  @ApiProperty() attempt_count!: number;
  @ApiProperty() max_attempts!: number;
  @ApiProperty({ nullable: true, type: String }) next_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) last_status_code!: number | null;
  @ApiProperty({ nullable: true, type: Number }) last_latency_ms!: number | null;
  @ApiProperty({ nullable: true, type: String }) last_error!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true, type: String }) completed_at!: string | null;
  @ApiProperty({ type: [AlertDeliveryAttemptView] }) attempts!: AlertDeliveryAttemptView[];
}

export class AlertDeliveryPage {
  @ApiProperty({ type: [AlertDeliveryView] }) data!: AlertDeliveryView[];
  @ApiProperty({ type: DestinationPagination }) pagination!: DestinationPagination;
}
