import { type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import { CommonErrorCode, DomainException, IS_PUBLIC } from '@vigil/platform';
import { type Principal, SCOPES_KEY } from './principal';

/** The scope an endpoint needs (spec + decisions.md). `admin` grants every scope. */
export const RequireScope = (scope: string) => SetMetadata(SCOPES_KEY, scope);

const UNAUTHORIZED = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

/**
 * Every route needs a valid credential unless marked @Public(), and its declared scope. Missing,
 * invalid or expired credentials: 401 with WWW-Authenticate; valid but short of scope: 403 naming it.
 */
@Injectable()
export class GatewayAuthGuard extends PassportAuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    await super.canActivate(context);
    const principal = context.switchToHttp().getRequest<{ user: Principal }>().user;
    const needed = this.reflector.getAllAndOverride<string | undefined>(SCOPES_KEY, targets);
    if (!needed) {
      // A route without a declared scope is a programming error: refuse rather than allow.
      throw new DomainException(403, CommonErrorCode.Forbidden, 'This endpoint declares no scope.');
    }
    if (!principal.scopes.includes('admin') && !principal.scopes.includes(needed)) {
      throw new DomainException(403, CommonErrorCode.Forbidden, `This endpoint needs the scope "${needed}".`, undefined, {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed}"`,
      });
    }
    return true;
  }

  override handleRequest<T>(error: unknown, principal: T): T {
    if (error instanceof DomainException) throw error;
    if (error || !principal) {
      throw new DomainException(401, CommonErrorCode.Unauthorized, 'A valid access token or API key is required.', undefined, UNAUTHORIZED);
    }
    return principal;
  }
}
