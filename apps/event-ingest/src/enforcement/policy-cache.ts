import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { MESSAGE_BUS, type MessageBus, PolicyFollower } from '@vigil/messaging';
import { CONFIG, type ConfigOf, Gauge, LOGGER, type Logger, RPC_CREDENTIALS, type RpcCredentials, Readiness, Registry } from '@vigil/platform';
import { PolicyEngine } from '@vigil/policy-engine';
import type { enforcementConfigSpec } from './enforcement.config';

type EnforcementConfig = ConfigOf<typeof enforcementConfigSpec>;

/**
 * The enabled policies, compiled, in this instance's memory: no database read per event. Kept
 * current by the messaging library's PolicyFollower (policy.events.v1 plus a load over RPC, retried
 * with backoff until it succeeds). Until that load has succeeded the instance is not ready and
 * ingestion is refused (docs/policies.md#enforcement); once loaded, the last verified state is kept
 * and followed, whether or not the policy service answers later.
 */
@Injectable()
export class PolicyCache implements OnApplicationBootstrap, OnModuleDestroy {
  readonly engine = new PolicyEngine();
  private readonly follower: PolicyFollower;
  private readonly logger: Logger;
  private lastRefusalLog = 0;
  private startedAt = Date.now();
  /** The one wait at start, shared by every ingestion that asks while it runs. */
  private startWait?: Promise<boolean>;

  constructor(
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(CONFIG) private readonly config: EnforcementConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(Registry) metrics: Registry,
    @Inject(RPC_CREDENTIALS) rpcCredentials: RpcCredentials | null,
    @Inject(Readiness) readiness: Readiness,
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
    // No record is stored unenforced: an instance without the policies takes no ingestion.
    readiness.register('policies', async () => this.follower.isLoaded);
  }

  onApplicationBootstrap() {
    this.startedAt = Date.now();
    return this.follower.start();
  }

  onModuleDestroy() {
    return this.follower.stop();
  }

  get isLoaded(): boolean {
    return this.follower.isLoaded;
  }

  /**
   * Ingestion refused for want of the policies: an error at most every 10 s, once the wait at start
   * is over (a batch that comes before the load at an ordinary start is held quietly).
   */
  reportRefused() {
    if (Date.now() - this.startedAt < this.config.ENFORCEMENT_READY_TIMEOUT_MS) return;
    if (Date.now() - this.lastRefusalLog < 10_000) return;
    this.lastRefusalLog = Date.now();
    this.logger.error('policies not loaded from the policy service yet; ingestion is refused (HTTP 503, audit.ingest held) until they are');
  }

  /**
   * Resolves true once the full state is loaded. At start, ingestion that arrives before the load
   * waits for it up to ENFORCEMENT_READY_TIMEOUT_MS, all of it sharing that one wait; false then
   * (and at once afterwards, so an instance still without the policies does not slow every request):
   * the caller refuses the ingestion, to be retried.
   */
  async whenReady(timeoutMs = this.config.ENFORCEMENT_READY_TIMEOUT_MS): Promise<boolean> {
    if (this.follower.isLoaded) return true;
    this.startWait ??= this.follower.whenLoaded(timeoutMs);
    return (await this.startWait) || this.follower.isLoaded;
  }
}
