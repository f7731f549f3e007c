import type { AuditEvent } from '../events/audit-event';

/** The tamper-evident event log's API (docs/integrity.md#api). Hashes are lowercase hex. */

export const IntegrityLimits = {
  maxLeavesPerPage: 1000,
  defaultLeavesPerPage: 100,
  maxCheckpointsPerPage: 100,
  defaultCheckpointsPerPage: 20,
} as const;

export const VerificationFailureReasons = ['altered', 'missing', 'reordered', 'unexpected', 'root_mismatch', 'bad_signature'] as const;
export type VerificationFailureReason = (typeof VerificationFailureReasons)[number];

export interface IntegrityKey {
  key_id: string;
  algorithm: 'Ed25519';
  /** base64 of the raw 32-byte public key */
  public_key: string;
  valid_from: string;
  valid_until: string | null;
  status: 'active' | 'retired';
}

export interface Checkpoint {
  tree_size: number;
  root_hash: string;
  timestamp: string;
  key_id: string;
  /** base64 of the 64-byte Ed25519 signature */
  signature: string;
}

export interface CheckpointPage {
  data: Checkpoint[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

export interface InclusionProof {
  event_id: string;
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  audit_path: string[];
  checkpoint: Checkpoint;
}

export interface ConsistencyProof {
  first: number;
  second: number;
  proof: string[];
}

export interface LeafEntry {
  leaf_index: number;
  leaf_hash: string;
  event: AuditEvent | null;
  retained: boolean;
}

export interface LeavesPage {
  data: LeafEntry[];
  next_from: number | null;
}

export interface VerificationFailure {
  leaf_index: number;
  event_id: string | null;
  reason: VerificationFailureReason;
  detail: string;
}

export interface Verification {
  id: string;
  status: 'running' | 'passed' | 'failed';
  tree_size: number;
  from_index: number;
  to_index: number;
  checked: number;
  total: number;
  first_failure: VerificationFailure | null;
  created_at: string;
  finished_at: string | null;
}

export interface InclusionProofRequest {
  event_id: string;
  tree_size?: number;
}
export interface ConsistencyProofRequest {
  first: number;
  second: number;
}
export interface LeavesRequest {
  from: number;
  limit: number;
}
export interface CheckpointsRequest {
  page: number;
  per_page: number;
}
export interface StartVerificationRequest {
  from_index?: number;
  to_index?: number;
  tree_size?: number;
}
