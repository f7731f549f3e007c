import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@vigil/platform';
import type { Request } from 'express';
import type { GatewayConfig } from '../gateway.service-definition';
import { resolveClientAddress } from './client-address';

const RESOLVED = Symbol('clientAddress');

/**
 * The one place the gateway learns a request's client address: rate limits per address, the
 * per-account login throttle's logs and anything recorded about a request read it here.
 */
@Injectable()
export class ClientAddresses {
  constructor(@Inject(CONFIG) private readonly config: Pick<GatewayConfig, 'TRUST_PROXY'>) {}

  of(req: Request): string {
    const memo = req as Request & { [RESOLVED]?: string };
    return (memo[RESOLVED] ??= resolveClientAddress(req.socket?.remoteAddress, req.headers['x-forwarded-for'], this.config.TRUST_PROXY));
  }
}
