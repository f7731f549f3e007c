import { applyDecorators, type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { CommonErrorCode, DomainException, IS_PUBLIC } from '@vigil/platform';
import type { Request, Response } from 'express';
import { ClientAddresses } from '../client-address/client-addresses';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { ApiKeyCache } from './api-key.cache';
import { Authenticator, unauthorized } from './authenticator';
import { type Principal, SCOPES_KEY, SIGNED_IN_USER } from './principal';

/** The scope an endpoint needs (docs/access.md lists them). `admin` grants every scope. */
export const RequireScope = (scope: string) =>
  // The OpenAPI document states the scope from the same declaration the guard enforces.
  applyDecorators(SetMetadata(SCOPES_KEY, scope), ApiBearerAuth(), ApiExtension('x-required-scope', scope));

/**
 * For the routes about the caller's own account (password, logout): a user's access token, no
 * scope. API keys and OAuth client tokens are refused with 403.
 */
export const RequireSignedInUser = () =>
  applyDecorators(SetMetadata(SCOPES_KEY, SIGNED_IN_USER), ApiBearerAuth(), ApiExtension('x-required-scope', SIGNED_IN_USER));

export function hasScope(principal: Principal, needed: string): boolean {
  return principal.scopes.includes('admin') || principal.scopes.includes(needed);
}

/** 403 for a valid credential short of `needed`: a problem document naming it, and WWW-Authenticate. */
export function insufficientScope(needed: string, detail: string): DomainException {
  return new DomainException(403, CommonErrorCode.Forbidden, detail, undefined, {
    'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed}"`,
  });
}

/** The route pattern a request matched (`/v1/events/:event_id`), for rate-limit rules. */
export function routePattern(req: Request): string {
  const path = (req.route as { path?: string } | undefined)?.path;
  return path ? `${req.baseUrl}${path}` : req.path;
}

/**
 * Every route needs a valid credential unless marked @Public(), and its declared scope. Missing,
 * invalid, expired or revoked credentials: 401 with WWW-Authenticate; valid but short of scope:
 * 403 naming it. Rate limits are counted here too: public routes per client IP before anything
 * is checked (so password guessing is limited), failed authentications per IP (an address past
 * that limit is refused before its credential is checked), the rest per credential. The client
 * address comes from ClientAddresses (TRUST_PROXY).
 */
@Injectable()
export class GatewayAuthGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(Authenticator) private readonly authenticator: Authenticator,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(ApiKeyCache) private readonly apiKeys: ApiKeyCache,
    @Inject(ClientAddresses) private readonly clients: ClientAddresses,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const res = context.switchToHttp().getResponse<Response>();
    const targets = [context.getHandler(), context.getClass()];
    const rule = this.limiter.rules.forRoute(req.method, routePattern(req));
    const ip = this.clients.of(req);
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) {
      await this.limiter.consume(`ip:${ip}`, rule, res);
      return true;
    }

    // An address that has spent its budget of refused credentials is turned away before its
    // credential is looked at: guessing keys or tokens costs auth nothing once the limit is hit.
    await this.limiter.refuseIfSpent(`ip:${ip}`, this.limiter.rules.unauthenticated, res);
    let principal: Principal;
    try {
      principal = await this.authenticator.authenticate(req, res);
    } catch (error) {
      if (error instanceof DomainException && error.status === 401) {
        await this.limiter.consume(`ip:${ip}`, this.limiter.rules.unauthenticated, res);
      }
      throw error;
    }
    const marker = principal.kind === 'api_key' ? principal.credentialId : undefined;
    const { revoked } = await this.limiter.consume(principal.credentialId, rule, res, marker);
    if (revoked) {
      // Another replica revoked this key a moment ago (shared marker in Redis).
      this.apiKeys.evict(principal.subject);
      throw unauthorized('The API key is invalid, expired or revoked.');
    }
    req.user = principal;

    const needed = this.reflector.getAllAndOverride<string | undefined>(SCOPES_KEY, targets);
    if (!needed) {
      // A route without a declared scope is a programming error: refuse rather than allow.
      throw new DomainException(403, CommonErrorCode.Forbidden, 'This endpoint declares no scope.');
    }
    if (needed === SIGNED_IN_USER) {
      if (principal.kind !== 'user' || !principal.sessionId || principal.clientId) {
        throw new DomainException(403, CommonErrorCode.Forbidden, 'This endpoint is for a signed-in user (an access token from POST /v1/auth/login), not an API key or an OAuth client.');
      }
      return true;
    }
    if (!hasScope(principal, needed)) throw insufficientScope(needed, `This endpoint needs the scope "${needed}".`);
    return true;
  }
}
