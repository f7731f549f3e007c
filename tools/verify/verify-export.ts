import {
  type BoundaryProof,
  type CheckpointPublicKey,
  CompactRange,
  type SignedCheckpoint,
  checkCheckpoint,
  eventLeafHashHex,
  isHexHash,
  rootFromRange,
  toHex,
  verifyConsistency,
} from '@vigil/integrity';
import { type ExportFile, type ExportProof, exportShapeProblem } from './export-file';

export type FailureReason =
  | 'altered'
  | 'missing'
  | 'reordered'
  | 'unexpected'
  | 'root_mismatch'
  | 'bad_signature'
  | 'inconsistent'
  | 'malformed';

export interface VerificationFailure {
  /** The first bad position, when the failure has one. */
  leaf_index: number | null;
  event_id: string | null;
  reason: FailureReason;
  detail: string;
}

export interface VerificationReport {
  ok: boolean;
  checkpoint: { tree_size: number; root_hash: string; timestamp: string; key_id: string } | null;
  /** Where the checkpoint's key came from: the auditor's own copy, or the file / API itself. */
  keys_source: 'trusted' | 'untrusted';
  /** The trusted checkpoint the tree was shown to extend, if one was given. */
  consistent_with: { tree_size: number; root_hash: string } | null;
  range: { from: number; to: number } | null;
  /** Leaves recomputed from their events. */
  checked: number;
  /** Leaves whose event retention dropped (their hash from the tree is used as is). */
  not_retained: number;
  /** Each check that passed, in order, in words. */
  passed: string[];
  failure: VerificationFailure | null;
}

export interface VerifyOptions {
  /** Public keys the auditor kept apart from the file; when given, only these are trusted. */
  trustedKeys?: CheckpointPublicKey[];
  /** A checkpoint the auditor kept earlier; the file's tree must extend it. */
  trustedCheckpoint?: SignedCheckpoint;
}

const fromHex = (hex: string) => Buffer.from(hex, 'hex');

/**
 * Verifies an export file with nothing but what is in it (and, optionally, the keys and a
 * checkpoint the auditor kept). Stops at the first failure and names its position and reason.
 *
 * Order: (1) the keys in the file agree with the trusted keys, (2) the checkpoint's signature,
 * (3) the file's tree extends the trusted checkpoint, (4) every leaf of the range in order,
 * recomputed from its event and compared with the tree's hash, (5) the root rebuilt from the
 * leaves and the two boundary proofs equals the signed root.
 */
export function verifyExport(file: ExportFile, options: VerifyOptions = {}): VerificationReport {
  const report: VerificationReport = {
    ok: false,
    checkpoint: null,
    keys_source: options.trustedKeys ? 'trusted' : 'untrusted',
    consistent_with: null,
    range: null,
    checked: 0,
    not_retained: 0,
    passed: [],
    failure: null,
  };
  const fail = (reason: FailureReason, detail: string, leaf_index: number | null = null, event_id: string | null = null): VerificationReport => {
    report.failure = { leaf_index, event_id, reason, detail };
    return report;
  };

  const shape = exportShapeProblem(file);
  if (shape) return fail('malformed', `not a usable export file: ${shape}`);
  const cp = file.checkpoint;

  // (1) Keys.
  let keys = file.keys;
  if (options.trustedKeys) {
    for (const key of file.keys) {
      const mine = options.trustedKeys.find((k) => k.key_id === key.key_id);
      if (mine && mine.public_key !== key.public_key) return fail('bad_signature', `key ${key.key_id} in the file differs from your trusted copy`);
    }
    keys = options.trustedKeys;
    report.passed.push('the keys in the file agree with your trusted keys');
  }

  // (2) The checkpoint's signature.
  const check = checkCheckpoint(cp, keys);
  if (!check.ok) return fail(check.reason === 'malformed' ? 'malformed' : 'bad_signature', `checkpoint of tree size ${cp.tree_size}: ${check.detail}`);
  report.checkpoint = { tree_size: cp.tree_size, root_hash: cp.root_hash, timestamp: cp.timestamp, key_id: cp.key_id };
  report.passed.push(`checkpoint (tree size ${cp.tree_size}, ${cp.timestamp}) is signed by key ${cp.key_id}${options.trustedKeys ? ' (trusted)' : ' (from the file itself)'}`);

  // (3) Consistency with the checkpoint the auditor kept.
  if (options.trustedCheckpoint) {
    const given = file.consistency;
    const proof = given && given.first === options.trustedCheckpoint.tree_size && given.second === cp.tree_size ? given.proof : undefined;
    const problem = consistencyProblem(options.trustedCheckpoint, cp, keys, proof);
    if (problem) return fail(problem.reason, problem.detail);
    report.consistent_with = { tree_size: options.trustedCheckpoint.tree_size, root_hash: options.trustedCheckpoint.root_hash };
    report.passed.push(`the checkpoint extends your trusted checkpoint of tree size ${options.trustedCheckpoint.tree_size}`);
  }

  // (4) The leaves.
  const { from, to } = file.range;
  if (from < 0 || to < from || to >= cp.tree_size) return fail('malformed', `range ${from}..${to} does not fit a tree of ${cp.tree_size}`);
  report.range = { from, to };
  const leafResult = foldLeaves(file, report);
  if ('failure' in leafResult) return fail(leafResult.failure.reason, leafResult.failure.detail, leafResult.failure.leaf_index, leafResult.failure.event_id);
  report.passed.push(
    `leaves ${from}..${to}: ${report.checked} recomputed from their events and equal to the tree's hashes` +
      (report.not_retained ? `, ${report.not_retained} dropped by retention (taken from the tree)` : ''),
  );

  // (5) The root.
  const first = boundary(file.proofs.first, from);
  const last = boundary(file.proofs.last, to);
  const root = first === undefined || last === undefined ? null : rootFromRange(cp.tree_size, leafResult.range, first, last);
  if (!root) return fail('root_mismatch', 'the boundary proofs do not fit the range and the checkpoint (wrong leaf, wrong length or missing)');
  if (toHex(root) !== cp.root_hash) {
    return fail('root_mismatch', `the root rebuilt from the leaves and the boundary proofs is ${toHex(root)}, the checkpoint signs ${cp.root_hash}`);
  }
  report.passed.push('the root rebuilt from the leaves and the boundary proofs equals the signed root');
  report.ok = true;
  return report;
}

/** A boundary proof in the library's shape; null when none is needed or given, undefined when malformed. */
function boundary(proof: ExportProof | null | undefined, index: number): BoundaryProof | null | undefined {
  if (!proof) return null;
  if (proof.leaf_index !== index || !Array.isArray(proof.audit_path) || !proof.audit_path.every(isHexHash)) return undefined;
  return { leaf_index: proof.leaf_index, audit_path: proof.audit_path.map(fromHex) };
}

type LeafFold = { range: CompactRange } | { failure: VerificationFailure };

function foldLeaves(file: ExportFile, report: VerificationReport): LeafFold {
  const { from, to } = file.range;
  const leaves = file.leaves;
  const range = new CompactRange(from);
  // Where each hash of the tree sits in the file: a recomputed hash found at another position means
  // the events were moved, not changed.
  let positions: Map<string, number> | undefined;
  const positionOf = (hex: string) => {
    positions ??= new Map(leaves.filter((l) => l && isHexHash(l.leaf_hash)).map((l) => [l.leaf_hash, l.leaf_index]));
    return positions.get(hex);
  };
  const failure = (leaf_index: number, reason: FailureReason, detail: string, event_id: string | null = null): LeafFold => ({
    failure: { leaf_index, event_id, reason, detail },
  });

  let expected = from;
  for (const leaf of leaves) {
    if (!leaf || typeof leaf !== 'object' || !Number.isSafeInteger(leaf.leaf_index)) return failure(expected, 'malformed', 'a leaf entry has no leaf_index');
    if (leaf.leaf_index > to) break;
    const eventId = leaf.event && typeof leaf.event.id === 'string' ? leaf.event.id : null;
    if (leaf.leaf_index > expected) {
      const later = leaves.find((l) => l && l.leaf_index === expected);
      if (later) return failure(expected, 'reordered', `leaf ${expected} is listed after leaf ${leaf.leaf_index}`, later.event && typeof later.event.id === 'string' ? later.event.id : null);
      const gap = leaf.leaf_index - expected;
      return failure(expected, 'missing', `${gap === 1 ? `leaf ${expected} is` : `leaves ${expected}..${leaf.leaf_index - 1} are`} missing: the next leaf listed is ${leaf.leaf_index}`);
    }
    if (leaf.leaf_index < expected) {
      return failure(leaf.leaf_index, 'reordered', `leaf ${leaf.leaf_index} is listed again after leaf ${expected - 1}`, eventId);
    }
    // (A leaf_hash equal to a recomputed hash is well-formed; others are checked where they are used.)
    let hex: string;
    if (leaf.event) {
      try {
        hex = eventLeafHashHex(leaf.event);
      } catch (error) {
        return failure(expected, 'altered', `the event cannot form a leaf: ${(error as Error).message}`, eventId);
      }
      if (hex !== leaf.leaf_hash) {
        if (!isHexHash(leaf.leaf_hash)) return failure(expected, 'malformed', `leaf ${expected} has no valid leaf_hash`, eventId);
        const elsewhere = positionOf(hex);
        if (elsewhere !== undefined && elsewhere !== expected) {
          return failure(expected, 'reordered', `the event stored at leaf ${expected} is the one the tree holds at leaf ${elsewhere}`, eventId);
        }
        return failure(expected, 'altered', `the event's leaf hash is ${hex}, the tree holds ${leaf.leaf_hash}`, eventId);
      }
      report.checked++;
    } else {
      if (leaf.retained !== false) return failure(expected, 'missing', `leaf ${expected} has no event but is not marked as dropped by retention`);
      if (!isHexHash(leaf.leaf_hash)) return failure(expected, 'malformed', `leaf ${expected} has no valid leaf_hash`);
      hex = leaf.leaf_hash;
      report.not_retained++;
    }
    range.appendHex(hex);
    expected++;
  }
  if (expected <= to) {
    return failure(expected, 'missing', `${expected === to ? `leaf ${to} is` : `leaves ${expected}..${to} are`} missing: the listing ends at ${expected - 1}`);
  }
  return { range };
}

/** Why `latest` does not extend `trusted` (both signed by `keys`), or null when it does. */
export function consistencyProblem(
  trusted: SignedCheckpoint,
  latest: SignedCheckpoint,
  keys: CheckpointPublicKey[],
  proofHex: string[] | undefined,
): { reason: FailureReason; detail: string } | null {
  const check = checkCheckpoint(trusted, keys);
  if (!check.ok) return { reason: 'bad_signature', detail: `your trusted checkpoint of tree size ${trusted.tree_size}: ${check.detail}` };
  if (trusted.tree_size > latest.tree_size) {
    return { reason: 'inconsistent', detail: `the log shrank: you hold a checkpoint of tree size ${trusted.tree_size}, the checkpoint verified is of ${latest.tree_size}` };
  }
  if (trusted.tree_size === latest.tree_size) {
    return trusted.root_hash === latest.root_hash ? null : { reason: 'inconsistent', detail: `two different roots for tree size ${trusted.tree_size}: ${trusted.root_hash} and ${latest.root_hash}` };
  }
  if (!proofHex) return { reason: 'inconsistent', detail: `no consistency proof from tree size ${trusted.tree_size} to ${latest.tree_size}` };
  if (!Array.isArray(proofHex) || !proofHex.every(isHexHash)) return { reason: 'malformed', detail: 'the consistency proof is not a list of hex hashes' };
  const ok = verifyConsistency(trusted.tree_size, latest.tree_size, fromHex(trusted.root_hash), fromHex(latest.root_hash), proofHex.map(fromHex));
  return ok ? null : { reason: 'inconsistent', detail: `the tree of ${latest.tree_size} does not extend your checkpoint of ${trusted.tree_size} (${trusted.root_hash}): the consistency proof fails` };
}
