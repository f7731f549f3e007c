import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessPage,
  type ApiKeyResponse,
  type CreateApiKeyRequest,
  type CreatedApiKeyResponse,
  type RotateApiKeyRequest,
  type RotatedApiKeyResponse,
  RpcPatterns,
  Scopes,
} from '@vigil/contracts';
import { DomainException } from '@vigil/platform';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ApiKeyCache } from '../auth/api-key.cache';
import { RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { RevocationsSubscriber } from '../auth/revocations.subscriber';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { RpcClients } from '../rpc/rpc-clients';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'SIEM export' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: Scopes, isArray: true, example: ['read:logs'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(Scopes.length)
  @IsIn(Scopes, { each: true })
  scopes!: string[];

  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'No expiry when omitted' })
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string | null;
}

export class PageQueryDto {
  // The `number` annotations feed the reflected type the validation and OpenAPI metadata read
  // (without them the parameters are documented as objects); the rule reports at the decorators.
  // eslint-disable-next-line @typescript-eslint/no-inferrable-types
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page: number = 1;

  // eslint-disable-next-line @typescript-eslint/no-inferrable-types
  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page: number = 20;
}

export class ApiKeyDto {
  @ApiProperty({ example: 'key_01j9...' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The first characters of the key, to recognise it', example: 'vigil_ak_a1B2c3' }) prefix!: string;
  @ApiProperty({ enum: Scopes, isArray: true }) scopes!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Accurate to about a minute' }) last_used_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The key. Shown in this response only; store it now.', example: 'vigil_ak_...' }) key!: string;
}

export class RotateApiKeyDto {
  // eslint-disable-next-line @typescript-eslint/no-inferrable-types
  @ApiPropertyOptional({
    default: 0,
    minimum: 0,
    maximum: 30 * 86_400,
    description: 'Seconds the old key keeps working (its expiry is brought forward to then); 0 revokes it at once.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(30 * 86_400)
  overlap_seconds: number = 0;
}

export class RotatedApiKeyDto {
  @ApiProperty({ type: CreatedApiKeyDto, description: 'The new key, with its value: shown in this response only.' }) key!: CreatedApiKeyDto;
  @ApiProperty({ type: ApiKeyDto, description: 'The old key: revoked, or expiring at the end of the overlap.' }) previous!: ApiKeyDto;
}

const ID = /^key_[0-9a-z]{26}$/;

@ApiTags('api-keys')
@ApiBearerAuth()
@ApiExtension('x-required-scope', 'admin')
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'The scope admin is needed' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(ApiKeyCache) private readonly cache: ApiKeyCache,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(RevocationsSubscriber) private readonly revocations: RevocationsSubscriber,
  ) {}

  @Post()
  @RequireScope('admin')
  @ApiOperation({ summary: 'Create an API key', description: 'The key value is in this response only; Vigil stores a hash of it.' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiResponse({ status: 422, description: 'expires_at is not in the future' })
  create(@Body() body: CreateApiKeyDto, @Req() req: { user: Principal }): Promise<CreatedApiKeyResponse> {
    return this.rpc.auth.call<CreateApiKeyRequest, CreatedApiKeyResponse>(RpcPatterns.auth.apiKeysCreate, {
      name: body.name,
      scopes: body.scopes,
      expires_at: body.expires_at ?? null,
      created_by: req.user.credentialId,
    });
  }

  @Get()
  @RequireScope('admin')
  @ApiOperation({ summary: 'List API keys (never their values)' })
  @ApiOkResponse({ description: '`{data: ApiKey[], pagination}`' })
  list(@Query() query: PageQueryDto): Promise<AccessPage<ApiKeyResponse>> {
    return this.rpc.auth.call(RpcPatterns.auth.apiKeysList, { page: query.page, per_page: query.per_page });
  }

  @Delete(':key_id')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({ summary: 'Revoke an API key', description: 'Requests with the key get 401 from then on, on every gateway replica.' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiResponse({ status: 404, description: 'No such key' })
  async revoke(@Param('key_id') id: string): Promise<ApiKeyResponse> {
    if (!ID.test(id)) throw notFound(id);
    const revoked = await this.rpc.auth.call<{ id: string }, ApiKeyResponse>(RpcPatterns.auth.apiKeysRevoke, { id });
    // This replica at once (cache and open streams); the others through the shared marker (Redis) and the revocation topic.
    this.revocations.apply({ kind: 'api_key', id, expires_at: revoked.expires_at, reason: 'revoked' });
    await this.limiter.store.markRevoked(`key:${id}`, 3600).catch(() => undefined);
    return revoked;
  }

  @Post(':key_id/rotate')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Rotate an API key',
    description:
      'Creates a new key with the same name, scopes, expiry and creator; its value is in this response only. The old key is revoked at once ' +
      '(overlap_seconds 0, the default) or keeps working until the overlap ends, when every replica refuses it and closes its event streams.',
  })
  @ApiOkResponse({ type: RotatedApiKeyDto })
  @ApiResponse({ status: 404, description: 'No such key' })
  @ApiResponse({ status: 409, description: 'The key is revoked or expired (code api_key_revoked)' })
  async rotate(@Param('key_id') id: string, @Body() body: RotateApiKeyDto): Promise<RotatedApiKeyResponse> {
    if (!ID.test(id)) throw notFound(id);
    const rotated = await this.rpc.auth.call<RotateApiKeyRequest, RotatedApiKeyResponse>(RpcPatterns.auth.apiKeysRotate, { id, overlap_seconds: body.overlap_seconds });
    if (rotated.previous.revoked_at) {
      this.revocations.apply({ kind: 'api_key', id, expires_at: rotated.previous.expires_at, reason: 'rotated' });
      await this.limiter.store.markRevoked(`key:${id}`, 3600).catch(() => undefined);
    } else {
      // The cached entry still has the old expiry: drop it, the next use reads the shortened one.
      this.cache.forget(id);
    }
    return rotated;
  }
}

function notFound(id: string): DomainException {
  return DomainException.notFound('API key', id, 'api_key_not_found');
}
