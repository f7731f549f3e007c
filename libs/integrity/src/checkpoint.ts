import { type KeyObject, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { isHexHash } from './hashes';

/** First line of every checkpoint message: names the format and its version. */
export const CHECKPOINT_HEADER = 'vigil.checkpoint/v1';

export interface CheckpointFields {
  tree_size: number;
  /** MTH of the first tree_size leaves, lowercase hex. */
  root_hash: string;
  /** ISO-8601 UTC, e.g. `2026-11-25T18:00:00.000Z`. */
  timestamp: string;
  key_id: string;
}

export interface SignedCheckpoint extends CheckpointFields {
  /** Ed25519 signature of checkpointMessage(fields), base64 of its 64 bytes. */
  signature: string;
}

/** A published signing key, as `GET /v1/integrity/keys` lists it. */
export interface CheckpointPublicKey {
  key_id: string;
  /** base64 of the raw 32-byte Ed25519 public key. */
  public_key: string;
  algorithm?: string;
  valid_from?: string | null;
  valid_until?: string | null;
  status?: string;
}

export type CheckpointCheck =
  | { ok: true; key: CheckpointPublicKey }
  | { ok: false; reason: 'malformed' | 'unknown_key' | 'outside_validity' | 'bad_signature'; detail: string };

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const KEY_ID = /^[\x21-\x7e]{1,200}$/;

/** Why these fields cannot form a checkpoint, or null when they can. */
function malformed(fields: CheckpointFields): string | null {
  if (!fields || typeof fields !== 'object') return 'not an object';
  if (!Number.isSafeInteger(fields.tree_size) || fields.tree_size < 0) return 'tree_size must be a non-negative integer';
  if (!isHexHash(fields.root_hash)) return 'root_hash must be 64 lowercase hex digits';
  if (typeof fields.timestamp !== 'string' || !ISO_UTC.test(fields.timestamp) || Number.isNaN(Date.parse(fields.timestamp))) return 'timestamp must be ISO-8601 UTC';
  if (typeof fields.key_id !== 'string' || !KEY_ID.test(fields.key_id)) return 'key_id must be printable ASCII without spaces';
  return null;
}

/**
 * The signed bytes: UTF-8 of `vigil.checkpoint/v1\n<tree_size>\n<root_hash hex>\n<timestamp>\n<key_id>\n`.
 * A line-based text rather than JSON so that anyone can rebuild it with a shell and check it with
 * any Ed25519 tool; the fields are validated so no value can carry a line break.
 */
export function checkpointMessage(fields: CheckpointFields): Buffer {
  const problem = malformed(fields);
  if (problem) throw new TypeError(`checkpoint: ${problem}`);
  return Buffer.from(`${CHECKPOINT_HEADER}\n${fields.tree_size}\n${fields.root_hash}\n${fields.timestamp}\n${fields.key_id}\n`, 'utf8');
}

export function signCheckpoint(fields: CheckpointFields, privateKey: KeyObject): SignedCheckpoint {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError('signCheckpoint: the key must be an Ed25519 private key');
  const signature = sign(null, checkpointMessage(fields), privateKey).toString('base64');
  return { tree_size: fields.tree_size, root_hash: fields.root_hash, timestamp: fields.timestamp, key_id: fields.key_id, signature };
}

/**
 * Checks a checkpoint against published keys: the key named by `key_id` must be among them, the
 * checkpoint's timestamp must fall inside that key's validity (`valid_from` ≤ timestamp ≤
 * `valid_until`, where given) and the signature must verify. The reason says which failed.
 */
export function checkCheckpoint(checkpoint: SignedCheckpoint, publicKeys: readonly CheckpointPublicKey[]): CheckpointCheck {
  const problem = malformed(checkpoint);
  if (problem) return { ok: false, reason: 'malformed', detail: problem };
  const signature = decodeBase64(checkpoint.signature, 64);
  if (!signature) return { ok: false, reason: 'malformed', detail: 'signature must be base64 of 64 bytes' };
  const key = publicKeys.find((k) => k.key_id === checkpoint.key_id);
  if (!key) return { ok: false, reason: 'unknown_key', detail: `no published key ${checkpoint.key_id}` };
  if (key.algorithm !== undefined && key.algorithm !== 'Ed25519') return { ok: false, reason: 'unknown_key', detail: `key ${key.key_id} is ${key.algorithm}, not Ed25519` };
  const at = Date.parse(checkpoint.timestamp);
  if ((key.valid_from && at < Date.parse(key.valid_from)) || (key.valid_until && at > Date.parse(key.valid_until))) {
    return { ok: false, reason: 'outside_validity', detail: `checkpoint of ${checkpoint.timestamp} is outside the validity of key ${key.key_id} (${key.valid_from ?? '…'} – ${key.valid_until ?? 'now'})` };
  }
  let publicKey: KeyObject;
  try {
    publicKey = publicKeyFromBase64(key.public_key);
  } catch {
    return { ok: false, reason: 'unknown_key', detail: `key ${key.key_id} is not a base64 Ed25519 public key` };
  }
  if (!verify(null, checkpointMessage(checkpoint), publicKey, signature)) return { ok: false, reason: 'bad_signature', detail: `the signature does not verify with key ${key.key_id}` };
  return { ok: true, key };
}

/** checkCheckpoint(...).ok */
export function verifyCheckpoint(checkpoint: SignedCheckpoint, publicKeys: readonly CheckpointPublicKey[]): boolean {
  return checkCheckpoint(checkpoint, publicKeys).ok;
}

// DER SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410): the raw 32 bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A KeyObject from base64 of the raw 32-byte Ed25519 public key. */
export function publicKeyFromBase64(base64: string): KeyObject {
  const raw = decodeBase64(base64, 32);
  if (!raw) throw new TypeError('an Ed25519 public key is base64 of 32 bytes');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** base64 of the raw 32 bytes of an Ed25519 public key (or of the public half of a private key). */
export function publicKeyToBase64(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new TypeError('not an Ed25519 key');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return der.subarray(ED25519_SPKI_PREFIX.length).toString('base64');
}

/** A fresh Ed25519 key pair. */
export function generateCheckpointKey(): { privateKey: KeyObject; publicKey: KeyObject; public_key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, public_key: publicKeyToBase64(publicKey) };
}

function decodeBase64(text: unknown, length: number): Buffer | null {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === length && bytes.toString('base64') === text ? bytes : null;
}
