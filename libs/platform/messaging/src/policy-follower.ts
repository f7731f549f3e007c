import { randomUUID } from 'node:crypto';
import { type PolicySnapshot, type PolicySnapshotsResponse, policyChangedValidator, RpcPatterns, Topics } from '@vigil/contracts';
import { type Logger, RpcClient } from '@vigil/platform';
import type { IncomingMessage, MessageBus, Subscription } from './bus';

export interface PolicyFollowerOptions {
  bus: MessageBus;
  /** host:port of the policy service's RPC. */
  policyRpcAddress: string;
  /** Prefix of this process's own consumer group (`<service>.policy-cache`). */
  groupPrefix: string;
  logger: Logger;
  /** Applies one snapshot (newer versions win; the caller's engine decides); false: its config does not compile. */
  apply(policy: PolicySnapshot): boolean;
}

/**
 * Keeps a process's copy of the policies current, for every service that enforces them in memory
 * (event-ingest, pg-proxy): a consumer group of its own per process on `policy.events.v1` (each
 * process must see every change, not a share of them), so a change reaches every process within one
 * relay wake-up and one fetch. The full state comes from the policy service over RPC at start; the
 * subscription is opened first and snapshots carry versions, so a change racing the load is applied
 * exactly when it is newer.
 */
export class PolicyFollower {
  private subscription: Subscription | undefined;
  private readonly rpc: RpcClient;
  private readonly logger: Logger;
  private loaded = false;
  private readonly ready: Promise<void>;
  private markReady!: () => void;
  private stopped = false;
  private wakeRetry: (() => void) | undefined;

  constructor(private readonly options: PolicyFollowerOptions) {
    this.logger = options.logger.child({ component: 'policy-cache' });
    this.rpc = new RpcClient('policy', options.policyRpcAddress, 5_000);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  async start(): Promise<void> {
    this.subscription = await this.options.bus.subscribe({
      groupId: `${this.options.groupPrefix}.${randomUUID()}`,
      topics: [Topics.policyEvents],
      handler: async (messages) => this.onPolicyChanged(messages),
    });
    void this.load();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeRetry?.();
    await this.subscription?.stop();
    await this.rpc.close();
  }

  /** Resolves once the full state is loaded; false if that does not happen within the timeout. */
  async whenLoaded(timeoutMs: number): Promise<boolean> {
    if (this.loaded) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([this.ready.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  private apply(policy: PolicySnapshot) {
    if (!this.options.apply(policy)) this.logger.error({ policy_id: policy.id, version: policy.version }, 'policy config does not compile; not enforced');
  }

  private async load() {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        const { policies } = await this.rpc.call<object, PolicySnapshotsResponse>(RpcPatterns.policies.snapshots, {});
        for (const policy of policies) this.apply(policy);
        this.loaded = true;
        this.markReady();
        this.logger.info({ policies: policies.length }, 'policies loaded');
        return;
      } catch (error) {
        const delay = Math.min(200 * 2 ** Math.min(attempt, 6), 10_000);
        this.logger.warn({ err: error, retry_ms: delay }, 'could not load policies from the policy service; retrying');
        // A stop ends the wait at once: a retry pause must not keep a stopping process alive.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wakeRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeRetry = undefined;
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
