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
  return hash('sha256', prefixedLeaf(bytes), 'buffer');
}

/** leafHash as lowercase hex: the faster form (a string costs less to make than a Buffer). */
export function leafHashHex(bytes: Uint8Array | string): string {
  return hash('sha256', prefixedLeaf(bytes), 'hex');
}

/** 0x00 ‖ bytes in the scratch buffer (a view of it, valid until the next call). */
function prefixedLeaf(bytes: Uint8Array | string): Buffer {
  // A UTF-16 code unit is at most 3 bytes of UTF-8; a string is encoded straight into the scratch.
  const room = typeof bytes === 'string' ? bytes.length * 3 + 1 : bytes.length + 1;
  if (room > leafInput.length) leafInput = Buffer.alloc(Math.max(room, leafInput.length * 2));
  leafInput[0] = 0x00;
  let length: number;
  if (typeof bytes === 'string') {
    length = leafInput.write(bytes, 1, 'utf8');
  } else {
    leafInput.set(bytes, 1);
    length = bytes.length;
  }
  return leafInput.subarray(0, length + 1);
}

/** RFC 9162 interior node hash: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) throw new RangeError('nodeHash: both children must be 32-byte hashes');
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + HASH_SIZE);
  return hash('sha256', nodeInput, 'buffer');
}

/** nodeHash on lowercase hex hashes, answering hex: no Buffer made (the verifier's fold). */
export function nodeHashHex(left: string, right: string): string {
  if (left.length !== 2 * HASH_SIZE || right.length !== 2 * HASH_SIZE) throw new RangeError('nodeHashHex: both children must be 64 hex digits');
  if (nodeInput.write(left, 1, 'hex') !== HASH_SIZE || nodeInput.write(right, 1 + HASH_SIZE, 'hex') !== HASH_SIZE) throw new RangeError('nodeHashHex: not hex');
  return hash('sha256', nodeInput, 'hex');
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
