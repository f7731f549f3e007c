import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { type RequestOrigin, withRequestOrigin } from '@vigil/platform';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { ClientAddresses } from '../client-address/client-addresses';
import type { Principal } from '../auth/principal';

/** The actor of vigil.* events for a principal: the OAuth `client` kind is named `oauth_client` there. */
export function actorOf(principal: Principal | undefined): RequestOrigin['actor'] {
  if (!principal) return { kind: 'anonymous', id: null };
  return { kind: principal.kind === 'client' ? 'oauth_client' : principal.kind, id: principal.subject };
}

/**
 * Runs every HTTP handler under the request's origin: the principal the guard authenticated (never
 * anything from the body), the client address (TRUST_PROXY honoured) and the user agent. RPC calls
 * made by the handler carry it to the owning service, which records it in the vigil.* event of the
 * change it commits (docs/events.md#administrative-actions).
 */
@Injectable()
export class RequestOriginInterceptor implements NestInterceptor {
  constructor(@Inject(ClientAddresses) private readonly clients: ClientAddresses) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const req = ctx.switchToHttp().getRequest<Request & { user?: Principal }>();
    const agent = req.headers['user-agent'];
    const origin: RequestOrigin = {
      actor: actorOf(req.user),
      source_ip: this.clients.of(req),
      user_agent: typeof agent === 'string' && agent ? agent.slice(0, 512) : null,
    };
    return new Observable((subscriber) => withRequestOrigin(origin, () => next.handle().subscribe(subscriber)));
  }
}
