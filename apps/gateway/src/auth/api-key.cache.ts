import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { RpcPatterns, type TouchApiKeysRequest, type VerifiedApiKey } from '@vigil/contracts';
import { isWellFormedApiKey } from '@vigil/domain';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import type { GatewayConfig } from '../gateway.service-definition';
import { RpcClients } from '../rpc/rpc-clients';
import { RevocationList } from './revocation-list';

const NEGATIVE_TTL_MS = 10_000;
const MAX_ENTRIES = 50_000;
const TOUCH_EVERY_MS = 60_000;

interface Entry {
  key: VerifiedApiKey | null;
  expiresAtMs: number | null;
  cachedUntilMs: number;
}

/**
 * Verified API keys, by SHA-256 of the value, so a request with a known key costs no call to auth.
 * Revocation reaches the cache three ways (docs/access.md): the replica that revokes evicts at once;
 * every replica evicts when `auth.credential-revocations.v1` delivers; and entries live at most
 * API_KEY_CACHE_TTL_SECONDS, the bound if the bus is down. Expiry is checked on every use.
 * `last_used_at` is written back in batches, once a minute per used key.
 */
@Injectable()
export class ApiKeyCache implements OnModuleInit, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  private readonly hashById = new Map<string, string>();
  readonly revoked = new RevocationList();
  private used = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly ttlMs: number;

  constructor(
    @Inject(RpcClients) private readonly rpc: RpcClients,
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.ttlMs = config.API_KEY_CACHE_TTL_SECONDS * 1000;
  }

  onModuleInit() {
    this.timer = setInterval(() => void this.flushUsage(), TOUCH_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.flushUsage();
  }

  /** The key's grant, or null for an unknown, malformed, revoked or expired key. */
  async verify(value: string): Promise<VerifiedApiKey | null> {
    if (!isWellFormedApiKey(value)) return null;
    const hash = createHash('sha256').update(value).digest('hex');
    const now = Date.now();
    let entry = this.entries.get(hash);
    if (!entry || entry.cachedUntilMs <= now) {
      const answer = await this.rpc.auth.call<{ key: string }, { key: VerifiedApiKey | null }>(RpcPatterns.auth.apiKeysVerify, { key: value });
      const key = answer.key;
      // A revocation may have arrived while auth was answering: it wins.
      if (key && this.revoked.has('api_key', key.id)) return null;
      entry = {
        key,
        expiresAtMs: key?.expires_at ? Date.parse(key.expires_at) : null,
        cachedUntilMs: now + (key ? this.ttlMs : NEGATIVE_TTL_MS),
      };
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, entry);
      if (key) this.hashById.set(key.id, hash);
    } else if (entry.key) {
      this.used.add(entry.key.id);
    }
    if (!entry.key) return null;
    if (entry.expiresAtMs !== null && entry.expiresAtMs <= now) return null;
    if (this.revoked.has('api_key', entry.key.id)) return null;
    return entry.key;
  }

  /** Drops a key at once and refuses it even if an answer about it is still in flight. */
  evict(id: string): void {
    this.revoked.add('api_key', id, Date.now() + this.ttlMs + NEGATIVE_TTL_MS);
    const hash = this.hashById.get(id);
    if (hash) this.entries.delete(hash);
    this.hashById.delete(id);
    this.revoked.sweep();
  }

  /** Drops a key's cached entry (not a revocation): the next use asks auth again. */
  forget(id: string): void {
    const hash = this.hashById.get(id);
    if (hash) this.entries.delete(hash);
    this.hashById.delete(id);
  }

  private async flushUsage() {
    if (!this.used.size) return;
    const ids = [...this.used];
    this.used = new Set();
    await this.rpc.auth
      .call<TouchApiKeysRequest, unknown>(RpcPatterns.auth.apiKeysTouch, { ids })
      .catch((error) => this.logger.warn({ err: error, keys: ids.length }, 'could not record API key use'));
  }
}
