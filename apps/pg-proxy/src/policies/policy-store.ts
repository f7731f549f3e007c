import type { PolicySnapshot } from '@vigil/contracts';
import { PolicyEngine } from '@vigil/policy-engine';

/**
 * The policies the proxy enforces: the shared engine (the pipeline's evaluation code) plus the
 * latest snapshot of each enabled policy, which masking reads to match result columns by table
 * and column. `generation` moves on every applied change so cached decisions can tell they are stale.
 */
export class PolicyStore {
  readonly engine = new PolicyEngine();
  readonly snapshots = new Map<string, PolicySnapshot>();
  generation = 0;

  /** Applies a snapshot; false when its config does not compile (the policy is then not enforced). */
  apply(policy: PolicySnapshot): boolean {
    const result = this.engine.apply(policy);
    if (result === 'stale') return true;
    this.generation++;
    if (result === 'applied' && policy.enabled && !policy.deleted) this.snapshots.set(policy.id, policy);
    else this.snapshots.delete(policy.id);
    return result !== 'invalid';
  }

  /** Enabled snapshots of one type that apply to a database. */
  forDatabase(databaseId: string, type: PolicySnapshot['type']): PolicySnapshot[] {
    const out: PolicySnapshot[] = [];
    for (const p of this.snapshots.values()) if (p.type === type && (p.databases.includes(databaseId) || p.databases.includes('*'))) out.push(p);
    return out;
  }
}
