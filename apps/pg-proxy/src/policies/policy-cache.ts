import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type PolicySnapshot, type PolicySnapshotsResponse, policyChangedValidator, RpcPatterns, Topics } from '@vigil/contracts';
import { type IncomingMessage, MESSAGE_BUS, type MessageBus, type Subscription } from '@vigil/messaging';
import { CONFIG, type ConfigOf, LOGGER, type Logger, Readiness, RpcClient } from '@vigil/platform';
import type { pgProxyConfigSpec } from '../config/pg-proxy.config';
import { PolicyStore } from './policy-store';

type ProxyConfig = ConfigOf<typeof pgProxyConfigSpec>;

/**
 * The policies, compiled, in the proxy's memory, kept the way event-ingest's enforcement keeps
 * them (apps/event-ingest/src/enforcement/policy-cache.ts): a consumer group of its own per
 * process on `policy.events.v1` (every instance sees every change, within one relay wake-up),
 * opened before the full state is loaded over RPC; versions make the race harmless.
 */
@Injectable()
export class PolicyCache implements OnApplicationBootstrap, OnModuleDestroy {
  readonly store = new PolicyStore();
  private subscription: Subscription | undefined;
  private readonly rpc: RpcClient;
  private loaded = false;
  private readonly ready: Promise<void>;
  private markReady!: () => void;
  private stopped = false;
  private readonly logger: Logger;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CONFIG) private readonly config: ProxyConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Readiness) readiness: Readiness,
  ) {
    this.logger = logger.child({ component: 'policy-cache' });
    this.rpc = new RpcClient('policy', config.POLICY_RPC_ADDRESS, 5_000);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    readiness.register('policies', async () => this.loaded);
  }

  async onApplicationBootstrap() {
    this.subscription = await this.bus.subscribe({
      groupId: `pg-proxy.policy-cache.${randomUUID()}`,
      topics: [Topics.policyEvents],
      handler: async (messages) => this.onPolicyChanged(messages),
    });
    void this.bootstrap();
  }

  async onModuleDestroy() {
    this.stopped = true;
    await this.subscription?.stop();
    await this.rpc.close();
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  async whenReady(timeoutMs = this.config.PROXY_POLICIES_READY_TIMEOUT_MS): Promise<boolean> {
    if (this.loaded) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([this.ready.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  private apply(policy: PolicySnapshot) {
    if (!this.store.apply(policy)) this.logger.error({ policy_id: policy.id, version: policy.version }, 'policy config does not compile; not enforced');
  }

  private async bootstrap() {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        const { policies } = await this.rpc.call<object, PolicySnapshotsResponse>(RpcPatterns.policies.snapshots, {});
        for (const policy of policies) this.apply(policy);
        this.loaded = true;
        this.markReady();
        this.logger.info({ policies: policies.length, enabled: this.store.engine.enabledCount }, 'policies loaded');
        return;
      } catch (error) {
        const delay = Math.min(200 * 2 ** Math.min(attempt, 6), 10_000);
        this.logger.warn({ err: error, retry_ms: delay }, 'could not load policies from the policy service; retrying');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private async onPolicyChanged(messages: IncomingMessage[]) {
    for (const message of messages) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.value);
      } catch {
        parsed = undefined;
      }
      const result = policyChangedValidator.validate(parsed);
      if (!result.ok) {
        this.logger.error({ offset: message.offset, partition: message.partition, errors: result.errors }, 'invalid policy.events.v1 message ignored');
        continue;
      }
      this.apply(result.value.data.policy);
    }
  }
}
