import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@vigil/platform';
import { type JwtPayload, verify } from 'jsonwebtoken';
import type { GatewayConfig } from '../gateway.service-definition';
import { JwksCache } from './jwks.cache';
import type { Principal } from './principal';
import { RevocationList } from './revocation-list';

interface AccessClaims extends JwtPayload {
  scope?: string;
  token_use?: string;
  sid?: string;
  client_id?: string;
}

function headerOf(token: string): { kid?: unknown; alg?: unknown } | undefined {
  try {
    return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Access tokens, verified locally: ES256 only (no `none`, no HMAC with the public key as secret),
 * the key chosen by `kid` from the cached JWKS, issuer and audience pinned, expiry enforced,
 * `token_use` must be `access`; then the deny-lists fed by auth's revocations (session and jti).
 */
@Injectable()
export class AccessTokenVerifier {
  readonly revoked = new RevocationList();
  /**
   * Tokens already verified, until they expire: a client sends the same token for an hour, and an
   * ECDSA verification per request is most of the cost of authentication. The deny-lists are
   * still consulted on every request.
   */
  private readonly verified = new Map<string, { principal: Principal; expMs: number; sid?: string; jti?: string }>();

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(JwksCache) private readonly jwks: JwksCache,
  ) {}

  async verify(token: string): Promise<Principal | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expMs <= Date.now()) {
        this.verified.delete(token);
        return null;
      }
      if (this.revoked.has('sid', known.sid) || this.revoked.has('jti', known.jti)) return null;
      return known.principal;
    }
    const principal = await this.verifySignature(token);
    return principal;
  }

  private async verifySignature(token: string): Promise<Principal | null> {
    const header = headerOf(token);
    if (!header || header.alg !== 'ES256' || typeof header.kid !== 'string') return null;
    const key = await this.jwks.get(header.kid);
    if (!key) return null;
    let claims: AccessClaims;
    try {
      claims = verify(token, key, {
        algorithms: ['ES256'],
        issuer: this.config.JWT_ISSUER,
        audience: this.config.JWT_AUDIENCE,
      }) as AccessClaims;
    } catch {
      return null;
    }
    if (claims.token_use !== 'access' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return null;
    if (this.revoked.has('sid', claims.sid) || this.revoked.has('jti', claims.jti)) return null;
    const scopes = (claims.scope ?? '').split(' ').filter(Boolean);
    const principal: Principal =
      claims.client_id && claims.sub === claims.client_id
        ? { kind: 'client', subject: claims.sub, scopes, credentialId: `client:${claims.sub}` }
        : { kind: 'user', subject: claims.sub, scopes, credentialId: `user:${claims.sub}` };
    if (this.verified.size >= 10_000) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { principal, expMs: claims.exp * 1000, sid: claims.sid, jti: claims.jti });
    return principal;
  }

  revoke(kind: 'sid' | 'jti', id: string, expiresAt: string | null): void {
    const until = expiresAt ? Date.parse(expiresAt) : Date.now() + 24 * 3600 * 1000;
    this.revoked.add(kind, id, until);
    this.revoked.sweep();
  }
}
