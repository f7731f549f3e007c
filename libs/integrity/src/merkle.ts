import { EMPTY_ROOT, nodeHash, nodeHashHex } from './hashes';

/**
 * Merkle tree hashing and proofs of RFC 9162 §2.1 (Certificate Transparency 2.0).
 *
 * Positions: leaf `i` (0-based) of a tree of `size` leaves. A perfect subtree is named by
 * `(level, index)`: it covers the leaves `[index·2^level, (index+1)·2^level)`; level 0 is a
 * leaf. Every subtree of the RFC's tree is either such a perfect subtree or the right edge
 * `[lo, size)`, whose hash is folded from the perfect subtrees it splits into. So storage that
 * keeps the hashes of (some of) the perfect subtrees can serve any proof without reading leaves.
 *
 * Sizes and indexes are JavaScript numbers: exact up to 2^53, far beyond any log.
 */

export interface SubtreeRef {
  level: number;
  index: number;
}

export interface Subtree extends SubtreeRef {
  hash: Buffer;
}

/** Hash of the perfect subtree `(level, index)`, e.g. read from storage. */
export type SubtreeHashes = (level: number, index: number) => Buffer;

const pow2 = (level: number): number => 2 ** level;
const isPowerOfTwo = (n: number): boolean => n > 0 && 2 ** Math.floor(Math.log2(n)) === n;
const odd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/** The largest power of two strictly below `n` (n ≥ 2): the split point `k` of RFC 9162 §2.1.1. */
export function splitPoint(n: number): number {
  let k = 2 ** Math.floor(Math.log2(n));
  if (k >= n) k /= 2;
  return k;
}

function checkSize(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

/** MTH(D[0:n]) from all the leaf hashes (RFC 9162 §2.1.1); the empty tree hashes to SHA-256(""). */
export function rootFromLeaves(leafHashes: readonly Buffer[]): Buffer {
  if (leafHashes.length === 0) return EMPTY_ROOT;
  const range = new CompactRange(0);
  for (const h of leafHashes) range.append(h);
  return range.foldRoot();
}

/**
 * The perfect subtrees `[lo, hi)` splits into in the RFC's tree, left to right (largest first).
 * `lo` must be a position the RFC's recursion can start a subtree at (0, or any multiple of the
 * split sizes above it); that is all this module passes.
 */
export function subtreeNodes(lo: number, hi: number): SubtreeRef[] {
  const nodes: SubtreeRef[] = [];
  while (hi > lo) {
    const n = hi - lo;
    if (isPowerOfTwo(n) && lo % n === 0) {
      const level = Math.log2(n);
      nodes.push({ level, index: lo / n });
      break;
    }
    const k = splitPoint(n);
    nodes.push({ level: Math.log2(k), index: lo / k });
    lo += k;
  }
  return nodes;
}

/** MTH(D[lo:hi]) from the stored perfect subtrees. */
export function subtreeHash(lo: number, hi: number, hashAt: SubtreeHashes): Buffer {
  const nodes = subtreeNodes(lo, hi);
  let h = hashAt(nodes[nodes.length - 1].level, nodes[nodes.length - 1].index);
  for (let i = nodes.length - 2; i >= 0; i--) h = nodeHash(hashAt(nodes[i].level, nodes[i].index), h);
  return h;
}

/** `[lo, hi)` of each element of PATH(index, D[0:size]), in the proof's order (leaf side first). */
export function inclusionPathRanges(index: number, size: number): Array<[number, number]> {
  checkSize('size', size);
  if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`leaf index ${index} is outside a tree of ${size}`);
  const topDown: Array<[number, number]> = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = splitPoint(hi - lo);
    if (index < lo + k) {
      topDown.push([lo + k, hi]);
      hi = lo + k;
    } else {
      topDown.push([lo, lo + k]);
      lo += k;
    }
  }
  return topDown.reverse();
}

/** Every perfect subtree `inclusionPath` will ask `hashAt` for (to load them in one query). */
export function inclusionPathNodes(index: number, size: number): SubtreeRef[] {
  return inclusionPathRanges(index, size).flatMap(([lo, hi]) => subtreeNodes(lo, hi));
}

/** PATH(index, D[0:size]) of RFC 9162 §2.1.3.1, from stored subtree hashes. */
export function inclusionPath(index: number, size: number, hashAt: SubtreeHashes): Buffer[] {
  return inclusionPathRanges(index, size).map(([lo, hi]) => subtreeHash(lo, hi, hashAt));
}

/** RFC 9162 §2.1.3.2: does `path` prove leaf `leafIndex` with `leafHash` in the tree `root` of `treeSize`? */
export function verifyInclusion(leafIndex: number, treeSize: number, leafHash: Buffer, path: readonly Buffer[], root: Buffer): boolean {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return false;
  const r = rootFromInclusionPath(leafIndex, treeSize, leafHash, path);
  return r !== null && r.equals(root);
}

/** The root `path` leads to from the leaf, or null when the path has the wrong length or shape. */
export function rootFromInclusionPath(leafIndex: number, treeSize: number, leafHash: Buffer, path: readonly Buffer[]): Buffer | null {
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leafHash;
  for (const p of path) {
    if (sn === 0 || p.length !== leafHash.length) return null;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        do {
          fn = half(fn);
          sn = half(sn);
        } while (!odd(fn) && fn !== 0);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** `[lo, hi)` of each element of PROOF(first, D[0:second]) (RFC 9162 §2.1.4.1), in the proof's order. */
export function consistencyProofRanges(first: number, second: number): Array<[number, number]> {
  checkSize('first', first);
  checkSize('second', second);
  if (first > second) throw new RangeError(`first (${first}) is larger than second (${second})`);
  if (first === 0 || first === second) return [];
  const topDown: Array<[number, number]> = [];
  let lo = 0;
  let hi = second;
  let whole = true; // the RFC's flag b: the subtree so far is a prefix of the first tree's root.
  while (first !== hi) {
    const k = splitPoint(hi - lo);
    if (first <= lo + k) {
      topDown.push([lo + k, hi]);
      hi = lo + k;
    } else {
      topDown.push([lo, lo + k]);
      lo += k;
      whole = false;
    }
  }
  if (!whole) topDown.push([lo, hi]);
  return topDown.reverse();
}

/** Every perfect subtree `consistencyProof` will ask `hashAt` for. */
export function consistencyProofNodes(first: number, second: number): SubtreeRef[] {
  return consistencyProofRanges(first, second).flatMap(([lo, hi]) => subtreeNodes(lo, hi));
}

/** PROOF(first, D[0:second]) of RFC 9162 §2.1.4.1 (empty when first is 0 or equals second). */
export function consistencyProof(first: number, second: number, hashAt: SubtreeHashes): Buffer[] {
  return consistencyProofRanges(first, second).map(([lo, hi]) => subtreeHash(lo, hi, hashAt));
}

/** RFC 9162 §2.1.4.2: is the tree `secondRoot` of `second` leaves an extension of `firstRoot` of `first`? */
export function verifyConsistency(first: number, second: number, firstRoot: Buffer, secondRoot: Buffer, proof: readonly Buffer[]): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  // Every tree extends the empty one; there is nothing to prove.
  if (first === 0) return proof.length === 0 && firstRoot.equals(EMPTY_ROOT);
  if (proof.length === 0 || proof.some((p) => p.length !== firstRoot.length)) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof;
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0];
  let sr = path[0];
  for (let i = 1; i < path.length; i++) {
    const c = path[i];
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        do {
          fn = half(fn);
          sn = half(sn);
        } while (!odd(fn) && fn !== 0);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

/**
 * The hashes of a run of consecutive leaves `[begin, end)`, kept as the fewest perfect subtrees
 * that cover it (a "compact range"). Appending a leaf merges completed subtrees at once, so
 * memory stays O(log n) and the whole run costs one node hash per leaf; the only allocation per
 * leaf is the digest of the hashes themselves.
 */
export class CompactRange {
  readonly begin: number;
  private endPos: number;
  private readonly levels: number[] = [];
  // Hex strings, not Buffers: in a long fold, making a Buffer per hash costs more than hashing.
  private readonly hashes: string[] = [];

  constructor(begin: number) {
    checkSize('begin', begin);
    this.begin = begin;
    this.endPos = begin;
  }

  /** One past the last leaf appended. */
  get end(): number {
    return this.endPos;
  }

  append(leafHash: Buffer): void {
    if (leafHash.length !== 32) throw new RangeError('append: a leaf hash is 32 bytes');
    this.appendHex(leafHash.toString('hex'));
  }

  /** append() of a leaf hash in lowercase hex (64 digits; the caller has checked it). */
  appendHex(leafHash: string): void {
    let level = 0;
    let start = this.endPos;
    let h = leafHash;
    this.endPos++;
    const levels = this.levels;
    const hashes = this.hashes;
    // Merge with the left neighbour while it is this subtree's sibling: same level, and this one
    // is a right child (its index at that level is odd).
    while (levels.length > 0 && levels[levels.length - 1] === level && odd(start / pow2(level))) {
      levels.pop();
      h = nodeHashHex(hashes.pop() as string, h);
      start -= pow2(level);
      level++;
    }
    levels.push(level);
    hashes.push(h);
  }

  /** The perfect subtrees covering `[begin, end)`, left to right. */
  nodes(): Subtree[] {
    const out: Subtree[] = [];
    let start = this.begin;
    for (let i = 0; i < this.levels.length; i++) {
      const size = pow2(this.levels[i]);
      out.push({ level: this.levels[i], index: start / size, hash: Buffer.from(this.hashes[i], 'hex') });
      start += size;
    }
    return out;
  }

  /**
   * For a range that starts at leaf 0: MTH(D[0:end]), folding the subtrees right to left.
   * (A range starting elsewhere needs the hashes left of it: see rootFromRange.)
   */
  foldRoot(): Buffer {
    if (this.begin !== 0) throw new Error('foldRoot: the range does not start at leaf 0; use rootFromRange');
    if (this.hashes.length === 0) return EMPTY_ROOT;
    let r = this.hashes[this.hashes.length - 1];
    for (let i = this.hashes.length - 2; i >= 0; i--) r = nodeHashHex(this.hashes[i], r);
    return Buffer.from(r, 'hex');
  }
}

export interface BoundaryProof {
  leaf_index: number;
  audit_path: readonly Buffer[];
}

/**
 * MTH(D[0:treeSize]) from the leaves `[range.begin, range.end)` and the inclusion proofs of the
 * range's first and last leaf: every subtree outside the range that the root needs is a sibling
 * on one of those two paths. The proofs' other elements are not used; comparing the result with a
 * signed root is what verifies leaves and proofs together. Returns null when a proof lacks an
 * element the root needs (wrong length, wrong leaf) or the range does not fit the tree.
 */
export function rootFromRange(treeSize: number, range: CompactRange, first: BoundaryProof | null, last: BoundaryProof | null): Buffer | null {
  const begin = range.begin;
  const end = range.end;
  if (end <= begin || end > treeSize) return null;
  const outside = new Map<string, Buffer>();
  for (const proof of [first, last]) {
    if (!proof || proof.leaf_index < 0 || proof.leaf_index >= treeSize) continue;
    const ranges = inclusionPathRanges(proof.leaf_index, treeSize);
    if (ranges.length !== proof.audit_path.length) return null;
    ranges.forEach(([lo, hi], i) => {
      if (hi <= begin || lo >= end) outside.set(`${lo}:${hi}`, proof.audit_path[i]);
    });
  }
  const inside = new Map<number, Subtree>();
  for (const node of range.nodes()) inside.set(node.index * pow2(node.level), node);
  const mth = (lo: number, hi: number): Buffer | null => {
    if (hi <= begin || lo >= end) return outside.get(`${lo}:${hi}`) ?? null;
    const n = hi - lo;
    if (lo >= begin && hi <= end && isPowerOfTwo(n) && lo % n === 0) {
      const node = inside.get(lo);
      if (node && pow2(node.level) === n) return node.hash;
    }
    if (n === 1) return null;
    const k = splitPoint(n);
    const left = mth(lo, lo + k);
    const right = left && mth(lo + k, hi);
    return left && right ? nodeHash(left, right) : null;
  };
  return mth(0, treeSize);
}
