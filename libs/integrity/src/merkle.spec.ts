import { createHash } from 'node:crypto';
import { MerkleFrontier, frontierNodes } from './frontier';
import { EMPTY_ROOT, leafHash, nodeHash } from './hashes';
import {
  CompactRange,
  consistencyProof,
  consistencyProofNodes,
  inclusionPath,
  inclusionPathNodes,
  rootFromLeaves,
  rootFromRange,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

/**
 * An independent reference: MTH, PATH and PROOF written straight from the recursive definitions
 * of RFC 9162 §2.1 with their own SHA-256 calls, sharing no code with the module under test.
 */
class ReferenceTree {
  private readonly memo = new Map<string, Buffer>();
  constructor(readonly leaves: Buffer[]) {}

  static sha256(...parts: Buffer[]): Buffer {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest();
  }

  static leaf(data: Buffer): Buffer {
    return ReferenceTree.sha256(Buffer.from([0]), data);
  }

  /** k: the largest power of two smaller than n. */
  static k(n: number): number {
    let k = 1;
    while (k * 2 < n) k *= 2;
    return k;
  }

  /** MTH(D[lo:hi]). */
  mth(lo: number, hi: number): Buffer {
    const key = `${lo}:${hi}`;
    const known = this.memo.get(key);
    if (known) return known;
    let h: Buffer;
    const n = hi - lo;
    if (n === 0) h = ReferenceTree.sha256();
    else if (n === 1) h = ReferenceTree.leaf(this.leaves[lo]);
    else {
      const k = ReferenceTree.k(n);
      h = ReferenceTree.sha256(Buffer.from([1]), this.mth(lo, lo + k), this.mth(lo + k, hi));
    }
    this.memo.set(key, h);
    return h;
  }

  /** PATH(m, D[lo:hi]). */
  path(m: number, lo: number, hi: number): Buffer[] {
    const n = hi - lo;
    if (n === 1) return [];
    const k = ReferenceTree.k(n);
    if (m < k) return [...this.path(m, lo, lo + k), this.mth(lo + k, hi)];
    return [...this.path(m - k, lo + k, hi), this.mth(lo, lo + k)];
  }

  /** PROOF(m, D[0:n]) = SUBPROOF(m, D[0:n], true). */
  proof(m: number, n: number): Buffer[] {
    return this.subproof(m, 0, n, true);
  }

  private subproof(m: number, lo: number, hi: number, b: boolean): Buffer[] {
    const n = hi - lo;
    if (m === n) return b ? [] : [this.mth(lo, hi)];
    const k = ReferenceTree.k(n);
    if (m <= k) return [...this.subproof(m, lo, lo + k, b), this.mth(lo + k, hi)];
    return [...this.subproof(m - k, lo + k, hi, false), this.mth(lo, lo + k)];
  }

  /** A provider of perfect subtree hashes, as storage would give. */
  hashAt = (level: number, index: number): Buffer => {
    const width = 2 ** level;
    if ((index + 1) * width > this.leaves.length) throw new Error(`no complete subtree (${level}, ${index})`);
    return this.mth(index * width, (index + 1) * width);
  };
}

const data = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`leaf ${i} of a test log`));
const hashesOf = (leaves: Buffer[]) => leaves.map((d) => leafHash(d));
const flip = (b: Buffer, bit = 0) => {
  const c = Buffer.from(b);
  c[bit >> 3] ^= 1 << (bit & 7);
  return c;
};
const hex = (list: Buffer[]) => list.map((b) => b.toString('hex'));
const SIZES = [...Array.from({ length: 70 }, (_, i) => i + 1), 100, 127, 128, 129, 255, 256, 257];

describe('Merkle tree hashing (RFC 9162 §2.1)', () => {
  it('hashes leaves and nodes with the 0x00 / 0x01 prefixes', () => {
    const a = Buffer.from('a');
    expect(leafHash(a)).toEqual(ReferenceTree.leaf(a));
    expect(leafHash('a')).toEqual(ReferenceTree.leaf(a));
    expect(leafHash(Buffer.alloc(10_000, 7))).toEqual(ReferenceTree.leaf(Buffer.alloc(10_000, 7)));
    const [l, r] = [leafHash(a), leafHash(Buffer.from('b'))];
    expect(nodeHash(l, r)).toEqual(ReferenceTree.sha256(Buffer.from([1]), l, r));
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(rootFromLeaves([])).toEqual(EMPTY_ROOT);
  });

  it.each(SIZES)('computes the root of %i leaves as the reference MTH, also through the frontier', (n) => {
    const leaves = data(n);
    const ref = new ReferenceTree(leaves);
    expect(rootFromLeaves(hashesOf(leaves))).toEqual(ref.mth(0, n));
    const frontier = new MerkleFrontier();
    for (const h of hashesOf(leaves)) frontier.append(h);
    expect(frontier.size).toBe(n);
    expect(frontier.root()).toEqual(ref.mth(0, n));
  });
});

describe('inclusion proofs', () => {
  it.each(SIZES)('for every leaf of a tree of %i: the reference PATH, verified; tampering refused', (n) => {
    const leaves = data(n);
    const ref = new ReferenceTree(leaves);
    const root = ref.mth(0, n);
    const hashes = hashesOf(leaves);
    for (let m = 0; m < n; m++) {
      const path = inclusionPath(m, n, ref.hashAt);
      expect(hex(path)).toEqual(hex(ref.path(m, 0, n)));
      // Asks only for the nodes it announced.
      const asked: string[] = [];
      inclusionPath(m, n, (level, index) => (asked.push(`${level}:${index}`), ref.hashAt(level, index)));
      expect(asked.sort()).toEqual(inclusionPathNodes(m, n).map((x) => `${x.level}:${x.index}`).sort());

      expect(verifyInclusion(m, n, hashes[m], path, root)).toBe(true);
      expect(verifyInclusion(m, n, flip(hashes[m]), path, root)).toBe(false);
      expect(verifyInclusion(m, n, hashes[m], path, flip(root, 255))).toBe(false);
      for (let i = 0; i < path.length; i++) {
        const bad = path.slice();
        bad[i] = flip(bad[i], 9);
        expect(verifyInclusion(m, n, hashes[m], bad, root)).toBe(false);
      }
      if (n > 1) {
        expect(verifyInclusion((m + 1) % n, n, hashes[m], path, root)).toBe(false);
        expect(verifyInclusion(m, n, hashes[(m + 1) % n], path, root)).toBe(false);
      }
      if (path.length > 0) expect(verifyInclusion(m, n, hashes[m], path.slice(0, -1), root)).toBe(false);
      expect(verifyInclusion(m, n, hashes[m], [...path, root], root)).toBe(false);
    }
    expect(verifyInclusion(n, n, hashes[0], [], root)).toBe(false);
    expect(verifyInclusion(-1, n, hashes[0], [], root)).toBe(false);
  });
});

describe('consistency proofs', () => {
  it.each(SIZES.filter((n) => n <= 70 || n === 129 || n === 257))('for every first size up to %i: the reference PROOF, verified; tampering refused', (n) => {
    const leaves = data(n);
    const ref = new ReferenceTree(leaves);
    const second = ref.mth(0, n);
    for (let m = 1; m <= n; m++) {
      const first = ref.mth(0, m);
      const proof = consistencyProof(m, n, ref.hashAt);
      expect(hex(proof)).toEqual(hex(ref.proof(m, n)));
      const asked: string[] = [];
      consistencyProof(m, n, (level, index) => (asked.push(`${level}:${index}`), ref.hashAt(level, index)));
      expect(asked.sort()).toEqual(consistencyProofNodes(m, n).map((x) => `${x.level}:${x.index}`).sort());

      expect(verifyConsistency(m, n, first, second, proof)).toBe(true);
      expect(verifyConsistency(m, n, flip(first), second, proof)).toBe(false);
      expect(verifyConsistency(m, n, first, flip(second), proof)).toBe(false);
      for (let i = 0; i < proof.length; i++) {
        const bad = proof.slice();
        bad[i] = flip(bad[i], 100);
        expect(verifyConsistency(m, n, first, second, bad)).toBe(false);
      }
      if (m < n) {
        expect(verifyConsistency(m, n, first, second, proof.slice(0, -1))).toBe(false);
        expect(verifyConsistency(m, n, first, second, [...proof, second])).toBe(false);
        expect(verifyConsistency(m + 1, n, ref.mth(0, m + 1), second, proof)).toBe(m + 1 === n ? proof.length === 0 : false);
        // A first tree that is not a prefix: its last leaf changed.
        if (n > 70) continue;
        const forked = new ReferenceTree([...leaves.slice(0, m - 1), Buffer.from('forked')]);
        expect(verifyConsistency(m, n, forked.mth(0, m), second, proof)).toBe(false);
      } else {
        expect(proof).toEqual([]);
      }
      expect(verifyConsistency(n, m, second, first, proof)).toBe(m === n);
    }
    expect(verifyConsistency(0, n, EMPTY_ROOT, second, [])).toBe(true);
  });
});

describe('rootFromRange: a run of leaves plus the proofs of its first and last leaf', () => {
  it.each([1, 2, 3, 5, 8, 13, 16, 17, 31, 33])('rebuilds the root of %i leaves from every range, and nothing else', (n) => {
    const leaves = data(n);
    const ref = new ReferenceTree(leaves);
    const root = ref.mth(0, n);
    const hashes = hashesOf(leaves);
    for (let from = 0; from < n; from++) {
      for (let to = from; to < n; to++) {
        const range = new CompactRange(from);
        for (let i = from; i <= to; i++) range.append(hashes[i]);
        const first = { leaf_index: from, audit_path: ref.path(from, 0, n) };
        const last = { leaf_index: to, audit_path: ref.path(to, 0, n) };
        expect(rootFromRange(n, range, first, last)).toEqual(root);
        // A leaf of the range altered changes the result.
        const altered = new CompactRange(from);
        for (let i = from; i <= to; i++) altered.append(i === to ? flip(hashes[i]) : hashes[i]);
        expect(rootFromRange(n, altered, first, last)?.equals(root)).toBeFalsy();
        // Without proofs only a range of the whole tree has a root.
        if (from > 0 || to < n - 1) expect(rootFromRange(n, range, null, null)).toBeNull();
        // Proof elements the root needs, altered, change the result.
        if (from > 0 || to < n - 1) {
          const bad = (p: typeof first) => ({ leaf_index: p.leaf_index, audit_path: p.audit_path.map((h) => flip(h, 3)) });
          expect(rootFromRange(n, range, bad(first), bad(last))?.equals(root) ?? false).toBe(false);
        }
      }
    }
  });

  it('a range starting at 0 folds to the reference root by itself', () => {
    const hashes = hashesOf(data(45));
    const range = new CompactRange(0);
    for (const h of hashes) range.append(h);
    expect(range.foldRoot()).toEqual(new ReferenceTree(data(45)).mth(0, 45));
    expect(rootFromRange(45, range, null, null)).toEqual(range.foldRoot());
  });
});

describe('MerkleFrontier', () => {
  it('reports each perfect subtree an append completes, with the reference hash', () => {
    const n = 70;
    const leaves = data(n);
    const ref = new ReferenceTree(leaves);
    const frontier = new MerkleFrontier();
    const seen = new Set<string>();
    hashesOf(leaves).forEach((h, i) => {
      const completed = frontier.append(h);
      for (const s of completed) {
        const width = 2 ** s.level;
        expect(s.level).toBeGreaterThanOrEqual(1);
        expect((s.index + 1) * width).toBe(i + 1);
        expect(s.hash).toEqual(ref.mth(s.index * width, (s.index + 1) * width));
        seen.add(`${s.level}:${s.index}`);
      }
      expect(frontier.subtrees().map((s) => s.hash)).toEqual(frontierNodes(i + 1).map((r) => ref.hashAt(r.level, r.index)));
    });
    // Every complete subtree of level ≥ 1 was reported exactly once.
    let expected = 0;
    for (let level = 1; 2 ** level <= n; level++) expected += Math.floor(n / 2 ** level);
    expect(seen.size).toBe(expected);
  });

  it('survives toJSON/fromJSON and a rebuild from stored subtrees, and goes on appending', () => {
    const leaves = data(50);
    const ref = new ReferenceTree(leaves);
    const hashes = hashesOf(leaves);
    const frontier = new MerkleFrontier();
    hashes.slice(0, 37).forEach((h) => frontier.append(h));
    const copy = MerkleFrontier.fromJSON(JSON.parse(JSON.stringify(frontier)));
    const rebuilt = MerkleFrontier.fromSubtrees(37, new ReferenceTree(leaves.slice(0, 37)).hashAt);
    for (const f of [copy, rebuilt]) {
      expect(f.size).toBe(37);
      expect(f.root()).toEqual(ref.mth(0, 37));
      hashes.slice(37).forEach((h) => f.append(h));
      expect(f.root()).toEqual(ref.mth(0, 50));
    }
    expect(() => MerkleFrontier.fromJSON({ size: 37, nodes: frontier.toJSON().nodes.slice(1) })).toThrow(RangeError);
    expect(() => MerkleFrontier.fromJSON({ size: 37, nodes: ['zz', ...frontier.toJSON().nodes.slice(1)] })).toThrow(RangeError);
    expect(new MerkleFrontier().root()).toEqual(EMPTY_ROOT);
  });
});
