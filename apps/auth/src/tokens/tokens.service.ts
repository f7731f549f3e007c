import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CredentialRevocationReason, CredentialRevoked, TokenResponse } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { CONFIG, DomainException } from '@vigil/platform';
import { sign } from 'jsonwebtoken';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthConfig } from '../auth.service-definition';
import { RevocationsPublisher } from '../revocations/revocations.publisher';
import { UsersRepository } from '../users/users.repository';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { JWT_ALGORITHM, SigningKeysService } from './signing-keys.service';

export const REFRESH_TOKEN_PREFIX = 'vigil_rt_';

export enum TokenErrorCode {
  InvalidRefreshToken = 'invalid_refresh_token',
  RefreshTokenReused = 'refresh_token_reused',
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface AccessTokenClaims {
  /** The refresh-token family (login session) the token belongs to; revoking it kills the token. */
  sid?: string;
  /** Set on tokens issued to an OAuth client. */
  client_id?: string;
}

export interface IssueOptions {
  familyId?: string;
  /** The end of the session a rotated token belongs to; omitted for a new session. */
  sessionExpiresAt?: Date;
  clientId?: string | null;
  /** False for grants that get no refresh token (client_credentials). */
  withRefreshToken?: boolean;
}

export type RotateOutcome =
  | { ok: true; tokens: TokenResponse; scopes: string[] }
  | { ok: false; reason: 'invalid' | 'reused' | 'wrong_client' | 'invalid_scope' };

/** Issues access tokens (ES256 JWTs, pinned issuer and audience) and opaque, rotating refresh tokens. */
@Injectable()
export class TokensService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
    @Inject(RefreshTokensRepository) private readonly refreshTokens: RefreshTokensRepository,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(RevocationsPublisher) private readonly revocations: RevocationsPublisher,
    @Inject(CONFIG) private readonly config: AuthConfig,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  get accessTokenTtl(): number {
    return this.config.ACCESS_TOKEN_TTL_SECONDS;
  }

  accessToken(subject: string, scopes: string[], claims: AccessTokenClaims = {}): string {
    const { kid, privateKey } = this.keys.signingKey();
    return sign({ scope: scopes.join(' '), token_use: 'access', ...claims }, privateKey, {
      algorithm: JWT_ALGORITHM,
      keyid: kid,
      issuer: this.config.JWT_ISSUER,
      audience: this.config.JWT_AUDIENCE,
      subject,
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      jwtid: randomUUID(),
    });
  }

  async issue(userId: string, scopes: string[], options: IssueOptions = {}, manager?: EntityManager): Promise<TokenResponse> {
    const familyId = options.familyId ?? newId('session');
    const clientId = options.clientId ?? null;
    const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    await this.refreshTokens.insert(manager ?? this.dataSource.manager, {
      id: randomUUID(),
      token_hash: hashToken(refreshToken),
      user_id: userId,
      family_id: familyId,
      client_id: clientId,
      scopes,
      ttl_seconds: this.config.REFRESH_TOKEN_TTL_SECONDS,
      session_expires_at: options.sessionExpiresAt ?? null,
      absolute_ttl_seconds: this.config.REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
    });
    return {
      access_token: this.accessToken(userId, scopes, { sid: familyId, ...(clientId ? { client_id: clientId } : {}) }),
      refresh_token: refreshToken,
      expires_in: this.config.ACCESS_TOKEN_TTL_SECONDS,
      token_type: 'Bearer',
    };
  }

  /**
   * Refresh-token rotation (RFC 9700 4.14.2): a token works once and is replaced by a new one of
   * the same family. Presenting a token that was already rotated means it was copied: the whole
   * family is revoked (and announced, so access tokens of that session stop at every gateway).
   * `clientId` null is the first-party login; an OAuth client may only use its own tokens.
   */
  async rotate(rawToken: string, clientId: string | null, narrowTo?: string[]): Promise<RotateOutcome> {
    const outcome = await this.dataSource.transaction(async (manager): Promise<RotateOutcome> => {
      const row = await this.refreshTokens.lockByHash(manager, hashToken(rawToken));
      if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'invalid' };
      if (row.client_id !== clientId) return { ok: false, reason: 'wrong_client' };
      // The session's owner: the user for the first-party login, the client for an OAuth grant.
      const actor = clientId ? { kind: 'oauth_client' as const, id: clientId } : { kind: 'user' as const, id: row.user_id };
      if (row.used_at) {
        await this.revokeFamily(manager, row.family_id);
        // Committed with the revocation: the reuse is recorded even though the request fails.
        await this.audit.record(manager, {
          type: 'vigil.session.refresh_reused',
          target: { type: 'session', id: row.family_id },
          actor,
          reason: 'refresh_token_reused',
          after: { revoked: true },
        });
        return { ok: false, reason: 'reused' };
      }
      if (narrowTo && narrowTo.some((s) => !row.scopes.includes(s))) return { ok: false, reason: 'invalid_scope' };
      const user = await this.users.findById(row.user_id, manager);
      if (!user || user.disabled_at) return { ok: false, reason: 'invalid' };
      // Never wider than what the token carried nor than what the user holds today.
      const scopes = (narrowTo ?? row.scopes).filter((s) => user.scopes.includes(s) || user.scopes.includes('admin'));
      await this.refreshTokens.markUsed(manager, row.id);
      const tokens = await this.issue(row.user_id, scopes, { familyId: row.family_id, sessionExpiresAt: row.session_expires_at, clientId }, manager);
      await this.audit.record(manager, { type: 'vigil.session.refreshed', target: { type: 'session', id: row.family_id }, actor, after: { scopes } });
      return { ok: true, tokens, scopes };
    });
    return outcome;
  }

  /** Revokes a refresh-token family and tells the gateways to refuse its access tokens. */
  async revokeFamily(manager: EntityManager, familyId: string, reason: CredentialRevocationReason = 'revoked'): Promise<void> {
    await this.refreshTokens.revokeFamily(manager, familyId);
    await this.revocations.publish(manager, [{ kind: 'session', id: familyId, expires_at: this.accessTokensEnd(), reason }]);
  }

  /**
   * Revokes every session of a user (all but `exceptFamilyId`) and announces each, so access
   * tokens of those sessions and streams opened with them stop on every gateway. Returns them.
   */
  async revokeUserSessions(
    manager: EntityManager,
    userId: string,
    reason: CredentialRevocationReason,
    exceptFamilyId: string | null = null,
  ): Promise<CredentialRevoked[]> {
    const families = await this.refreshTokens.revokeUserSessions(manager, userId, exceptFamilyId);
    const revoked = families.map((f) => ({ kind: 'session' as const, id: f.family_id, expires_at: this.accessTokensEnd(), reason }));
    await this.revocations.publish(manager, revoked);
    return revoked;
  }

  /** When every access token issued from now on has expired: how long a deny-list entry must last. */
  accessTokensEnd(): string {
    return new Date(Date.now() + this.config.ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString();
  }

  /** First-party refresh (`POST /v1/auth/refresh`): problem documents rather than OAuth errors. */
  async refresh(rawToken: string): Promise<TokenResponse> {
    const outcome = await this.rotate(rawToken, null);
    if (outcome.ok) return outcome.tokens;
    if (outcome.reason === 'reused') {
      throw new DomainException(401, TokenErrorCode.RefreshTokenReused, 'This refresh token was already used; its session has been revoked.', undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    }
    throw new DomainException(401, TokenErrorCode.InvalidRefreshToken, 'The refresh token is invalid, expired or revoked.', undefined, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  }
}
