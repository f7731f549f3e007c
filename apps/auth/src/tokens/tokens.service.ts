import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { TokenResponse } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { CONFIG } from '@vigil/platform';
import { sign } from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import type { AuthConfig } from '../auth.service-definition';
import { JWT_ALGORITHM, SigningKeysService } from './signing-keys.service';

export const REFRESH_TOKEN_PREFIX = 'vigil_rt_';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues access tokens (ES256 JWTs, pinned issuer and audience) and opaque refresh tokens. */
@Injectable()
export class TokensService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SigningKeysService) private readonly keys: SigningKeysService,
    @Inject(CONFIG) private readonly config: AuthConfig,
  ) {}

  accessToken(subject: string, scopes: string[]): string {
    const { kid, privateKey } = this.keys.signingKey();
    return sign({ scope: scopes.join(' '), token_use: 'access' }, privateKey, {
      algorithm: JWT_ALGORITHM,
      keyid: kid,
      issuer: this.config.JWT_ISSUER,
      audience: this.config.JWT_AUDIENCE,
      subject,
      expiresIn: this.config.ACCESS_TOKEN_TTL_SECONDS,
      jwtid: randomUUID(),
    });
  }

  async issue(userId: string, scopes: string[], familyId = newId('session')): Promise<TokenResponse> {
    const refreshToken = `${REFRESH_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    await this.dataSource.query(
      `INSERT INTO auth.refresh_tokens (id, token_hash, user_id, family_id, scopes, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [randomUUID(), hashToken(refreshToken), userId, familyId, scopes, this.config.REFRESH_TOKEN_TTL_SECONDS],
    );
    return {
      access_token: this.accessToken(userId, scopes),
      refresh_token: refreshToken,
      expires_in: this.config.ACCESS_TOKEN_TTL_SECONDS,
      token_type: 'Bearer',
    };
  }
}
