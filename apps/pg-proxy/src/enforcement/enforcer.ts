import { enforcementModeOf, type PolicySnapshot } from '@vigil/contracts';
import { type EngineEvent, exemptionOf, type MaskingMethod, type PolicyEvaluation, queryShape } from '@vigil/policy-engine';
import type { Taint } from '../masking/protection';
import type { PolicyStore } from '../policies/policy-store';
import type { StatementInfo } from '../sql/sql-analyzer';

/** Who is running statements: what access_control and exceptions look at. */
export interface SessionIdentity {
  databaseId: string;
  user: string;
  sourceIp: string;
  application?: string;
  sessionId: string;
}

export interface Decision {
  /** Set when the statement (or connection) must be refused. */
  block?: { policyId: string; policyName: string; message: string; evaluation: PolicyEvaluation; /** SQLSTATE; default 42501. */ code?: string };
  /** Every triggered evaluation, enforced or not. */
  evaluations: PolicyEvaluation[];
  /** Evaluations of shadow-mode policies that would have blocked. */
  wouldBlock: PolicyEvaluation[];
  /**
   * Set by the proxy's session under data protection: the statements as analysed and, per
   * statement, its taint (masking/protection.ts; null when proven clean).
   */
  infos?: StatementInfo[] | null;
  taints?: (Taint | null)[];
}

/**
 * A session's statement decisions by query shape (policy-engine shape.ts): texts that differ only
 * in free-standing numbers share one evaluation when the engine proves, for the policies of the
 * moment, that every text of the shape gets the same one. Emptied when the policies change.
 */
export class ShapeDecisions {
  generation = -1;
  readonly byShape = new Map<string, Decision>();
  hits = 0;
  misses = 0;
}

/** Shapes kept per session (the cache starts again past it), and the longest text kept. */
const SHAPES_PER_SESSION = 64;
const MAX_SHAPE_LENGTH = 2048;

/** One data_protection rule as it applies to a session. */
export interface ActiveMaskRule {
  policyId: string;
  policyName: string;
  rule: string;
  method: MaskingMethod;
  showFirst: number;
  showLast: number;
  /** Lowercase `table` (or '*') and `column` (or '*'). */
  table: string;
  column: string;
  /** Shadow mode: recorded as "would mask", values left as they are. */
  shadow: boolean;
}

interface ProtectionConfig {
  rules: { name: string; columns?: string[]; method: MaskingMethod; show_first?: number; show_last?: number }[];
  exceptions?: { users?: string[]; applications?: string[] };
}

/**
 * Inline enforcement with the shared engine: the same `PolicyEngine.evaluate` the ingest pipeline
 * runs on the records this proxy publishes, so what the proxy blocks is what the pipeline records
 * as `blocked`. Policies in shadow mode (the policy's `enforcement_mode`, docs/policies.md#shadow-mode)
 * are evaluated and reported ("would block", "would mask"), never enforced; the pipeline records
 * the same evaluations as `would_block` / `would_mask`.
 */
export class Enforcer {
  constructor(readonly store: PolicyStore) {}

  /**
   * A statement's decision, shared with earlier statements of the same shape in `cache` when the
   * engine found it stable for the shape (the same evaluations, block and shadow results as a
   * fresh evaluation would give). The decision returned is shared: callers must not change it.
   */
  evaluateQuery(who: SessionIdentity, query: string, cache: ShapeDecisions): Decision {
    if (query.length > MAX_SHAPE_LENGTH) return this.evaluate(who, 'database.query', query);
    const generation = this.store.generation;
    if (cache.generation !== generation) {
      cache.byShape.clear();
      cache.generation = generation;
    }
    const shape = queryShape(query);
    const kept = cache.byShape.get(shape);
    if (kept) {
      cache.hits++;
      return kept;
    }
    cache.misses++;
    const stability = { stable: false };
    const decision = this.evaluate(who, 'database.query', query, Date.now(), stability);
    if (stability.stable) {
      if (cache.byShape.size >= SHAPES_PER_SESSION) cache.byShape.clear();
      cache.byShape.set(shape, decision);
    }
    return decision;
  }

  evaluate(who: SessionIdentity, type: EngineEvent['type'], query?: string, at = Date.now(), shape?: { stable: boolean }): Decision {
    const event: EngineEvent = {
      type,
      database_id: who.databaseId,
      timestamp: at,
      user: who.user,
      source_ip: who.sourceIp,
      client_application: who.application,
      session_id: who.sessionId,
    };
    // Assigned rather than spread from a temporary object: this runs for every statement.
    if (query !== undefined) event.query = query;
    const evaluations = this.store.engine.evaluate(event, shape);
    const decision: Decision = { evaluations, wouldBlock: [] };
    for (const evaluation of evaluations) {
      if (evaluation.action_taken !== 'blocked') continue;
      if (evaluation.shadow) {
        decision.wouldBlock.push(evaluation);
        continue;
      }
      decision.block ??= {
        policyId: evaluation.policy_id,
        policyName: evaluation.policy_name,
        message: evaluation.message ?? `Blocked by policy "${evaluation.policy_name}": ${evaluation.matched_conditions.map((c) => c.reason).join('; ')}`,
        evaluation,
      };
    }
    return decision;
  }

  /** The data_protection rules with columns that apply to this session (exceptions removed). */
  maskRules(who: SessionIdentity): ActiveMaskRule[] {
    const out: ActiveMaskRule[] = [];
    for (const policy of this.store.forDatabase(who.databaseId, 'data_protection')) {
      const config = policy.config as unknown as ProtectionConfig;
      // The engine's rule: users alone, or users AND applications; applications alone exempt nobody.
      if (exemptionOf(config.exceptions)({ user: who.user, client_application: who.application })) continue;
      const shadow = enforcementModeOf(policy) === 'shadow';
      for (const rule of config.rules) {
        for (const pattern of rule.columns ?? []) {
          const [first, second] = pattern.toLowerCase().split('.') as [string, string | undefined];
          out.push({
            policyId: policy.id,
            policyName: policy.name,
            rule: rule.name,
            method: rule.method,
            showFirst: rule.show_first ?? 0,
            showLast: rule.show_last ?? 4,
            table: second === undefined ? '*' : first,
            column: second ?? first,
            shadow,
          });
        }
      }
    }
    return out;
  }

  /** Whether any enabled policy of the database is a data_protection policy (for COPY TO). */
  hasProtection(who: SessionIdentity): boolean {
    return this.maskRules(who).some((r) => !r.shadow);
  }
}

export type { PolicySnapshot };
