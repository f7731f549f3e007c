import { hash } from 'node:crypto';

/** SHA-256 output length; every hash of the tree has it. */
export const HASH_SIZE = 32;

/** MTH of the empty tree: SHA-256 of no bytes (RFC 9162 §2.1.1). */
export const EMPTY_ROOT: Buffer = hash('sha256', Buffer.alloc(0), 'buffer');

// One scratch buffer per process for the prefixed inputs: the hash functions are synchronous,
// so nothing else can use it between the copy and the digest. The digest itself is the only
// allocation per hash.
const nodeInput = Buffer.alloc(1 + 2 * HASH_SIZE);
nodeInput[0] = 0x01;
let leafInput = Buffer.alloc(4096);

/**
 * RFC 9162 leaf hash: SHA-256(0x00 ‖ bytes). A string is taken as its UTF-8 bytes (the canonical
 * text of an event, which is always well-formed: see canonicalJson), saving the Buffer copy.
 */
export function leafHash(bytes: Uint8Array | string): Buffer {
  // U+0000 is the single byte 0x00 in UTF-8, so the prefix can ride in the string.
  if (typeof bytes === 'string') return hash('sha256', '\u0000' + bytes, 'buffer');
  if (bytes.length + 1 > leafInput.length) leafInput = Buffer.alloc(Math.max(bytes.length + 1, leafInput.length * 2));
  leafInput[0] = 0x00;
  leafInput.set(bytes, 1);
  return hash('sha256', leafInput.subarray(0, bytes.length + 1), 'buffer');
}

/** RFC 9162 interior node hash: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) throw new RangeError('nodeHash: both children must be 32-byte hashes');
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + HASH_SIZE);
  return hash('sha256', nodeInput, 'buffer');
}

/** Lowercase hex, the encoding of hashes on the API. */
export const toHex = (h: Uint8Array): string => Buffer.from(h.buffer, h.byteOffset, h.byteLength).toString('hex');

const HEX_HASH = /^[0-9a-f]{64}$/;

/** A 32-byte hash from its lowercase hex form; RangeError for anything else. */
export function fromHex(hex: string): Buffer {
  if (typeof hex !== 'string' || !HEX_HASH.test(hex)) throw new RangeError(`not a lowercase hex SHA-256 hash: ${String(hex).slice(0, 80)}`);
  return Buffer.from(hex, 'hex');
}

export const isHexHash = (value: unknown): value is string => typeof value === 'string' && HEX_HASH.test(value);
