import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus, PolicyFollower } from '@vigil/messaging';
import { CONFIG, type ConfigOf, Gauge, LOGGER, type Logger, RPC_CREDENTIALS, type RpcCredentials, Readiness, Registry } from '@vigil/platform';
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
    @Inject(Registry) metrics: Registry,
    @Inject(RPC_CREDENTIALS) rpcCredentials: RpcCredentials | null,
  ) {
    const log = logger.child({ component: 'policy-cache' });
    const engine = this.store.engine;
    new Gauge({
      name: 'vigil_policy_untrusted_exemptions',
      help: 'Enabled policies with an application-only exemption, which is ignored (application_name is chosen by the client)',
      registers: [metrics],
      collect() {
        this.set(engine.untrustedExemptionCount);
      },
    });
    this.follower = new PolicyFollower({
      bus,
      policyRpcAddress: config.POLICY_RPC_ADDRESS,
      rpcCredentials,
      groupPrefix: 'pg-proxy.policy-cache',
      logger,
      metrics,
      apply: (policy) => {
        const generation = this.store.generation;
        const applied = this.store.apply(policy);
        // Once per load of such a policy version (an older or repeated version leaves the generation).
        if (this.store.generation !== generation && engine.hasUntrustedExemption(policy.id)) {
          log.warn(
            { policy_id: policy.id, policy_name: policy.name, version: policy.version },
            'policy exempts applications without users: the exemption is ignored because application_name is chosen by the client; add exceptions.users',
          );
        }
        return applied;
      },
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
