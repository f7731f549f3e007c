import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus, PolicyFollower } from '@vigil/messaging';
import { CONFIG, type ConfigOf, Gauge, LOGGER, type Logger, RPC_CREDENTIALS, type RpcCredentials, Registry } from '@vigil/platform';
import { PolicyEngine } from '@vigil/policy-engine';
import type { enforcementConfigSpec } from './enforcement.config';

type EnforcementConfig = ConfigOf<typeof enforcementConfigSpec>;

/**
 * The enabled policies, compiled, in this instance's memory: no database read per event. Kept
 * current by the messaging library's PolicyFollower (policy.events.v1 plus a load over RPC).
 */
@Injectable()
export class PolicyCache implements OnApplicationBootstrap, OnModuleDestroy {
  readonly engine = new PolicyEngine();
  private readonly follower: PolicyFollower;
  private readonly logger: Logger;
  private lastDegradedLog = 0;
  /** The one wait at start, shared by every batch that asks while it runs. */
  private startWait?: Promise<boolean>;

  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(CONFIG) private readonly config: EnforcementConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Registry) metrics: Registry,
    @Inject(RPC_CREDENTIALS) rpcCredentials: RpcCredentials | null,
  ) {
    this.logger = logger.child({ component: 'policy-cache' });
    const engine = this.engine;
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
      groupPrefix: 'event-ingest.policy-cache',
      logger,
      metrics,
      apply: (policy) => {
        const result = this.engine.apply(policy);
        if (result === 'applied' && this.engine.hasUntrustedExemption(policy.id)) {
          // Once per load of such a policy version (an older or repeated version is 'stale').
          this.logger.warn(
            { policy_id: policy.id, policy_name: policy.name, version: policy.version },
            'policy exempts applications without users: the exemption is ignored because application_name is chosen by the client; add exceptions.users',
          );
        }
        return result !== 'invalid';
      },
    });
  }

  onApplicationBootstrap() {
    return this.follower.start();
  }

  onModuleDestroy() {
    return this.follower.stop();
  }

  /** Ingestion proceeds without the full state: logged at most every 10 s. */
  reportDegraded() {
    if (Date.now() - this.lastDegradedLog < 10_000) return;
    this.lastDegradedLog = Date.now();
    this.logger.error({ enabled: this.engine.enabledCount }, 'policies not loaded from the policy service; enforcing only the changes received since start');
  }

  /** Resolves once the full state is loaded; false if that does not happen within the timeout. */
  async whenReady(timeoutMs = this.config.ENFORCEMENT_READY_TIMEOUT_MS): Promise<boolean> {
    if (this.follower.isLoaded) return true;
    // Wait once, at start; afterwards an instance still without the state does not slow every batch.
    // Batches of other partitions that arrive during that wait share it: each must wait as the first
    // does, not be enforced at once without the policies.
    this.startWait ??= this.follower.whenLoaded(timeoutMs);
    return this.startWait;
  }
}
