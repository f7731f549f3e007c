import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { CONFIG } from '@vigil/platform';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { GatewayConfig } from '../gateway.service-definition';
import { JwksCache } from './jwks.cache';
import type { Principal } from './principal';

interface AccessClaims {
  sub: string;
  scope?: string;
  token_use?: string;
  jti?: string;
}

function kidOf(rawJwt: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Access tokens: ES256 only (no `none`, no HMAC confusion), issuer and audience pinned, expiry
 * enforced, key chosen by `kid` from the cached JWKS.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(CONFIG) config: GatewayConfig, @Inject(JwksCache) jwks: JwksCache) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: ['ES256'],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      ignoreExpiration: false,
      secretOrKeyProvider: (_req: unknown, rawJwt: string, done: (err: unknown, key?: string | Buffer) => void) => {
        const kid = kidOf(rawJwt);
        if (!kid) return done(null, undefined);
        // jsonwebtoken accepts a KeyObject; the declared type predates it.
        jwks.get(kid).then((key) => done(null, key as unknown as Buffer | undefined), (error) => done(error));
      },
    });
  }

  validate(claims: AccessClaims): Principal | false {
    if (claims.token_use !== 'access' || typeof claims.sub !== 'string') return false;
    return {
      kind: 'user',
      subject: claims.sub,
      scopes: (claims.scope ?? '').split(' ').filter(Boolean),
      credentialId: `user:${claims.sub}`,
    };
  }
}
