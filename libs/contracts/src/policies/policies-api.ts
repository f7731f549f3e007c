import type { PolicyEnforcementMode, PolicySnapshot, PolicyType } from '../events/policy-events';
import type { PolicyViolation } from '../events/policy-violation';

/** Request and response shapes between the gateway and the policy service (docs/policies.md). */
export interface PolicyPagination {
  total: number;
  page: number;
  per_page: number;
  has_more: boolean;
}

export interface PolicyPage<T> {
  data: T[];
  pagination: PolicyPagination;
}

export const PolicyListLimits = { defaultPerPage: 20, maxPerPage: 100 } as const;
export const ViolationListLimits = { defaultLimit: 20, maxLimit: 100 } as const;

export interface PolicyListItem {
  id: string;
  name: string;
  type: PolicyType;
  enabled: boolean;
  enforcement_mode: PolicyEnforcementMode;
  description: string;
  created_at: string;
  updated_at: string;
  databases: string[];
  violation_count: number;
}

export interface PolicyResponse extends PolicyListItem {
  config: Record<string, unknown>;
  last_violation_at: string | null;
}

export interface ListPoliciesRequest {
  type?: PolicyType;
  enabled?: boolean;
  enforcement_mode?: PolicyEnforcementMode;
  database_id?: string;
  /** `created_at` (default: oldest first) or `violation_count` (most violated first, ties oldest first). */
  sort?: PolicyListSort;
  page: number;
  per_page: number;
}

export const PolicyListSorts = ['created_at', 'violation_count'] as const;
export type PolicyListSort = (typeof PolicyListSorts)[number];

export interface CreatePolicyRequest {
  name: string;
  type: PolicyType;
  databases: string[];
  config: Record<string, unknown>;
  description?: string;
  enabled?: boolean;
  enforcement_mode?: PolicyEnforcementMode;
}

export interface UpdatePolicyRequest {
  id: string;
  changes: Partial<CreatePolicyRequest>;
}

export interface PolicyIdRequest {
  id: string;
}

export interface DeletePolicyResponse {
  deleted: boolean;
  id: string;
}

export interface PolicyEnabledResponse {
  id: string;
  enabled: boolean;
  updated_at: string;
}

export interface TestPolicyRequest {
  id: string;
  sample: {
    query?: string;
    user?: string;
    source_ip?: string;
    timestamp?: string;
    type?: string;
    severity?: string;
    database_id?: string;
    client_application?: string;
    details?: Record<string, unknown>;
  };
}

export interface TestPolicyResponse {
  would_trigger: boolean;
  matched_conditions: { type: string; reason: string }[];
  actions_would_execute: { type: string; severity?: string }[];
}

export interface ListViolationsRequest {
  policy_id: string;
  start_date?: string;
  end_date?: string;
  severity?: string[];
  user?: string;
  page: number;
  limit: number;
}

export type ViolationResponse = PolicyViolation;

/** Every policy's current state (deleted ones included, without config), for enforcement caches. */
export interface PolicySnapshotsResponse {
  policies: PolicySnapshot[];
}

/** A public key that signs policy snapshots: base64 of the 32 raw Ed25519 bytes. */
export interface PolicySigningKey {
  key_id: string;
  public_key: string;
  created_at: string;
  /** Set once a newer key signs; snapshots it signed still verify. */
  retired_at: string | null;
}

export interface PolicySigningKeysResponse {
  keys: PolicySigningKey[];
}
