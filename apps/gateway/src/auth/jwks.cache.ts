import { createPublicKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_ALGORITHM, type JsonWebKeySet, RpcPatterns } from '@vigil/contracts';
import { RpcClients } from '../rpc/rpc-clients';

const REFRESH_AT_MOST_EVERY_MS = 10_000;
/** Keys are read again this often in the background, so a retired key leaving the JWKS stops being trusted. */
const MAX_AGE_MS = 10 * 60_000;

/**
 * The auth service's public keys, kept in memory so a JWT is verified with no call per request.
 * An unknown `kid` triggers one refresh (rate-limited), which is how key rotation reaches us; the
 * keys are also read again every 10 minutes, which is how a retired key's end reaches us.
 */
@Injectable()
export class JwksCache {
  private keys = new Map<string, KeyObject>();
  private lastRefresh = 0;
  private refreshing: Promise<void> | undefined;

  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  async get(kid: string): Promise<KeyObject | undefined> {
    const key = this.keys.get(kid);
    if (key) {
      if (!this.refreshing && Date.now() - this.lastRefresh > MAX_AGE_MS) {
        // Not awaited: the known key serves this request; a failed refresh keeps the keys held.
        this.refreshing = this.refresh()
          .catch(() => undefined)
          .finally(() => (this.refreshing = undefined));
      }
      return key;
    }
    // A refresh in flight is awaited: requests with a new kid arriving while it runs (right after a
    // rotation) would otherwise be refused for the 10 s that the refresh just started.
    if (!this.refreshing && Date.now() - this.lastRefresh < REFRESH_AT_MOST_EVERY_MS && this.keys.size) return undefined;
    await (this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined)));
    return this.keys.get(kid);
  }

  /** After a rotation through this replica: the next unknown kid refreshes at once. */
  forget(): void {
    this.lastRefresh = 0;
  }

  private async refresh() {
    this.lastRefresh = Date.now();
    const jwks = await this.rpc.auth.call<object, JsonWebKeySet>(RpcPatterns.auth.jwks, {});
    const keys = new Map<string, KeyObject>();
    for (const jwk of jwks.keys) {
      if (jwk.alg !== ACCESS_TOKEN_ALGORITHM || jwk.kty !== 'EC') continue;
      keys.set(jwk.kid, createPublicKey({ key: jwk as never, format: 'jwk' }));
    }
    this.keys = keys;
  }
}
