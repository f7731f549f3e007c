import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type ChangeOwnPasswordRequest,
  type LoginRequest,
  type LogoutRequest,
  type RefreshRequest,
  type RevokedSessionsResponse,
  type Revoking,
  RpcPatterns,
  type SigningKeyRotationResponse,
  type TokenResponse,
} from '@vigil/contracts';
import { DomainException, Public } from '@vigil/platform';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { LoginThrottle } from '../rate-limit/login-throttle';
import { RpcClients } from '../rpc/rpc-clients';
import { RequireScope, RequireSignedInUser } from './auth.guard';
import { UNAUTHORIZED_HEADERS } from './authenticator';
import { type CookieRequest, type CookieResponse, clearRefreshCookie, REFRESH_COOKIE_HEADER, refreshFromCookie, setRefreshCookie, wantsRefreshCookie } from './refresh-cookie';
import { JwksCache } from './jwks.cache';
import type { Principal } from './principal';
import { RevocationsSubscriber } from './revocations.subscriber';

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
  @ApiPropertyOptional({
    description: `The refresh token of the last login or refresh; it works once. Leave it out to use the refresh cookie instead, which needs the \`${REFRESH_COOKIE_HEADER}: cookie\` header.`,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  refresh_token?: string;
}

export class TokenResponseDto {
  @ApiProperty({ description: 'ES256 JWT; send as `Authorization: Bearer <token>`' }) access_token!: string;
  @ApiPropertyOptional({ description: `Opaque; rotates on every refresh. Absent when the request asked for the refresh cookie (\`${REFRESH_COOKIE_HEADER}: cookie\`): the token is then only in the cookie.` })
  refresh_token?: string;
  @ApiProperty({ example: 3600 }) expires_in!: number;
  @ApiProperty({ example: 'Bearer' }) token_type!: 'Bearer';
}

export class ChangePasswordDto {
  @ApiProperty({ format: 'password' })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  current_password!: string;

  @ApiProperty({ format: 'password', minLength: 12, description: 'At least 12 characters, not a commonly used password' })
  @IsString()
  @MinLength(12)
  @MaxLength(1024)
  new_password!: string;
}

export class LoggedOutDto {
  @ApiProperty({ example: 1 }) revoked_sessions!: number;
}

export class SigningKeyDto {
  @ApiProperty() kid!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) retired_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When a retired key leaves the JWKS (after every token it signed expired)' })
  published_until!: string | null;
}

export class SigningKeyRotationDto {
  @ApiProperty({ description: 'The key that signs from now on' }) kid!: string;
  @ApiProperty({ type: [SigningKeyDto], description: 'Keys in the JWKS, newest first' }) keys!: SigningKeyDto[];
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
    @Inject(RevocationsSubscriber) private readonly revocations: RevocationsSubscriber,
    @Inject(JwksCache) private readonly jwks: JwksCache,
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
  @ApiHeader({
    name: REFRESH_COOKIE_HEADER,
    required: false,
    description:
      '`cookie`: keep the refresh token in an httpOnly, SameSite=Strict cookie scoped to /v1/auth/refresh (Secure over https) instead of the answer. For browser applications on the gateway\'s own origin, such as the console.',
  })
  @ApiBody({ type: LoginDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiResponse({ status: 401, description: 'Wrong e-mail or password' })
  @ApiResponse({ status: 429, description: 'Too many attempts from this address, or too many failures for this e-mail address; `retry_after` and Retry-After say when to try again' })
  async login(@Body() body: LoginDto, @Req() req: CookieRequest, @Res({ passthrough: true }) res: CookieResponse): Promise<Partial<TokenResponse>> {
    await this.throttle.assertOpen(body.email);
    try {
      const tokens = await withChallenge(this.rpc.auth.call<LoginRequest, TokenResponse>(RpcPatterns.auth.login, { email: body.email, password: body.password }));
      await this.throttle.succeeded(body.email);
      return wantsRefreshCookie(req) ? setRefreshCookie(req, res, tokens) : tokens;
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
    description:
      'Rotation: the answer carries a new refresh token and the old one stops working. Presenting a used refresh token again revokes the whole session. ' +
      `Without refresh_token in the body, the refresh cookie of a login made with \`${REFRESH_COOKIE_HEADER}: cookie\` is used; that needs the same header ` +
      '(which a cross-site form cannot send) and, when the request has an Origin, the gateway\'s own origin. The new refresh token then goes into the cookie again.',
  })
  @ApiHeader({
    name: REFRESH_COOKIE_HEADER,
    required: false,
    description:
      '`cookie`: keep the refresh token in an httpOnly, SameSite=Strict cookie scoped to /v1/auth/refresh (Secure over https) instead of the answer. For browser applications on the gateway\'s own origin, such as the console.',
  })
  @ApiBody({ type: RefreshDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiResponse({ status: 401, description: 'Invalid, expired, revoked or reused refresh token, or no refresh token in the body or the cookie' })
  @ApiResponse({ status: 400, description: `No refresh_token in the body, no \`${REFRESH_COOKIE_HEADER}: cookie\` header and no cookie` })
  @ApiResponse({ status: 403, description: `The cookie was to be used without the \`${REFRESH_COOKIE_HEADER}: cookie\` header, or from another origin` })
  async refresh(@Body() body: RefreshDto, @Req() req: CookieRequest, @Res({ passthrough: true }) res: CookieResponse): Promise<Partial<TokenResponse>> {
    if (body.refresh_token !== undefined) {
      const tokens = await withChallenge(this.rpc.auth.call<RefreshRequest, TokenResponse>(RpcPatterns.auth.refresh, { refresh_token: body.refresh_token }));
      return wantsRefreshCookie(req) ? setRefreshCookie(req, res, tokens) : tokens;
    }
    const refreshToken = refreshFromCookie(req);
    try {
      const tokens = await withChallenge(this.rpc.auth.call<RefreshRequest, TokenResponse>(RpcPatterns.auth.refresh, { refresh_token: refreshToken }));
      return setRefreshCookie(req, res, tokens);
    } catch (error) {
      // A refresh token that no longer works is of no use in the browser either.
      if (error instanceof DomainException && error.status === 401) clearRefreshCookie(req, res);
      throw error;
    }
  }

  @Post('logout')
  @HttpCode(200)
  @RequireSignedInUser()
  @ApiOperation({
    summary: 'Log out',
    description:
      'Revokes the session of the access token sent: its refresh token stops working and its access tokens are refused at once ' +
      'on every gateway replica (event streams opened with them close). The refresh cookie, if any, is cleared. Needs a user\'s access token from a login, no scope.',
  })
  @ApiOkResponse({ type: LoggedOutDto })
  @ApiResponse({ status: 401, description: 'Missing or invalid access token' })
  @ApiResponse({ status: 403, description: 'Not a user\'s access token from a login (an API key or an OAuth client)' })
  @ApiResponse({ status: 404, description: 'The session is already gone' })
  async logout(@Req() req: CookieRequest & { user: Principal }, @Res({ passthrough: true }) res: CookieResponse): Promise<RevokedSessionsResponse> {
    // The guard lets only a user's access token with a session through (RequireSignedInUser).
    const { subject, sessionId = '' } = req.user;
    clearRefreshCookie(req, res);
    const answer = await this.rpc.auth.call<LogoutRequest, RevokedSessionsResponse>(RpcPatterns.auth.sessionsLogout, { user_id: subject, session_id: sessionId });
    // This replica at once; the others when the revocation arrives.
    this.revocations.apply({ kind: 'session', id: sessionId, expires_at: null, reason: 'logged_out' });
    return answer;
  }

  @Post('password')
  @HttpCode(200)
  @RequireSignedInUser()
  @ApiOperation({
    summary: 'Change your own password',
    description: 'Needs the current password. Every other session of the user ends; the one making the request stays. Needs a user\'s access token from a login, no scope.',
  })
  @ApiBody({ type: ChangePasswordDto })
  @ApiOkResponse({ type: LoggedOutDto, description: 'How many other sessions were revoked' })
  @ApiResponse({ status: 401, description: 'Missing or invalid access token' })
  @ApiResponse({ status: 403, description: 'The current password is wrong (code wrong_current_password), or not a user\'s access token' })
  @ApiResponse({ status: 422, description: 'The new password is too weak (code weak_password)' })
  async changePassword(@Body() body: ChangePasswordDto, @Req() req: { user: Principal }): Promise<RevokedSessionsResponse> {
    const answer = await this.rpc.auth.call<ChangeOwnPasswordRequest, Revoking<RevokedSessionsResponse>>(RpcPatterns.auth.usersChangeOwnPassword, {
      user_id: req.user.subject,
      current_password: body.current_password,
      new_password: body.new_password,
      keep_session_id: req.user.sessionId ?? null,
    });
    return this.revocations.settle(answer);
  }

  @Post('signing-keys/rotate')
  @HttpCode(200)
  @RequireScope('admin')
  @ApiOperation({
    summary: 'Rotate the token signing key now',
    description:
      'A new key signs access tokens from now on. The old one stays in the JWKS (/.well-known/jwks.json) until every token it ' +
      'signed has expired, so tokens already issued keep working. Keys also rotate on their own every SIGNING_KEY_ROTATION_DAYS.',
  })
  @ApiOkResponse({ type: SigningKeyRotationDto })
  @ApiResponse({ status: 401, description: 'Missing or invalid credential' })
  @ApiResponse({ status: 403, description: 'The scope admin is needed' })
  async rotateSigningKey(): Promise<SigningKeyRotationResponse> {
    const rotated = await this.rpc.auth.call<object, SigningKeyRotationResponse>(RpcPatterns.auth.signingKeysRotate, {});
    this.jwks.forget();
    return rotated;
  }
}
