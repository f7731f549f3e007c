import { Body, Controller, Get, Inject, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessPage, type CreateUserRequest, RpcPatterns, Scopes, type UserResponse } from '@vigil/contracts';
import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../api-keys/api-keys.controller';
import { RequireScope } from '../auth/auth.guard';
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

export class UserDto {
  @ApiProperty({ example: 'usr_01j9...' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: Scopes, isArray: true }) scopes!: string[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
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
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

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
}
