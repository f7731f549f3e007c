import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DeliveryStatuses, WebhookLimits } from '@vigil/contracts';
import { OptionalNotNull } from '@vigil/platform';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

const EVENTS_DOC =
  'Event types to receive, from the events catalog or the webhook catalog; `*` matches every type and `prefix.*` every type starting with `prefix.`. Unknown names are refused with 422.';

/**
 * POST /v1/webhooks. With `secret` it is form A (client-chosen secret; deliveries sign
 * `<timestamp>.<raw body>`); without it, form B (the service generates the secret and shows it once).
 */
export class CreateWebhookDto {
  @ApiProperty({ description: 'HTTPS endpoint that receives POST deliveries (public addresses only).', example: 'https://hooks.example.com/vigil', maxLength: WebhookLimits.maxUrlLength })
  @IsString()
  @MinLength(1)
  @MaxLength(WebhookLimits.maxUrlLength)
  url!: string;

  @ApiProperty({ description: EVENTS_DOC, type: [String], example: ['security.*', 'policy.violation'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WebhookLimits.maxEvents)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  events!: string[];

  @ApiPropertyOptional({ description: 'Form A: the signing secret you choose (16 to 256 characters). Omit it for form B.', minLength: WebhookLimits.minSecretLength, maxLength: WebhookLimits.maxSecretLength, writeOnly: true })
  @OptionalNotNull()
  @IsString()
  @MinLength(WebhookLimits.minSecretLength)
  @MaxLength(WebhookLimits.maxSecretLength)
  secret?: string;

  @ApiPropertyOptional({ description: 'Free text.', maxLength: WebhookLimits.maxDescriptionLength })
  @OptionalNotNull()
  @IsString()
  @MaxLength(WebhookLimits.maxDescriptionLength)
  description?: string;

  @ApiPropertyOptional({ description: 'Whether deliveries are made (default true).', default: true })
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ description: 'New HTTPS endpoint (checked like on create).', maxLength: WebhookLimits.maxUrlLength })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(WebhookLimits.maxUrlLength)
  url?: string;

  @ApiPropertyOptional({ description: EVENTS_DOC, type: [String] })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WebhookLimits.maxEvents)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  events?: string[];

  @ApiPropertyOptional({ maxLength: WebhookLimits.maxDescriptionLength })
  @IsOptional()
  @IsString()
  @MaxLength(WebhookLimits.maxDescriptionLength)
  description?: string;

  @ApiPropertyOptional({ description: 'false pauses deliveries; true resumes them and clears a failing flag.' })
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;
}

export class TestWebhookDto {
  @ApiProperty({ description: 'Event type of the test delivery (either catalog). The payload carries `test: true`.', example: 'security.threat_detected' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  event_type!: string;
}

export class PageQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;
}

export class ListDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DeliveryStatuses, description: 'Only deliveries in this state.' })
  @IsOptional()
  @IsIn(DeliveryStatuses as string[])
  status?: (typeof DeliveryStatuses)[number];
}

export class RedeliverDto {
  @ApiPropertyOptional({ description: 'States to send again (default failed and held).', enum: ['failed', 'held', 'succeeded'], isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsIn(['failed', 'held', 'succeeded'], { each: true })
  statuses?: ('failed' | 'held' | 'succeeded')[];

  @ApiPropertyOptional({ description: 'Only deliveries created at or after this time (ISO 8601).' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  since?: string;

  @ApiPropertyOptional({ description: 'Only deliveries created before this time (ISO 8601).' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  until?: string;
}

export class WebhookView {
  @ApiProperty({ example: 'wh_01j...' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [String] }) events!: string[];
  @ApiProperty({ enum: ['A', 'B'], description: 'A: client secret, X-Service-Signature over `<timestamp>.<body>`; B: generated secret, X-Service-Signature over the body. Both also send Standard Webhooks headers.' }) form!: string;
  @ApiProperty() description!: string;
  @ApiProperty() active!: boolean;
  @ApiProperty({ enum: ['active', 'inactive', 'failing'] }) status!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Set while the endpoint is flagged as failing (deliveries held).' }) failing_since!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;
}

export class DeliveryAttemptView {
  @ApiProperty({ description: 'The X-Service-Delivery-ID sent with this attempt.' }) delivery_attempt_id!: string;
  @ApiProperty() attempt!: number;
  @ApiProperty() started_at!: string;
  @ApiProperty({ nullable: true, type: Number }) status_code!: number | null;
  @ApiProperty() latency_ms!: number;
  @ApiProperty() success!: boolean;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

export class DeliveryView {
  @ApiProperty({ description: 'The delivery id, sent as the `webhook-id` header on every attempt.' }) id!: string;
  @ApiProperty() webhook_id!: string;
  @ApiProperty({ description: 'The event id: the payload `id`, the same in every attempt.' }) event_id!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty() test!: boolean;
  @ApiProperty({ enum: DeliveryStatuses }) status!: string;
  @ApiProperty() attempt_count!: number;
  @ApiProperty() max_attempts!: number;
  @ApiProperty({ nullable: true, type: String }) next_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) last_status_code!: number | null;
  @ApiProperty({ nullable: true, type: Number }) last_latency_ms!: number | null;
  @ApiProperty({ nullable: true, type: String }) last_error!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true, type: String }) completed_at!: string | null;
  @ApiProperty({ type: [DeliveryAttemptView] }) attempts!: DeliveryAttemptView[];
}
