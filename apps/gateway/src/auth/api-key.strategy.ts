import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { looksLikeApiKey } from '@vigil/domain';
import type { Request } from 'express';
import passport from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { ApiKeyCache } from './api-key.cache';
import { bearerCredential } from './bearer';
import type { Principal } from './principal';

export const API_KEY_STRATEGY = 'vigil-api-key';

/**
 * API keys (`Authorization: Bearer vigil_ak_...`) through passport-http-bearer: the checksum is
 * checked first (no call for a random string), then the key is verified by auth behind ApiKeyCache,
 * which also applies expiry and revocations. Registered on GatewayPassport, like AccessTokenStrategy.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(BearerStrategy, API_KEY_STRATEGY) {
  constructor(@Inject(ApiKeyCache) private readonly apiKeys: ApiKeyCache) {
    super();
  }

  getPassportInstance() {
    return new passport.Passport();
  }

  /**
   * Only the Authorization header: passport-http-bearer would also take `access_token` from the
   * query string or a form body, which puts keys in URLs and logs. The strategy sees the header's
   * credential as the gateway parses it (bearer.ts), nothing else of the request.
   */
  override authenticate(req: Request, options?: object): void {
    const credential = bearerCredential(req.headers.authorization);
    super.authenticate({ headers: credential ? { authorization: `Bearer ${credential}` } : {} } as Request, options);
  }

  async validate(token: string): Promise<Principal | false> {
    if (!looksLikeApiKey(token)) return false;
    const key = await this.apiKeys.verify(token);
    if (!key) return false;
    return {
      kind: 'api_key',
      subject: key.id,
      scopes: key.scopes,
      credentialId: `key:${key.id}`,
      expiresAtMs: key.expires_at ? Date.parse(key.expires_at) : undefined,
    };
  }
}
