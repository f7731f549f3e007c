/**
 * Checks, in the browser, that an event is in Vigil's signed event log (docs/integrity.md): the
 * event's leaf is recomputed from the event as the API serves it, folded with its inclusion proof
 * into an RFC 9162 root, and that root must be the one a checkpoint commits to, whose Ed25519
 * signature must verify with a published key. WebCrypto only (SHA-256 and Ed25519); no Node
 * built-in, so this bundles for the browser. It follows libs/integrity, which the console may not
 * import (that library hashes with `node:crypto`).
 */

/** The event fields a leaf holds, in their published form (`GET /v1/events/{id}`). */
export interface LeafEvent {
  id: string;
  type: string;
  severity: string;
  database_id: string;
  timestamp: string;
  processed_at: string;
  details: unknown;
  context: { policy_id: string | null; rule_id: string | null; risk_score: number };
  producer_id?: string | null;
  ingested_by?: { kind: string; id: string } | null;
}

export interface Checkpoint {
  tree_size: number;
  root_hash: string;
  timestamp: string;
  key_id: string;
  signature: string;
}

export interface PublicKey {
  key_id: string;
  public_key: string;
  algorithm?: string;
  valid_from?: string | null;
  valid_until?: string | null;
}

export interface InclusionProof {
  event_id: string;
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  audit_path: string[];
  checkpoint: Checkpoint;
}

export type ProofFailure = 'malformed' | 'unknown_key' | 'outside_validity' | 'bad_signature' | 'wrong_event' | 'leaf_mismatch' | 'root_mismatch';

export type ProofCheck =
  | { ok: true; tree_size: number; key_id: string; leaf_index: number; root_hash: string }
  | { ok: false; reason: ProofFailure; detail: string };

/** The WebCrypto subset used: `crypto.subtle` in the browser (and in Node 20+, for the tests). */
export type Subtle = Pick<SubtleCrypto, 'digest' | 'importKey' | 'verify'>;

/** Version of the leaf encoding (`v`). */
export const LEAF_VERSION = 1;
const CHECKPOINT_HEADER = 'vigil.checkpoint/v1';

/**
 * RFC 8785 (JCS) canonical JSON: members sorted by their names as UTF-16 code units (the default
 * sort), strings and numbers as `JSON.stringify` writes them (a lone surrogate as `\udxxx`, the
 * documented extension), no whitespace. Non-finite numbers are refused.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: numbers must be finite');
      return JSON.stringify(value);
    case 'object': {
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return canonicalJson(withJson.toJSON());
      if (Array.isArray(value)) return `[${value.map((item) => (skipped(item) ? 'null' : canonicalJson(item))).join(',')}]`;
      const record = value as Record<string, unknown>;
      const names = Object.keys(record)
        .filter((name) => !skipped(record[name]))
        .sort();
      return `{${names.map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot write a ${typeof value}`);
  }
}

const skipped = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

const nullableText = (value: unknown, field: string): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`${field} must be a string or null`);
  return value;
};

/** The canonical text of an event's leaf (docs/integrity.md, "Canonical form"). */
export function eventLeafText(event: LeafEvent): string {
  const by = event.ingested_by;
  return canonicalJson({
    v: LEAF_VERSION,
    id: event.id,
    type: event.type,
    severity: event.severity,
    database_id: event.database_id,
    timestamp: event.timestamp,
    processed_at: event.processed_at,
    details: event.details,
    context: { policy_id: nullableText(event.context.policy_id, 'context.policy_id'), rule_id: nullableText(event.context.rule_id, 'context.rule_id'), risk_score: event.context.risk_score },
    producer_id: nullableText(event.producer_id, 'producer_id'),
    ingested_by: by ? { kind: by.kind, id: by.id } : null,
  });
}

const HEX_HASH = /^[0-9a-f]{64}$/;

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function fromBase64(text: string, length: number): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  if (binary.length !== length) return null;
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function sha256(subtle: Subtle, ...parts: Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  const input = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    input.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await subtle.digest('SHA-256', input));
}

const LEAF_PREFIX = Uint8Array.of(0);
const NODE_PREFIX = Uint8Array.of(1);

/** RFC 9162 leaf hash, SHA-256(0x00 ‖ UTF-8 of the leaf text), lowercase hex. */
export async function leafHashHex(subtle: Subtle, text: string): Promise<string> {
  return toHex(await sha256(subtle, LEAF_PREFIX, new TextEncoder().encode(text)));
}

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2), lowercase hex; null when the path
 * cannot belong to that index and size (too long, too short, an index outside the tree).
 */
export async function rootFromInclusionPath(subtle: Subtle, leafIndex: number, treeSize: number, leafHash: string, path: readonly string[]): Promise<string | null> {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return null;
  if (!HEX_HASH.test(leafHash) || !path.every((p) => HEX_HASH.test(p))) return null;
  // Plain arithmetic rather than bit operators: indexes may exceed 32 bits.
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = fromHex(leafHash);
  for (const hex of path) {
    if (sn === 0) return null;
    const p = fromHex(hex);
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(subtle, NODE_PREFIX, p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await sha256(subtle, NODE_PREFIX, r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? toHex(r) : null;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const KEY_ID = /^[\x21-\x7e]{1,200}$/;

/** The signed text of a checkpoint, or why its fields cannot form one. */
export function checkpointMessage(checkpoint: Checkpoint): { message: string } | { problem: string } {
  if (!Number.isSafeInteger(checkpoint.tree_size) || checkpoint.tree_size < 0) return { problem: 'tree_size must be a non-negative integer' };
  if (typeof checkpoint.root_hash !== 'string' || !HEX_HASH.test(checkpoint.root_hash)) return { problem: 'root_hash must be 64 lowercase hex digits' };
  if (typeof checkpoint.timestamp !== 'string' || !ISO_UTC.test(checkpoint.timestamp) || Number.isNaN(Date.parse(checkpoint.timestamp))) return { problem: 'timestamp must be ISO-8601 UTC' };
  if (typeof checkpoint.key_id !== 'string' || !KEY_ID.test(checkpoint.key_id)) return { problem: 'key_id must be printable ASCII without spaces' };
  return { message: `${CHECKPOINT_HEADER}\n${checkpoint.tree_size}\n${checkpoint.root_hash}\n${checkpoint.timestamp}\n${checkpoint.key_id}\n` };
}

/** A checkpoint against published keys: a known Ed25519 key, valid at the checkpoint's time, whose signature verifies. */
export async function checkCheckpoint(subtle: Subtle, checkpoint: Checkpoint, keys: readonly PublicKey[]): Promise<{ ok: true } | { ok: false; reason: ProofFailure; detail: string }> {
  const signed = checkpointMessage(checkpoint);
  if ('problem' in signed) return { ok: false, reason: 'malformed', detail: `the checkpoint is malformed: ${signed.problem}` };
  const signature = typeof checkpoint.signature === 'string' ? fromBase64(checkpoint.signature, 64) : null;
  if (!signature) return { ok: false, reason: 'malformed', detail: 'the checkpoint signature is not base64 of 64 bytes' };
  const key = keys.find((k) => k.key_id === checkpoint.key_id);
  if (!key) return { ok: false, reason: 'unknown_key', detail: `no published key ${checkpoint.key_id}` };
  if (key.algorithm !== undefined && key.algorithm !== 'Ed25519') return { ok: false, reason: 'unknown_key', detail: `key ${key.key_id} is ${key.algorithm}, not Ed25519` };
  const at = Date.parse(checkpoint.timestamp);
  if ((key.valid_from && at < Date.parse(key.valid_from)) || (key.valid_until && at > Date.parse(key.valid_until))) {
    return { ok: false, reason: 'outside_validity', detail: `checkpoint of ${checkpoint.timestamp} is outside the validity of key ${key.key_id} (${key.valid_from ?? '…'} – ${key.valid_until ?? 'now'})` };
  }
  const raw = fromBase64(key.public_key, 32);
  if (!raw) return { ok: false, reason: 'unknown_key', detail: `key ${key.key_id} is not base64 of a 32-byte Ed25519 public key` };
  let verified: boolean;
  try {
    const publicKey = await subtle.importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
    verified = await subtle.verify({ name: 'Ed25519' }, publicKey, signature, new TextEncoder().encode(signed.message));
  } catch (error) {
    return { ok: false, reason: 'unknown_key', detail: `key ${key.key_id} could not be used: ${error instanceof Error ? error.message : String(error)}` };
  }
  return verified ? { ok: true } : { ok: false, reason: 'bad_signature', detail: `the checkpoint signature does not verify with key ${key.key_id}` };
}

/**
 * The whole check, stopping at the first failure: the checkpoint (signature and key), the proof
 * being for this event and that checkpoint, the event recomputed into the leaf hash the proof
 * names, and the root folded from that recomputed hash and the audit path equal to the signed root.
 */
export async function verifyInclusion(subtle: Subtle, event: LeafEvent, proof: InclusionProof, keys: readonly PublicKey[]): Promise<ProofCheck> {
  const checkpoint = proof.checkpoint;
  const signature = await checkCheckpoint(subtle, checkpoint, keys);
  if (!signature.ok) return signature;
  if (proof.event_id !== event.id) return { ok: false, reason: 'wrong_event', detail: `the proof is for ${proof.event_id}, not ${event.id}` };
  if (proof.tree_size !== checkpoint.tree_size) return { ok: false, reason: 'malformed', detail: `the proof is for a tree of ${proof.tree_size} leaves, the checkpoint for ${checkpoint.tree_size}` };
  let leaf: string;
  try {
    leaf = await leafHashHex(subtle, eventLeafText(event));
  } catch (error) {
    return { ok: false, reason: 'malformed', detail: `the event cannot be put in canonical form: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (leaf !== proof.leaf_hash) return { ok: false, reason: 'leaf_mismatch', detail: `the event as served hashes to ${leaf}, but the log holds ${proof.leaf_hash} at leaf ${proof.leaf_index}` };
  const root = await rootFromInclusionPath(subtle, proof.leaf_index, proof.tree_size, leaf, proof.audit_path);
  if (root === null) return { ok: false, reason: 'root_mismatch', detail: `the audit path (${proof.audit_path.length} hashes) does not fit leaf ${proof.leaf_index} of ${proof.tree_size}` };
  if (root !== checkpoint.root_hash) return { ok: false, reason: 'root_mismatch', detail: `the proof leads to root ${root}, the checkpoint signs ${checkpoint.root_hash}` };
  return { ok: true, tree_size: checkpoint.tree_size, key_id: checkpoint.key_id, leaf_index: proof.leaf_index, root_hash: root };
}
