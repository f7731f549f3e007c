import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import passport from 'passport';
import { ACCESS_TOKEN_STRATEGY, AccessTokenStrategy } from './access-token.strategy';
import { API_KEY_STRATEGY, ApiKeyStrategy } from './api-key.strategy';
import type { Principal } from './principal';

export type StrategyName = typeof ACCESS_TOKEN_STRATEGY | typeof API_KEY_STRATEGY;

export interface StrategyOutcome {
  /** The authenticated principal, or undefined when the strategy refused the credential. */
  principal?: Principal;
  /** What the strategy said when it refused (passport's challenge): an error or a status. */
  info?: unknown;
}

/**
 * The gateway's own Passport instance with its two strategies. @nestjs/passport's `AuthGuard`
 * authenticates against the process-wide Passport, where a strategy name is registered once:
 * a second gateway in the same process (the auth-overhead benchmark, tests) would replace the
 * first one's strategies, and with them its JWKS cache, API-key cache and deny-lists. Each
 * gateway therefore owns one instance, and GatewayAuthGuard calls it.
 */
@Injectable()
export class GatewayPassport {
  private readonly passport = new passport.Passport();

  constructor(@Inject(AccessTokenStrategy) accessTokens: AccessTokenStrategy, @Inject(ApiKeyStrategy) apiKeys: ApiKeyStrategy) {
    this.passport.use(ACCESS_TOKEN_STRATEGY, accessTokens);
    this.passport.use(API_KEY_STRATEGY, apiKeys);
  }

  /**
   * Runs one strategy on the request, without sessions. Resolves with the principal or the
   * refusal; rejects with what the strategy reported as an error (auth unreachable: 503/504).
   */
  authenticate(strategy: StrategyName, req: Request, res: Response): Promise<StrategyOutcome> {
    return new Promise((resolve, reject) => {
      const middleware = this.passport.authenticate(strategy, { session: false }, (error: unknown, user: Principal | false | undefined, info: unknown) => {
        if (error) reject(error);
        else resolve(user ? { principal: user } : { info });
      }) as (req: Request, res: Response, next: (error?: unknown) => void) => void;
      middleware(req, res, (error?: unknown) => (error ? reject(error) : resolve({})));
    });
  }
}
