import type { AlertType, MaskingMethod, PolicySeverity } from './schemas';

/** One audit event as the engine sees it: the fields conditions can look at. */
export interface EngineEvent {
  id?: string;
  type: string;
  severity?: string;
  database_id: string;
  /** Epoch milliseconds of the event. */
  timestamp: number;
  user?: string;
  source_ip?: string;
  query?: string;
  client_application?: string;
  session_id?: string;
  details?: Record<string, unknown>;
}

export type PolicyTypeName = 'access_control' | 'data_protection' | 'query_control' | 'alerting';

/** A policy as the engine needs it (the policy snapshot of the contracts has these fields). */
export interface PolicyDefinition {
  id: string;
  name: string;
  type: PolicyTypeName;
  enabled: boolean;
  databases: string[];
  config: unknown;
  version?: number;
  deleted?: boolean;
  /** `shadow`: evaluated and reported, never enforced (absent = `enforce`). */
  enforcement_mode?: 'enforce' | 'shadow';
}

export interface MatchedCondition {
  /** e.g. `user`, `time_window`, `ip_restriction`, `query_pattern`, `protected_column`, `threshold`. */
  type: string;
  reason: string;
}

export interface ExecutedAction {
  type: 'block' | 'alert' | 'log' | 'mask';
  severity?: PolicySeverity;
  channels?: string[];
}

export interface MaskingInstruction {
  rule: string;
  method: MaskingMethod;
  columns: string[];
  classifications: string[];
  show_first?: number;
  show_last?: number;
}

export interface AlertInstruction {
  type: AlertType;
  severity: PolicySeverity;
  title: string;
  message?: string;
  channels: string[];
}

/**
 * What one policy decided about one event. `violation` when a block or alert action executes
 * (and for every triggered alerting policy), `match` when the policy only logs or masks.
 */
export interface PolicyEvaluation {
  policy_id: string;
  policy_name: string;
  policy_type: PolicyTypeName;
  outcome: 'violation' | 'match';
  action_taken: 'blocked' | 'alerted' | 'masked' | 'logged';
  severity: PolicySeverity;
  matched_conditions: MatchedCondition[];
  actions: ExecutedAction[];
  rule_name?: string;
  message?: string;
  masking?: MaskingInstruction[];
  alert?: AlertInstruction;
  /**
   * Set when the policy is in shadow mode: `action_taken` and `alert` say what enforcing it would
   * do, and the caller must neither block, mask nor alert (docs/policies.md#shadow-mode).
   */
  shadow?: true;
}

export interface FieldIssue {
  /** JSON path inside the config, e.g. `rules[0].pattern`. */
  path: string;
  message: string;
}
