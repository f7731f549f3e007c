import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type CredentialRevoked, type Revoking, Topics, validateCredentialRevokedEnvelope } from '@vigil/contracts';
import { type IncomingMessage, MESSAGE_BUS, type MessageBus, type Subscription } from '@vigil/messaging';
import { LOGGER, type Logger } from '@vigil/platform';
import { watchExpiry as watchUntil } from '../events/stream/credential-watch';
import { AccessTokenStrategy } from './access-token.strategy';
import { ApiKeyCache } from './api-key.cache';
import type { Principal } from './principal';

/**
 * Every gateway replica reads every revocation: each subscribes with a consumer group of its own
 * (a shared group would hand each message to one replica only). Applying a revocation is
 * idempotent, so redelivery needs no inbox; a new replica replays the topic's retention (2 days,
 * longer than any access token lives) and so knows every session still worth refusing.
 * A malformed message is logged and skipped: dead-lettering it from every replica would copy it N times.
 */
@Injectable()
export class RevocationsSubscriber implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;
  private readonly listeners = new Set<(revoked: CredentialRevoked) => void>();
  readonly groupId = `gateway.credential-revocations.${randomUUID()}`;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ApiKeyCache) private readonly apiKeys: ApiKeyCache,
    @Inject(AccessTokenStrategy) private readonly tokens: AccessTokenStrategy,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap() {
    this.subscription = await this.bus.subscribe({
      groupId: this.groupId,
      topics: [Topics.credentialRevocations],
      handler: async (messages) => messages.forEach((m) => this.onCredentialRevoked(m)),
    });
  }

  async onModuleDestroy() {
    await this.subscription?.stop();
  }

  onCredentialRevoked(message: IncomingMessage): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.value);
    } catch {
      parsed = undefined;
    }
    const result = validateCredentialRevokedEnvelope.validate(parsed);
    if (!result.ok) {
      this.logger.warn({ topic: message.topic, offset: message.offset, errors: result.errors }, 'skipped an invalid revocation message');
      return;
    }
    this.apply(result.value.data);
  }

  /**
   * Refuses the credential from now on and tells the listeners (the open event streams, which
   * close those opened with it). Also called directly by the replica that revoked, so it acts
   * before the message comes back.
   */
  apply(revoked: CredentialRevoked): void {
    if (revoked.effective_at && Date.parse(revoked.effective_at) > Date.now()) {
      // Later (a rotated key's overlap): the credential works until then, on every replica.
      const { effective_at: _later, ...now } = revoked;
      watchUntil(Date.parse(revoked.effective_at), () => this.apply(now));
      return;
    }
    if (revoked.kind === 'api_key') this.apiKeys.evict(revoked.id);
    else if (revoked.kind === 'user') this.tokens.revokeUser(revoked.id, revoked.issued_before, revoked.expires_at);
    else this.tokens.revoke(revoked.kind === 'session' ? 'sid' : revoked.kind === 'client' ? 'client' : 'jti', revoked.id, revoked.expires_at);
    for (const listener of this.listeners) {
      try {
        listener(revoked);
      } catch (error) {
        this.logger.error({ err: error }, 'revocation listener failed');
      }
    }
  }

  /** Applies what an RPC revoked (`Revoking`) at once on this replica and returns its result. */
  settle<T>(answer: Revoking<T>): T {
    for (const revoked of answer.revoked) this.apply(revoked);
    return answer.result;
  }

  /** Whether the credential a request was authenticated with has been revoked since. */
  revokedSince(principal: Principal): boolean {
    return principal.kind === 'api_key' ? this.apiKeys.revoked.has('api_key', principal.subject) : this.tokens.refuses(principal);
  }

  onRevoked(listener: (revoked: CredentialRevoked) => void): void {
    this.listeners.add(listener);
  }
}
