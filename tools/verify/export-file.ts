import type { CheckpointPublicKey, LeafEvent, SignedCheckpoint } from '@vigil/integrity';

/** Format tag of an export file; a reader refuses any other. */
export const EXPORT_FORMAT = 'vigil.integrity-export/v1';

/** One leaf as `GET /v1/integrity/leaves` lists it. */
export interface ExportLeaf {
  leaf_index: number;
  /** The hash the server's tree holds for this position (lowercase hex). */
  leaf_hash: string;
  /** The published event; null when retention dropped it. */
  event: (LeafEvent & Record<string, unknown>) | null;
  retained: boolean;
}

/** An inclusion proof of one boundary leaf against the file's checkpoint. */
export interface ExportProof {
  leaf_index: number;
  leaf_hash: string;
  audit_path: string[];
}

/**
 * One file an auditor can verify on another machine: the published keys, one signed checkpoint,
 * the leaves `range.from..range.to` (inclusive) with their events, and the inclusion proofs of the
 * first and last leaf, which supply the hashes of the tree outside the range.
 */
export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  exported_at: string;
  /** The API the file was read from (information only: nothing in it is trusted). */
  source: string | null;
  keys: CheckpointPublicKey[];
  checkpoint: SignedCheckpoint;
  range: { from: number; to: number };
  leaves: ExportLeaf[];
  proofs: { first: ExportProof | null; last: ExportProof | null };
  /** Present when exported with a checkpoint the auditor kept: proves the file's tree extends it. */
  consistency?: { first: number; second: number; proof: string[] } | null;
}

/** Why `value` is not an export file, or null. Checks the shape only; the verifier checks the content. */
export function exportShapeProblem(value: unknown): string | null {
  if (!value || typeof value !== 'object') return 'not a JSON object';
  const file = value as Partial<ExportFile>;
  if (file.format !== EXPORT_FORMAT) return `format is ${JSON.stringify(file.format)}, expected "${EXPORT_FORMAT}"`;
  if (!Array.isArray(file.keys)) return 'keys must be an array';
  if (!file.checkpoint || typeof file.checkpoint !== 'object') return 'checkpoint is missing';
  if (!file.range || !Number.isSafeInteger(file.range.from) || !Number.isSafeInteger(file.range.to)) return 'range must be { from, to }';
  if (!Array.isArray(file.leaves)) return 'leaves must be an array';
  if (!file.proofs || typeof file.proofs !== 'object') return 'proofs is missing';
  return null;
}
