import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessPage,
  type CreatedOAuthClientResponse,
  type CreateOAuthClientRequest,
  OAuthGrantTypes,
  type OAuthClientResponse,
  type RotatedOAuthClientSecretResponse,
  type RotateOAuthClientSecretRequest,
  RpcPatterns,
  Scopes,
} from '@vigil/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PageQueryDto } from '../api-keys/api-keys.controller';
import { RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
import { RevocationsSubscriber } from '../auth/revocations.subscriber';
import { RpcClients } from '../rpc/rpc-clients';

export class CreateOAuthClientDto {
  @ApiProperty({ example: 'Compliance dashboard' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ type: [String], example: ['https://dashboard.example.com/callback'], description: 'Matched exactly; https, or http on a loopback host' })
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  redirect_uris!: string[];

  @ApiProperty({ enum: OAuthGrantTypes, isArray: true })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(OAuthGrantTypes, { each: true })
  grant_types!: string[];

  @ApiProperty({ enum: Scopes, isArray: true, description: 'The widest scopes the client may ever get' })
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(Scopes, { each: true })
  scopes!: string[];
}

export class OAuthClientDto {
  @ApiProperty({ example: 'cli_01j9...' }) client_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) redirect_uris!: string[];
  @ApiProperty({ enum: OAuthGrantTypes, isArray: true }) grant_types!: string[];
  @ApiProperty({ enum: Scopes, isArray: true }) scopes!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) secret_rotated_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Until then the secret before the last rotation is still accepted' })
  previous_secret_expires_at!: string | null;
}

export class RotateClientSecretDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 30 * 86_400,
    description: 'Seconds the current secret is still accepted after the rotation; default OAUTH_SECRET_OVERLAP_SECONDS (one day). 0 ends it at once.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(30 * 86_400)
  overlap_seconds?: number;
}

export class RotatedClientSecretDto {
  @ApiProperty() client_id!: string;
  @ApiProperty({ description: 'The new secret. Shown in this response only.' }) client_secret!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the previous secret stops being accepted; null: already' })
  previous_secret_expires_at!: string | null;
}

export class CreatedOAuthClientDto extends OAuthClientDto {
  @ApiProperty({ description: 'Shown in this response only' }) client_secret!: string;
}

@ApiTags('oauth-clients')
@ApiBearerAuth()
@ApiExtension('x-required-scope', 'admin')
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'The scope admin is needed' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/oauth/clients')
export class OAuthClientsController {
  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(RevocationsSubscriber) private readonly revocations: RevocationsSubscriber,
  ) {}

  @Post()
  @RequireScope('admin')
  @ApiOperation({ summary: 'Register an OAuth client', description: '`client_secret` is returned once.' })
  @ApiCreatedResponse({ type: CreatedOAuthClientDto })
  @ApiResponse({ status: 422, description: 'A redirect URI cannot be registered' })
  create(@Body() body: CreateOAuthClientDto, @Req() req: { user: Principal }): Promise<CreatedOAuthClientResponse> {
    return this.rpc.auth.call<CreateOAuthClientRequest, CreatedOAuthClientResponse>(RpcPatterns.auth.oauthClientsCreate, {
      name: body.name,
      redirect_uris: body.redirect_uris,
      grant_types: body.grant_types as CreateOAuthClientRequest['grant_types'],
      scopes: body.scopes,
      created_by: req.user.credentialId,
    });
  }

  @Get()
  @RequireScope('admin')
  @ApiOperation({ summary: 'List OAuth clients (never their secrets)' })
  @ApiOkResponse({ description: '`{data: OAuthClient[], pagination}`' })
  list(@Query() query: PageQueryDto): Promise<AccessPage<OAuthClientResponse>> {
    return this.rpc.auth.call(RpcPatterns.auth.oauthClientsList, { page: query.page, per_page: query.per_page });
  }

  @Delete(':client_id')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Delete an OAuth client',
    description: 'Its refresh tokens are revoked and every access token issued to it is refused at once on every gateway replica.',
  })
  @ApiOkResponse({ type: OAuthClientDto, description: 'The deleted client' })
  @ApiResponse({ status: 404, description: 'No such client' })
  async delete(@Param('client_id') id: string): Promise<OAuthClientResponse> {
    const deleted = await this.rpc.auth.call<{ client_id: string }, OAuthClientResponse>(RpcPatterns.auth.oauthClientsDelete, { client_id: id });
    this.revocations.apply({ kind: 'client', id, expires_at: null, reason: 'client_deleted' });
    return deleted;
  }

  @Post(':client_id/secret')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Rotate an OAuth client\'s secret',
    description: 'The new secret is returned once. The previous one is still accepted for overlap_seconds, so the client can switch without downtime.',
  })
  @ApiOkResponse({ type: RotatedClientSecretDto })
  @ApiResponse({ status: 404, description: 'No such client' })
  rotateSecret(@Param('client_id') id: string, @Body() body: RotateClientSecretDto): Promise<RotatedOAuthClientSecretResponse> {
    return this.rpc.auth.call<RotateOAuthClientSecretRequest, RotatedOAuthClientSecretResponse>(RpcPatterns.auth.oauthClientsRotateSecret, {
      client_id: id,
      overlap_seconds: body.overlap_seconds,
    });
  }
}
