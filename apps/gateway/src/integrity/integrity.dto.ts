import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IntegrityLimits, VerificationFailureReasons } from '@vigil/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { EventContextDto, EventListItemDto } from '../events/dto/event-responses.dto';

const MAX_INDEX = Number.MAX_SAFE_INTEGER;

export class CheckpointsQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: IntegrityLimits.maxCheckpointsPerPage, default: IntegrityLimits.defaultCheckpointsPerPage })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(IntegrityLimits.maxCheckpointsPerPage)
  per_page?: number;
}

export class InclusionProofQueryDto {
  @ApiProperty({ example: 'evt_01jd4x0c8m7q2r5t6v9w3y4z5a', description: 'the event to prove' })
  @IsString()
  @Matches(/^evt_[0-9a-z]{1,64}$/, { message: 'must be an event id (evt_...)' })
  event_id!: string;

  @ApiPropertyOptional({ minimum: 1, description: 'a checkpointed tree size; the latest checkpoint when omitted' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_INDEX)
  tree_size?: number;
}

export class ConsistencyProofQueryDto {
  @ApiProperty({ minimum: 1, description: 'a checkpointed tree size (the older)' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_INDEX)
  first!: number;

  @ApiProperty({ minimum: 1, description: 'a checkpointed tree size (the newer)' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_INDEX)
  second!: number;
}

export class LeavesQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'first leaf index' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_INDEX)
  from?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: IntegrityLimits.maxLeavesPerPage, default: IntegrityLimits.defaultLeavesPerPage })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(IntegrityLimits.maxLeavesPerPage)
  limit?: number;
}

export class StartVerificationDto {
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'first leaf index checked' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_INDEX)
  from_index?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'end of the range (exclusive); the tree size when omitted' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INDEX)
  to_index?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'the checkpointed tree size to verify against; the latest when omitted' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INDEX)
  tree_size?: number;
}

export class IntegrityKeyDto {
  @ApiProperty({ example: '3f2a9c0d1e4b5a67', description: 'first 16 hex digits of SHA-256 of the raw public key' }) key_id!: string;
  @ApiProperty({ enum: ['Ed25519'] }) algorithm!: 'Ed25519';
  @ApiProperty({ description: 'base64 of the raw 32-byte Ed25519 public key' }) public_key!: string;
  @ApiProperty({ format: 'date-time' }) valid_from!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) valid_until!: string | null;
  @ApiProperty({ enum: ['active', 'retired'] }) status!: 'active' | 'retired';
}

export class IntegrityKeysDto {
  @ApiProperty({ type: [IntegrityKeyDto] }) data!: IntegrityKeyDto[];
}

export class CheckpointDto {
  @ApiProperty({ example: 1024 }) tree_size!: number;
  @ApiProperty({ description: 'RFC 9162 root of the first tree_size leaves, lowercase hex' }) root_hash!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty() key_id!: string;
  @ApiProperty({ description: 'Ed25519 signature of the checkpoint message, base64 of 64 bytes' }) signature!: string;
}

class CheckpointPaginationDto {
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() has_more!: boolean;
}

export class CheckpointPageDto {
  @ApiProperty({ type: [CheckpointDto] }) data!: CheckpointDto[];
  @ApiProperty({ type: CheckpointPaginationDto }) pagination!: CheckpointPaginationDto;
}

export class InclusionProofDto {
  @ApiProperty() event_id!: string;
  @ApiProperty({ description: 'seq - 1: the event position in storage order' }) leaf_index!: number;
  @ApiProperty() tree_size!: number;
  @ApiProperty() leaf_hash!: string;
  @ApiProperty({ type: [String], description: 'RFC 9162 §2.1.3 inclusion path, leaf side first, lowercase hex' }) audit_path!: string[];
  @ApiProperty({ type: CheckpointDto }) checkpoint!: CheckpointDto;
}

export class ConsistencyProofDto {
  @ApiProperty() first!: number;
  @ApiProperty() second!: number;
  @ApiProperty({ type: [String], description: 'RFC 9162 §2.1.4 consistency proof, lowercase hex' }) proof!: string[];
}

/** A stored event in its published form (the fields its leaf is made of). */
class LeafEventDto extends EventListItemDto {
  @ApiProperty({ format: 'date-time' }) processed_at!: string;
  @ApiProperty({ type: EventContextDto }) context!: EventContextDto;
  @ApiProperty({ nullable: true, type: String }) producer_id!: string | null;
}

class LeafDto {
  @ApiProperty() leaf_index!: number;
  @ApiProperty() leaf_hash!: string;
  @ApiProperty({ type: LeafEventDto, nullable: true, description: 'the stored event; null when it is no longer stored' }) event!: LeafEventDto | null;
  @ApiProperty({ description: 'false when the event is no longer stored' }) retained!: boolean;
}

export class LeavesPageDto {
  @ApiProperty({ type: [LeafDto] }) data!: LeafDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'pass as from for the next page; null at the end of the tree' }) next_from!: number | null;
}

class VerificationFailureDto {
  @ApiProperty() leaf_index!: number;
  @ApiProperty({ type: String, nullable: true }) event_id!: string | null;
  @ApiProperty({ enum: VerificationFailureReasons }) reason!: string;
  @ApiProperty() detail!: string;
}

export class VerificationDto {
  @ApiProperty({ example: 'ver_01jd4x0c8m7q2r5t6v9w3y4z5a' }) id!: string;
  @ApiProperty({ enum: ['running', 'passed', 'failed'] }) status!: string;
  @ApiProperty() tree_size!: number;
  @ApiProperty() from_index!: number;
  @ApiProperty({ description: 'exclusive' }) to_index!: number;
  @ApiProperty({ description: 'events checked so far' }) checked!: number;
  @ApiProperty({ description: 'events to check' }) total!: number;
  @ApiProperty({ type: VerificationFailureDto, nullable: true }) first_failure!: VerificationFailureDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
}
