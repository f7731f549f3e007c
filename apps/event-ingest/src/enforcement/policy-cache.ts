import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type PolicySnapshot, type PolicySnapshotsResponse, policyChangedValidator, RpcPatterns, Topics } from '@vigil/contracts';
import { type IncomingMessage, MESSAGE_BUS, type MessageBus, type Subscription } from '@vigil/messaging';
import { CONFIG, LOGGER, type Logger, RpcClient } from '@vigil/platform';
import { PolicyEngine } from '@vigil/policy-engine';
import type { enforcementConfigSpec } from './enforcement.config';
import type { ConfigOf } from '@vigil/platform';

type EnforcementConfig = ConfigOf<typeof enforcementConfigSpec>;

/**
 * The enabled policies, compiled, in this instance's memory: no database read per event.
 *
 * Every instance follows `policy.events.v1` in a consumer group of its own (each instance must
 * see every change, not a share of them), so a change reaches all instances in the time of one
 * relay wake-up and one fetch (well under a second). At start the full state comes from the policy
 * service over RPC; the subscription is opened first, and snapshots carry versions, so a change
 * racing the bootstrap is applied exactly when it is newer.
 */
@Injectable()
export class PolicyCache implements OnApplicationBootstrap, OnModuleDestroy {
  readonly engine = new PolicyEngine();
  private subscription: Subscription | undefined;
  private readonly rpc: RpcClient;
  private loaded = false;
  private readonly ready: Promise<void>;
  private markReady!: () => void;
  private stopped = false;
  private readonly logger: Logger;

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CONFIG) private readonly config: EnforcementConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'policy-cache' });
    this.rpc = new RpcClient('policy', config.POLICY_RPC_ADDRESS, 5_000);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  async onApplicationBootstrap() {
    this.subscription = await this.bus.subscribe({
      groupId: `event-ingest.policy-cache.${randomUUID()}`,
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

  private lastDegradedLog = 0;
  private waitedOnce = false;

  /** Ingestion proceeds without the full state: logged at most every 10 s. */
  reportDegraded() {
    if (Date.now() - this.lastDegradedLog < 10_000) return;
    this.lastDegradedLog = Date.now();
    this.logger.error({ enabled: this.engine.enabledCount }, 'policies not loaded from the policy service; enforcing only the changes received since start');
  }

  /** Resolves once the full state is loaded; false if that does not happen within the timeout. */
  async whenReady(timeoutMs = this.config.ENFORCEMENT_READY_TIMEOUT_MS): Promise<boolean> {
    if (this.loaded) return true;
    // Wait once, at start; afterwards an instance still without the state does not slow every batch.
    if (this.waitedOnce) return false;
    this.waitedOnce = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([this.ready.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  private apply(policy: PolicySnapshot) {
    const result = this.engine.apply(policy);
    if (result === 'invalid') this.logger.error({ policy_id: policy.id, version: policy.version }, 'policy config does not compile; not enforced');
  }

  private async bootstrap() {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        const { policies } = await this.rpc.call<object, PolicySnapshotsResponse>(RpcPatterns.policies.snapshots, {});
        for (const policy of policies) this.apply(policy);
        this.loaded = true;
        this.markReady();
        this.logger.info({ policies: policies.length, enabled: this.engine.enabledCount }, 'policies loaded');
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
        // Not ours to dead-letter: the policy service's own consumers see the same message. Log it loudly.
        this.logger.error({ offset: message.offset, partition: message.partition, errors: result.errors }, 'invalid policy.events.v1 message ignored');
        continue;
      }
      this.apply(result.value.data.policy);
    }
  }
}
