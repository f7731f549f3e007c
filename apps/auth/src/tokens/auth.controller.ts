import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type JsonWebKeySet, type LoginRequest, type RefreshRequest, RpcPatterns, type SigningKeyRotationResponse, type TokenResponse } from '@vigil/contracts';
import { AuditTrail } from '@vigil/messaging';
import { DomainException, RpcPayload } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { verifyPassword } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { SigningKeysService } from './signing-keys.service';
import { TokensService } from './tokens.service';

export enum AuthErrorCode {
  InvalidCredentials = 'invalid_credentials',
  AccountDisabled = 'account_disabled',
}

@Controller()
export class AuthController {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(TokensService) private readonly tokens: TokensService,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  @MessagePattern(RpcPatterns.auth.login)
  async login(@RpcPayload() request: LoginRequest): Promise<TokenResponse> {
    const email = String(request?.email ?? '');
    const user = await this.users.findByEmail(email);
    const ok = await verifyPassword(user?.password_hash, String(request?.password ?? ''));
    if (!user || !ok) {
      // A failed login is an event by itself (never the password that was tried).
      await this.dataSource.transaction((manager) =>
        this.audit.record(manager, {
          type: 'vigil.session.login_failed',
          target: { type: 'user', id: user?.id ?? null },
          subject: email.slice(0, 320),
          reason: user ? 'wrong_password' : 'unknown_user',
        }),
      );
      throw new DomainException(401, AuthErrorCode.InvalidCredentials, 'The e-mail or password is wrong.', undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    // Said only to whoever knows the password: a disabled account is not revealed by a guess.
    if (user.disabled_at) {
      await this.dataSource.transaction((manager) =>
        this.audit.record(manager, {
          type: 'vigil.session.login_failed',
          target: { type: 'user', id: user.id },
          subject: user.email,
          reason: 'account_disabled',
        }),
      );
      throw new DomainException(401, AuthErrorCode.AccountDisabled, 'This account is disabled.', undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    return this.dataSource.transaction(async (manager) => {
      const tokens = await this.tokens.issue(user.id, user.scopes, {}, manager);
      await this.audit.record(manager, {
        type: 'vigil.session.login_succeeded',
        target: { type: 'user', id: user.id },
        actor: { kind: 'user', id: user.id },
        subject: user.email,
      });
      return tokens;
    });
  }

  @MessagePattern(RpcPatterns.auth.refresh)
  refresh(@RpcPayload() request: RefreshRequest): Promise<TokenResponse> {
    return this.tokens.refresh(String(request?.refresh_token ?? ''));
  }

  @MessagePattern(RpcPatterns.auth.jwks)
  jwks(): Promise<JsonWebKeySet> {
    return this.keys.currentPublicKeys();
  }

  @MessagePattern(RpcPatterns.auth.signingKeysRotate)
  rotateSigningKey(): Promise<SigningKeyRotationResponse> {
    return this.keys.rotate();
  }
}
