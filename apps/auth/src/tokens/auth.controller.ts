import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type JsonWebKeySet, type LoginRequest, type RefreshRequest, RpcPatterns, type TokenResponse } from '@vigil/contracts';
import { DomainException, RpcPayload } from '@vigil/platform';
import { verifyPassword } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { SigningKeysService } from './signing-keys.service';
import { TokensService } from './tokens.service';

export enum AuthErrorCode {
  InvalidCredentials = 'invalid_credentials',
}

@Controller()
export class AuthController {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(TokensService) private readonly tokens: TokensService,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
  ) {}

  @MessagePattern(RpcPatterns.auth.login)
  async login(@RpcPayload() request: LoginRequest): Promise<TokenResponse> {
    const user = await this.users.findByEmail(String(request?.email ?? ''));
    const ok = await verifyPassword(user?.password_hash, String(request?.password ?? ''));
    if (!user || !ok) {
      throw new DomainException(401, AuthErrorCode.InvalidCredentials, 'The e-mail or password is wrong.', undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    return this.tokens.issue(user.id, user.scopes);
  }

  @MessagePattern(RpcPatterns.auth.refresh)
  refresh(@RpcPayload() request: RefreshRequest): Promise<TokenResponse> {
    return this.tokens.refresh(String(request?.refresh_token ?? ''));
  }

  @MessagePattern(RpcPatterns.auth.jwks)
  jwks(): JsonWebKeySet {
    return this.keys.publicKeys();
  }
}
