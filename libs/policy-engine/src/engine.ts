import { type CompiledPolicy, compilePolicy, EventView, hasUntrustedExemption, type ThresholdState } from './compile';
import type { EngineEvent, ExecutedAction, MatchedCondition, PolicyDefinition, PolicyEvaluation } from './types';

/**
 * Sliding windows of event times per key, bounded in memory: a key's times older than its
 * window are dropped as new ones arrive, and past `maxKeys` the least recently used key goes.
 */
export class SlidingWindows implements ThresholdState {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly maxKeys = 100_000) {}

  hit(key: string, at: number, windowMs: number): number {
    let times = this.windows.get(key);
    if (times) this.windows.delete(key);
    else times = [];
    // Keep times sorted: events may arrive slightly out of order.
    let i = times.length;
    while (i > 0 && times[i - 1]! > at) i--;
    times.splice(i, 0, at);
    const newest = times[times.length - 1]!;
    let drop = 0;
    while (drop < times.length && times[drop]! <= newest - windowMs) drop++;
    if (drop) times.splice(0, drop);
    this.windows.set(key, times);
    if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    let count = 0;
    for (const t of times) if (t > at - windowMs && t <= at) count++;
    return count;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }
}

const EMPTY_EVENT: EngineEvent = { type: '', database_id: '', timestamp: 0 };

export type ApplyResult = 'applied' | 'stale' | 'invalid';

/**
 * The enabled policies of every database, compiled, and the evaluation of events against them.
 * State changes arrive as full policy snapshots with versions: an older or equal version than
 * the one held is ignored, so snapshots may arrive twice or out of order (a bootstrap racing
 * the change stream) without moving a policy back in time.
 */
export class PolicyEngine {
  private readonly versions = new Map<string, number>();
  private readonly active = new Map<string, CompiledPolicy>();
  /** Enabled policies whose application-only exemption is ignored (hasUntrustedExemption). */
  private readonly untrusted = new Set<string>();
  /** Per database: its own policies then the `*` ones, rebuilt on the first event after a change. */
  private byDatabase = new Map<string, CompiledPolicy[]>();
  private everywhere: CompiledPolicy[] = [];
  private dirty = false;
  // One view for every event: evaluation is synchronous and the view holds nothing past it.
  private readonly view = new EventView(EMPTY_EVENT);
  readonly thresholds = new SlidingWindows();

  /** Applies a policy snapshot. `invalid`: the config does not compile (the policy is not enforced). */
  apply(policy: PolicyDefinition & { version: number }): ApplyResult {
    const held = this.versions.get(policy.id);
    if (held !== undefined && held >= policy.version) return 'stale';
    this.versions.set(policy.id, policy.version);
    this.dirty = true;
    this.active.delete(policy.id);
    this.untrusted.delete(policy.id);
    if (policy.deleted || !policy.enabled) return 'applied';
    const compiled = compilePolicy(policy);
    if (!compiled.ok) return 'invalid';
    this.active.set(policy.id, compiled.policy);
    if (hasUntrustedExemption(policy.config)) this.untrusted.add(policy.id);
    return 'applied';
  }

  /** How many enabled policies hold an application-only exemption, which is ignored. */
  get untrustedExemptionCount(): number {
    return this.untrusted.size;
  }

  /** Whether the policy as last applied is enabled with an ignored application-only exemption. */
  hasUntrustedExemption(policyId: string): boolean {
    return this.untrusted.has(policyId);
  }

  get enabledCount(): number {
    return this.active.size;
  }

  versionOf(policyId: string): number | undefined {
    return this.versions.get(policyId);
  }

  private index() {
    const byDatabase = new Map<string, CompiledPolicy[]>();
    const everywhere: CompiledPolicy[] = [];
    for (const policy of this.active.values()) {
      for (const db of policy.definition.databases) {
        if (db === '*') everywhere.push(policy);
        else {
          const list = byDatabase.get(db) ?? [];
          list.push(policy);
          byDatabase.set(db, list);
        }
      }
    }
    for (const list of byDatabase.values()) list.push(...everywhere);
    this.byDatabase = byDatabase;
    this.everywhere = everywhere;
    this.dirty = false;
  }

  /**
   * The evaluations of every enabled policy of the event's database that triggers. With `shape`,
   * also says whether the same evaluations hold for every event that differs from this one only
   * by a query of the same shape (`queryShape`; every policy's `shapeStable`), so that a caller
   * may keep them for that shape until the policies change.
   */
  evaluate(event: EngineEvent, shape?: { stable: boolean }): PolicyEvaluation[] {
    if (this.dirty) this.index();
    const plan = this.byDatabase.get(event.database_id) ?? this.everywhere;
    const out: PolicyEvaluation[] = [];
    if (shape) shape.stable = true;
    if (!plan.length) return out;
    const view = this.view.reset(event);
    try {
      for (const policy of plan) {
        const result = policy.evaluate(view, this.thresholds);
        if (shape?.stable && !policy.shapeStable(view)) shape.stable = false;
        if (!result) continue;
        if (policy.definition.enforcement_mode === 'shadow') result.shadow = true;
        out.push(result);
      }
    } finally {
      view.reset(EMPTY_EVENT); // drop the reference to the event
    }
    return out;
  }
}

export interface SimulationResult {
  would_trigger: boolean;
  matched_conditions: MatchedCondition[];
  actions_would_execute: ExecutedAction[];
  evaluation: PolicyEvaluation | null;
}

/**
 * Evaluates one policy against one sample, with the same compiled code the pipeline runs. A
 * threshold sees the sample alone (one event); nothing is stored, blocked or sent.
 */
export function simulate(policy: PolicyDefinition, sample: EngineEvent): SimulationResult {
  const compiled = compilePolicy(policy);
  if (!compiled.ok) throw new Error(`policy ${policy.id} has an invalid config: ${compiled.errors.map((e) => e.field).join(', ')}`);
  const evaluation = compiled.policy.evaluate(new EventView(sample), null);
  return {
    would_trigger: evaluation !== null,
    matched_conditions: evaluation?.matched_conditions ?? [],
    actions_would_execute: evaluation?.actions ?? [],
    evaluation,
  };
}
