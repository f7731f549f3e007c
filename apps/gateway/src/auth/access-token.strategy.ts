import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ACCESS_TOKEN_ALGORITHM } from '@vigil/contracts';
import { CONFIG } from '@vigil/platform';
import type { Request } from 'express';
import type { JwtPayload } from 'jsonwebtoken';
import passport from 'passport';
import { Strategy as JwtStrategy } from 'passport-jwt';
import type { GatewayConfig } from '../gateway.service-definition';
import { bearerCredential } from './bearer';
import { JwksCache } from './jwks.cache';
import type { Principal } from './principal';
import { RevocationList } from './revocation-list';

export const ACCESS_TOKEN_STRATEGY = 'vigil-access-token';

interface AccessClaims extends JwtPayload {
  scope?: string;
  token_use?: string;
  sid?: string;
  client_id?: string;
}

/** The key lookup failed (auth unreachable): an outage to report as such, not a refused token. */
export class KeyLookupFailed extends Error {
  constructor(readonly failure: unknown) {
    super('the JWKS could not be fetched');
  }
}

function headerOf(token: string): { kid?: unknown; alg?: unknown } | undefined {
  try {
    return JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Access tokens, verified locally by passport-jwt (jsonwebtoken): ES256 only (no `none`, no HMAC
 * with the public key as secret), the key chosen by `kid` from the cached JWKS of auth (an unknown
 * `kid` refreshes it, which is how rotation arrives), issuer and audience pinned, expiry enforced;
 * then `validate` requires `token_use: access` and consults the deny-lists fed by auth's
 * revocations (session and jti).
 *
 * Registered on the gateway's own Passport (GatewayPassport), not on the process-wide one: two
 * gateways in one process (the benchmarks, tests) each keep their own caches and deny-lists.
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(JwtStrategy, ACCESS_TOKEN_STRATEGY) {
  readonly revoked = new RevocationList();
  /** Disabled or deleted users: their tokens issued up to this instant (ms) are refused, until `untilMs`. */
  private readonly userCutoffs = new Map<string, { beforeMs: number; untilMs: number }>();
  /**
   * Tokens already verified, until they expire: a client sends the same token for an hour, and an
   * ECDSA verification per request is most of the cost of authentication. The deny-lists are
   * still consulted on every request.
   */
  private readonly verified = new Map<string, { principal: Principal; expMs: number; sid?: string; jti?: string; clientId?: string; iatMs?: number }>();

  constructor(@Inject(CONFIG) config: GatewayConfig, @Inject(JwksCache) jwks: JwksCache) {
    super({
      jwtFromRequest: (req: Request) => bearerCredential(req.headers.authorization) ?? null,
      secretOrKeyProvider: (_req: Request, rawJwt: string, done: (err: unknown, key?: string | Buffer) => void) => {
        const header = headerOf(rawJwt);
        // Checked before the lookup too, so a token of another algorithm never costs a JWKS refresh.
        if (!header || header.alg !== ACCESS_TOKEN_ALGORITHM || typeof header.kid !== 'string') return done(new Error('unexpected token header'));
        jwks.get(header.kid).then(
          // jsonwebtoken takes a KeyObject (parsed once per key, not per token); the typings say PEM.
          (key) => (key ? done(null, key as unknown as Buffer) : done(new Error('unknown kid'))),
          (error: unknown) => done(new KeyLookupFailed(error)),
        );
      },
      algorithms: [ACCESS_TOKEN_ALGORITHM],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      passReqToCallback: true,
    });
  }

  /** The strategy registers on GatewayPassport; this keeps the mixin off the process-wide Passport. */
  getPassportInstance() {
    return new passport.Passport();
  }

  /** A token verified before skips the signature check until it expires; revocations still apply. */
  override authenticate(req: Request, options?: object): void {
    const token = bearerCredential(req.headers.authorization);
    const known = token === undefined ? undefined : this.verified.get(token);
    if (token === undefined || !known) return super.authenticate(req, options);
    if (known.expMs <= Date.now()) {
      this.verified.delete(token);
      return this.fail(401);
    }
    if (this.isRevoked(known.sid, known.jti, known.clientId) || this.userCut(known.principal.subject, known.iatMs)) return this.fail(401);
    this.success(known.principal);
  }

  /** Called by passport-jwt with claims whose signature, algorithm, issuer, audience and expiry it verified. */
  validate(req: Request, claims: AccessClaims): Principal | false {
    if (claims.token_use !== 'access' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return false;
    const iatMs = typeof claims.iat === 'number' ? claims.iat * 1000 : undefined;
    if (this.isRevoked(claims.sid, claims.jti, claims.client_id) || this.userCut(claims.sub, iatMs)) return false;
    const scopes = (claims.scope ?? '').split(' ').filter(Boolean);
    const details = { sessionId: claims.sid, tokenId: claims.jti, clientId: claims.client_id, expiresAtMs: claims.exp * 1000 };
    const principal: Principal =
      claims.client_id && claims.sub === claims.client_id
        ? { kind: 'client', subject: claims.sub, scopes, credentialId: `client:${claims.sub}`, ...details }
        : { kind: 'user', subject: claims.sub, scopes, credentialId: `user:${claims.sub}`, ...details };
    const token = bearerCredential(req.headers.authorization);
    if (token === undefined) return false;
    const oldest = this.verified.size >= 10_000 ? this.verified.keys().next().value : undefined;
    if (oldest !== undefined) this.verified.delete(oldest);
    this.verified.set(token, { principal, expMs: claims.exp * 1000, sid: claims.sid, jti: claims.jti, clientId: claims.client_id, iatMs });
    return principal;
  }

  /**
   * Whether the user was disabled or deleted after this token was issued (no `iat`: refused). `iat`
   * has whole seconds: a token issued in the second of the revocation is refused too, so a login
   * within a second of being enabled again may have to be repeated.
   */
  private userCut(subject: string, iatMs: number | undefined): boolean {
    if (!this.userCutoffs.size) return false;
    const cut = this.userCutoffs.get(subject);
    if (!cut) return false;
    if (cut.untilMs <= Date.now()) {
      this.userCutoffs.delete(subject);
      return false;
    }
    return iatMs === undefined || iatMs <= cut.beforeMs;
  }

  /** Refuses the user's tokens issued up to `issuedBefore`, until they would have expired anyway. */
  revokeUser(subject: string, issuedBefore: string | undefined, expiresAt: string | null): void {
    const beforeMs = issuedBefore ? Date.parse(issuedBefore) : Date.now();
    const untilMs = expiresAt ? Date.parse(expiresAt) : Date.now() + 24 * 3600 * 1000;
    if (untilMs <= Date.now()) return;
    const known = this.userCutoffs.get(subject);
    this.userCutoffs.set(subject, { beforeMs: Math.max(beforeMs, known?.beforeMs ?? 0), untilMs: Math.max(untilMs, known?.untilMs ?? 0) });
    const now = Date.now();
    for (const [id, cut] of this.userCutoffs) if (cut.untilMs <= now) this.userCutoffs.delete(id);
  }

  /** Whether a principal this strategy accepted has been revoked since (its session, token or client). */
  refuses(principal: Principal): boolean {
    return this.isRevoked(principal.sessionId, principal.tokenId, principal.clientId);
  }

  private isRevoked(sid: string | undefined, jti: string | undefined, clientId: string | undefined): boolean {
    return this.revoked.has('sid', sid) || this.revoked.has('jti', jti) || this.revoked.has('client', clientId);
  }

  /** `sid`: a session; `jti`: one token; `client`: every token issued to a deleted OAuth client. */
  revoke(kind: 'sid' | 'jti' | 'client', id: string, expiresAt: string | null): void {
    const until = expiresAt ? Date.parse(expiresAt) : Date.now() + 24 * 3600 * 1000;
    this.revoked.add(kind, id, until);
    this.revoked.sweep();
  }
}
