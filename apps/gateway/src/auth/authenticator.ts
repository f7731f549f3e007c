import { Inject, Injectable } from '@nestjs/common';
import { looksLikeApiKey } from '@vigil/domain';
import { CommonErrorCode, DomainException } from '@vigil/platform';
import { AccessTokenVerifier } from './access-token.verifier';
import { ApiKeyCache } from './api-key.cache';
import type { Principal } from './principal';

export const UNAUTHORIZED_HEADERS = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function unauthorized(detail = 'A valid access token or API key is required.'): DomainException {
  return new DomainException(401, CommonErrorCode.Unauthorized, detail, undefined, UNAUTHORIZED_HEADERS);
}

/** `Authorization: Bearer <API key | access token>` to a principal, or a 401. */
@Injectable()
export class Authenticator {
  constructor(
    @Inject(AccessTokenVerifier) private readonly tokens: AccessTokenVerifier,
    @Inject(ApiKeyCache) private readonly apiKeys: ApiKeyCache,
  ) {}

  /** The bearer credential of an Authorization header, or undefined. */
  static bearer(header: string | undefined): string | undefined {
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
    return match?.[1];
  }

  async authenticate(header: string | undefined): Promise<Principal> {
    const credential = Authenticator.bearer(header);
    if (!credential) throw unauthorized();
    if (looksLikeApiKey(credential)) {
      const key = await this.apiKeys.verify(credential);
      if (!key) throw unauthorized('The API key is invalid, expired or revoked.');
      return { kind: 'api_key', subject: key.id, scopes: key.scopes, credentialId: `key:${key.id}` };
    }
    const principal = await this.tokens.verify(credential);
    if (!principal) throw unauthorized('The access token is invalid, expired or revoked.');
    return principal;
  }
}
