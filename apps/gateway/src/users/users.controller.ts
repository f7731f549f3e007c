import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessPage,
  type CreateUserRequest,
  type ResetPasswordRequest,
  type RevokedSessionsResponse,
  type Revoking,
  RpcPatterns,
  Scopes,
  type UpdateUserRequest,
  type UserResponse,
} from '@vigil/contracts';
import { DomainException } from '@vigil/platform';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../api-keys/api-keys.controller';
import { RequireScope } from '../auth/auth.guard';
import { RevocationsSubscriber } from '../auth/revocations.subscriber';
import { RpcClients } from '../rpc/rpc-clients';

export class CreateUserDto {
  @ApiProperty({ example: 'analyst@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ format: 'password', minLength: 12 })
  @IsString()
  @MinLength(12)
  @MaxLength(1024)
  password!: string;

  @ApiProperty({ enum: Scopes, isArray: true, example: ['read:logs', 'read:policies'] })
  @IsArray()
  @ArrayMaxSize(Scopes.length)
  @IsIn(Scopes, { each: true })
  scopes!: string[];
}

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: Scopes, isArray: true, description: 'Replaces the scopes; taking one away ends the user\'s sessions.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(Scopes.length)
  @IsIn(Scopes, { each: true })
  scopes?: string[];

  @ApiPropertyOptional({ description: 'true disables the account (its sessions and API keys are revoked at once); false enables it again.' })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

export class ResetPasswordDto {
  @ApiProperty({ format: 'password', minLength: 12, description: 'At least 12 characters, not a commonly used password' })
  @IsString()
  @MinLength(12)
  @MaxLength(1024)
  password!: string;
}

export class UserDto {
  @ApiProperty({ example: 'usr_01j9...' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: Scopes, isArray: true }) scopes!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Set while the account is disabled' }) disabled_at!: string | null;
}

export class RevokedSessionsDto {
  @ApiProperty({ description: 'Sessions (refresh-token families) revoked', example: 2 }) revoked_sessions!: number;
}

/** Users who log in to the API and the consent page; their scopes bound every token they get. */
@ApiTags('users')
@ApiBearerAuth()
@ApiExtension('x-required-scope', 'admin')
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'The scope admin is needed' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/users')
export class UsersController {
  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(RevocationsSubscriber) private readonly revocations: RevocationsSubscriber,
  ) {}

  @Post()
  @RequireScope('admin')
  @ApiOperation({ summary: 'Create a user' })
  @ApiCreatedResponse({ type: UserDto })
  @ApiResponse({ status: 409, description: 'The e-mail address is taken' })
  create(@Body() body: CreateUserDto): Promise<UserResponse> {
    return this.rpc.auth.call<CreateUserRequest, UserResponse>(RpcPatterns.auth.usersCreate, { email: body.email, password: body.password, scopes: body.scopes });
  }

  @Get()
  @RequireScope('admin')
  @ApiOperation({ summary: 'List users' })
  @ApiOkResponse({ description: '`{data: User[], pagination}`' })
  list(@Query() query: PageQueryDto): Promise<AccessPage<UserResponse>> {
    return this.rpc.auth.call(RpcPatterns.auth.usersList, { page: query.page, per_page: query.per_page });
  }

  @Get(':user_id')
  @RequireScope('admin')
  @ApiOperation({ summary: 'Get a user' })
  @ApiOkResponse({ type: UserDto })
  @ApiResponse({ status: 404, description: 'No such user' })
  get(@Param('user_id') id: string): Promise<UserResponse> {
    return this.rpc.auth.call(RpcPatterns.auth.usersGet, { id: id });
  }

  @Patch(':user_id')
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Change a user\'s scopes, or disable or enable the account',
    description:
      'Disabling revokes every session and every API key the user created, at once on every gateway replica (open event streams ' +
      'close with `stream.closed`); a disabled user cannot log in or refresh. Taking a scope away ends the user\'s sessions. ' +
      'The last enabled administrator can be neither disabled nor lose `admin` (409).',
  })
  @ApiOkResponse({ type: UserDto })
  @ApiResponse({ status: 404, description: 'No such user' })
  @ApiResponse({ status: 409, description: 'This is the last enabled administrator (code last_administrator)' })
  async update(@Param('user_id') id: string, @Body() body: UpdateUserDto): Promise<UserResponse> {
    if (body.scopes === undefined && body.disabled === undefined) {
      throw DomainException.validation([{ field: 'scopes', message: 'give scopes, disabled or both' }]);
    }
    // What auth revoked applies on this replica at once; the others learn it from the revocation topic.
    return this.revocations.settle(
      await this.rpc.auth.call<UpdateUserRequest, Revoking<UserResponse>>(RpcPatterns.auth.usersUpdate, { id: id, scopes: body.scopes, disabled: body.disabled }),
    );
  }

  @Delete(':user_id')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Delete a user',
    description: 'Revokes the user\'s sessions and API keys at once on every gateway replica, then deletes the account. The last enabled administrator cannot be deleted (409).',
  })
  @ApiOkResponse({ type: UserDto, description: 'The deleted user' })
  @ApiResponse({ status: 404, description: 'No such user' })
  @ApiResponse({ status: 409, description: 'This is the last enabled administrator (code last_administrator)' })
  async delete(@Param('user_id') id: string): Promise<UserResponse> {
    return this.revocations.settle(await this.rpc.auth.call<{ id: string }, Revoking<UserResponse>>(RpcPatterns.auth.usersDelete, { id: id }));
  }

  @Post(':user_id/password')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({ summary: 'Reset a user\'s password (administrator)', description: 'Every session of the user ends.' })
  @ApiOkResponse({ type: RevokedSessionsDto })
  @ApiResponse({ status: 404, description: 'No such user' })
  @ApiResponse({ status: 422, description: 'The password is too weak (code weak_password)' })
  async resetPassword(@Param('user_id') id: string, @Body() body: ResetPasswordDto): Promise<RevokedSessionsResponse> {
    return this.revocations.settle(
      await this.rpc.auth.call<ResetPasswordRequest, Revoking<RevokedSessionsResponse>>(RpcPatterns.auth.usersResetPassword, { id: id, password: body.password }),
    );
  }

  @Delete(':user_id/sessions')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Revoke every session of a user',
    description: 'Refresh tokens stop working and access tokens of those sessions are refused at once on every gateway replica. API keys are not affected.',
  })
  @ApiOkResponse({ type: RevokedSessionsDto })
  @ApiResponse({ status: 404, description: 'No such user' })
  async revokeSessions(@Param('user_id') id: string): Promise<RevokedSessionsResponse> {
    return this.revocations.settle(await this.rpc.auth.call<{ id: string }, Revoking<RevokedSessionsResponse>>(RpcPatterns.auth.sessionsRevokeAll, { id: id }));
  }
}
