import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type LoginRequest, type RefreshRequest, RpcPatterns, type TokenResponse } from '@vigil/contracts';
import { DomainException, Public } from '@vigil/platform';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { LoginThrottle } from '../rate-limit/login-throttle';
import { RpcClients } from '../rpc/rpc-clients';
import { UNAUTHORIZED_HEADERS } from './authenticator';

export class LoginDto {
  @ApiProperty({ example: 'admin@example.com' })
  @IsString()
  @MinLength(3)
  @MaxLength(320)
  email!: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password!: string;
}

export class RefreshDto {
  @ApiProperty({ description: 'The refresh token of the last login or refresh; it works once.' })
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  refresh_token!: string;
}

export class TokenResponseDto {
  @ApiProperty({ description: 'ES256 JWT; send as `Authorization: Bearer <token>`' }) access_token!: string;
  @ApiProperty({ description: 'Opaque; rotates on every refresh' }) refresh_token!: string;
  @ApiProperty({ example: 3600 }) expires_in!: number;
  @ApiProperty({ example: 'Bearer' }) token_type!: 'Bearer';
}

/** 401s crossing the RPC boundary lose their headers; the challenge is added back here. */
async function withChallenge<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof DomainException && error.status === 401) {
      throw new DomainException(401, error.code, error.message, undefined, UNAUTHORIZED_HEADERS);
    }
    throw error;
  }
}

@ApiTags('auth')
@Controller('v1/auth')
export class AuthController {
  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(LoginThrottle) private readonly throttle: LoginThrottle,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Log in with e-mail and password',
    description:
      'Rate-limited per client IP, and per e-mail address after consecutive failures (5 failures: 1 s, doubling to 15 min; ' +
      'a success resets it), both before the password is checked. Unknown e-mail addresses are throttled the same way.',
  })
  @ApiBody({ type: LoginDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiResponse({ status: 401, description: 'Wrong e-mail or password' })
  @ApiResponse({ status: 429, description: 'Too many attempts from this address, or too many failures for this e-mail address; `retry_after` and Retry-After say when to try again' })
  async login(@Body() body: LoginDto): Promise<TokenResponse> {
    await this.throttle.assertOpen(body.email);
    try {
      const tokens = await withChallenge(this.rpc.auth.call<LoginRequest, TokenResponse>(RpcPatterns.auth.login, { email: body.email, password: body.password }));
      await this.throttle.succeeded(body.email);
      return tokens;
    } catch (error) {
      if (error instanceof DomainException && error.status === 401) await this.throttle.failed(body.email);
      throw error;
    }
  }

  @Public()
  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a refresh token for new tokens',
    description: 'Rotation: the answer carries a new refresh token and the old one stops working. Presenting a used refresh token again revokes the whole session.',
  })
  @ApiBody({ type: RefreshDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiResponse({ status: 401, description: 'Invalid, expired, revoked or reused refresh token' })
  refresh(@Body() body: RefreshDto): Promise<TokenResponse> {
    return withChallenge(this.rpc.auth.call<RefreshRequest, TokenResponse>(RpcPatterns.auth.refresh, { refresh_token: body.refresh_token }));
  }
}
