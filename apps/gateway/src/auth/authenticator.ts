import { Inject, Injectable } from '@nestjs/common';
import { looksLikeApiKey } from '@vigil/domain';
import { CommonErrorCode, DomainException } from '@vigil/platform';
import type { Request, Response } from 'express';
import { ACCESS_TOKEN_STRATEGY, KeyLookupFailed } from './access-token.strategy';
import { API_KEY_STRATEGY } from './api-key.strategy';
import { bearerCredential } from './bearer';
import { GatewayPassport } from './gateway-passport';
import type { Principal } from './principal';

export const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function unauthorized(detail = 'A valid access token or API key is required.'): DomainException {
  return new DomainException(401, CommonErrorCode.Unauthorized, detail, undefined, UNAUTHORIZED_HEADERS);
}

/**
 * `Authorization: Bearer <API key | access token>` to a principal, or a 401 problem document. The
 * credential's shape picks the strategy (an API key has the `vigil_ak_` prefix), so each refusal
 * names what was refused and a credential is never offered to the wrong verifier.
 */
@Injectable()
export class Authenticator {
  constructor(@Inject(GatewayPassport) private readonly passport: GatewayPassport) {}

  async authenticate(req: Request, res: Response): Promise<Principal> {
    const credential = bearerCredential(req.headers.authorization);
    if (!credential) throw unauthorized();
    const isApiKey = looksLikeApiKey(credential);
    const { principal, info } = await this.passport.authenticate(isApiKey ? API_KEY_STRATEGY : ACCESS_TOKEN_STRATEGY, req, res);
    if (principal) return principal;
    // passport-jwt reports a failed key lookup as a refusal; it is an outage of auth (503/504).
    if (info instanceof KeyLookupFailed) throw info.failure;
    throw unauthorized(isApiKey ? 'The API key is invalid, expired or revoked.' : 'The access token is invalid, expired or revoked.');
  }
}
