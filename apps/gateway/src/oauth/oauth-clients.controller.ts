import { Body, Controller, Get, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessPage, type CreatedOAuthClientResponse, type CreateOAuthClientRequest, OAuthGrantTypes, type OAuthClientResponse, RpcPatterns, Scopes } from '@vigil/contracts';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../api-keys/api-keys.controller';
import { RequireScope } from '../auth/auth.guard';
import type { Principal } from '../auth/principal';
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
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

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
}
