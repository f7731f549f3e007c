import { type KeyObject, randomUUID } from 'node:crypto';
import {
  POLICY_SNAPSHOT_SIGNATURE_PURPOSE,
  type PolicySigningKeysResponse,
  type PolicySnapshot,
  type PolicySnapshotsResponse,
  policyChangedValidator,
  RpcPatterns,
  Topics,
} from '@vigil/contracts';
import { ed25519PublicKey, type Logger, Registry, RpcClient, type RpcCredentials, verifyDocument } from '@vigil/platform';
import { Counter } from 'prom-client';
import type { IncomingMessage, MessageBus, Subscription } from './bus';

export interface PolicyFollowerOptions {
  bus: MessageBus;
  /** host:port of the policy service's RPC. */
  policyRpcAddress: string;
  /** This service's RPC identity (null with RPC_INSECURE). */
  rpcCredentials: RpcCredentials | null;
  /** Prefix of this process's own consumer group (`<service>.policy-cache`). */
  groupPrefix: string;
  logger: Logger;
  /** Applies one snapshot (newer versions win; the caller's engine decides); false: its config does not compile. */
  apply(policy: PolicySnapshot): boolean;
  /** Where `vigil_policy_snapshots_refused_total` is counted. */
  metrics?: Registry;
}

/** Why a snapshot from policy.events.v1 was not applied (the metric's `reason` label). */
export type SnapshotRefusal = 'unsigned' | 'unknown_key' | 'bad_signature' | 'replayed';

function refusalCounter(registry: Registry | undefined): Counter<'reason'> | undefined {
  if (!registry) return undefined;
  const existing = registry.getSingleMetric('vigil_policy_snapshots_refused_total') as Counter<'reason'> | undefined;
  return (
    existing ??
    new Counter({
      name: 'vigil_policy_snapshots_refused_total',
      help: 'Policy snapshots on policy.events.v1 not applied: unsigned, signed by no key the policy service lists, a signature that does not verify, or an older version than one already applied (replayed)',
      labelNames: ['reason'],
      registers: [registry],
    })
  );
}

const KEY_REFRESH_MS = 5_000;

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
  private keys = new Map<string, KeyObject>();
  private keysFetchedAt = 0;
  /** The newest version applied per policy: an older one arriving later is a replay. */
  private readonly versions = new Map<string, number>();
  private readonly refused: Counter<'reason'> | undefined;

  constructor(private readonly options: PolicyFollowerOptions) {
    this.logger = options.logger.child({ component: 'policy-cache' });
    this.rpc = new RpcClient('policy', options.policyRpcAddress, 5_000, options.rpcCredentials);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    this.refused = refusalCounter(options.metrics);
    for (const reason of ['unsigned', 'unknown_key', 'bad_signature', 'replayed'] as const) this.refused?.inc({ reason }, 0);
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
    this.versions.set(policy.id, Math.max(this.versions.get(policy.id) ?? 0, policy.version));
    if (!this.options.apply(policy)) this.logger.error({ policy_id: policy.id, version: policy.version }, 'policy config does not compile; not enforced');
  }

  /** The policy service's snapshot keys, over RPC (at load, and again when a message names an unknown key). */
  private async refreshKeys(): Promise<void> {
    const { keys } = await this.rpc.call<object, PolicySigningKeysResponse>(RpcPatterns.policies.signingKeys, {});
    this.keys = new Map(keys.map((k) => [k.key_id, ed25519PublicKey(k.public_key)]));
    this.keysFetchedAt = Date.now();
  }

  private refuse(reason: SnapshotRefusal, message: IncomingMessage, policy: PolicySnapshot, keyId: string | undefined) {
    this.refused?.inc({ reason });
    this.logger.error(
      { reason, policy_id: policy.id, version: policy.version, key_id: keyId ?? null, partition: message.partition, offset: message.offset },
      'policy snapshot refused: not applied',
    );
  }

  private async load() {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await this.refreshKeys();
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
      const { policy, signature } = result.value.data;
      let check = verifyDocument(POLICY_SNAPSHOT_SIGNATURE_PURPOSE, policy, signature, this.keys);
      if (!check.ok && check.reason === 'unknown_key' && Date.now() - this.keysFetchedAt >= KEY_REFRESH_MS) {
        // A key the policy service made since the last fetch (rotation): ask once, then judge again.
        await this.refreshKeys().catch((error: unknown) => this.logger.warn({ err: error }, 'could not fetch the policy snapshot keys'));
        check = verifyDocument(POLICY_SNAPSHOT_SIGNATURE_PURPOSE, policy, signature, this.keys);
      }
      if (!check.ok) {
        this.refuse(check.reason, message, policy, signature?.key_id);
        continue;
      }
      const newest = this.versions.get(policy.id) ?? 0;
      if (policy.version < newest) {
        this.refuse('replayed', message, policy, signature?.key_id);
        continue;
      }
      // The same version again is a redelivery (at-least-once), nothing to do.
      if (policy.version === newest) continue;
      this.apply(policy);
    }
  }
}
