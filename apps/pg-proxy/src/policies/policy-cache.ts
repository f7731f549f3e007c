import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus, PolicyFollower } from '@vigil/messaging';
import { CONFIG, type ConfigOf, LOGGER, type Logger, Readiness } from '@vigil/platform';
import type { pgProxyConfigSpec } from '../config/pg-proxy.config';
import { PolicyStore } from './policy-store';

type ProxyConfig = ConfigOf<typeof pgProxyConfigSpec>;

/**
 * The policies, compiled, in the proxy's memory, kept current the way event-ingest keeps them
 * (the messaging library's PolicyFollower). Not ready until the full state is loaded.
 */
@Injectable()
export class PolicyCache implements OnApplicationBootstrap, OnModuleDestroy {
  readonly store = new PolicyStore();
  private readonly follower: PolicyFollower;

  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(CONFIG) private readonly config: ProxyConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Readiness) readiness: Readiness,
  ) {
    this.follower = new PolicyFollower({
      bus,
      policyRpcAddress: config.POLICY_RPC_ADDRESS,
      groupPrefix: 'pg-proxy.policy-cache',
      logger,
      apply: (policy) => this.store.apply(policy),
    });
    readiness.register('policies', async () => this.follower.isLoaded);
  }

  onApplicationBootstrap() {
    return this.follower.start();
  }

  onModuleDestroy() {
    return this.follower.stop();
  }

  get isLoaded(): boolean {
    return this.follower.isLoaded;
  }

  whenReady(timeoutMs = this.config.PROXY_POLICIES_READY_TIMEOUT_MS): Promise<boolean> {
    return this.follower.whenLoaded(timeoutMs);
  }
}
