import { EMPTY_ROOT, fromHex, nodeHash, toHex } from './hashes';
import type { Subtree, SubtreeHashes, SubtreeRef } from './merkle';

export interface MerkleFrontierJson {
  size: number;
  /** Hashes (lowercase hex) of the frontier's perfect subtrees, largest (leftmost) first. */
  nodes: string[];
}

const NONE: readonly Subtree[] = Object.freeze([]);

/**
 * The perfect subtrees the frontier of a tree of `size` leaves is made of, left to right: one per
 * set bit of `size`, largest first. Storage that keeps subtree hashes can rebuild a frontier
 * from these (MerkleFrontier.fromSubtrees).
 */
export function frontierNodes(size: number): SubtreeRef[] {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
  const nodes: SubtreeRef[] = [];
  let start = 0;
  for (let level = Math.floor(Math.log2(Math.max(size, 1))); level >= 0; level--) {
    const width = 2 ** level;
    if (size - start >= width) {
      nodes.push({ level, index: start / width });
      start += width;
    }
  }
  return nodes;
}

/**
 * The right edge of an append-only Merkle tree (RFC 9162 hashing): the hashes of the perfect
 * subtrees that make up the tree so far, one per set bit of its size. That is all appending and
 * the root need, so the writer keeps O(log n) hashes, never the leaves.
 */
export class MerkleFrontier {
  private count = 0;
  /** Perfect subtree hashes, largest (leftmost) first; their sizes are the set bits of `count`. */
  private readonly stack: Buffer[] = [];

  get size(): number {
    return this.count;
  }

  /**
   * Adds leaf number `size` (0-based) and returns the perfect subtrees of level ≥ 1 this append
   * completed, lowest first (none for an even leaf index; the leaf itself is `(0, size - 1)`).
   * Storage persists those it wants to serve proofs from (see subtree `hashAt` providers).
   */
  append(leafHash: Buffer): readonly Subtree[] {
    if (leafHash.length !== 32) throw new RangeError('append: a leaf hash is 32 bytes');
    const index = this.count;
    this.count++;
    let h = leafHash;
    // Each trailing 1 bit of the old size is a subtree of that level now completed by a sibling.
    let bits = index;
    let completed: Subtree[] | undefined;
    let level = 0;
    while (bits % 2 === 1) {
      h = nodeHash(this.stack.pop() as Buffer, h);
      level++;
      (completed ??= []).push({ level, index: Math.floor(index / 2 ** level), hash: h });
      bits = Math.floor(bits / 2);
    }
    this.stack.push(h);
    return completed ?? NONE;
  }

  /** MTH of the tree so far (SHA-256 of "" when empty). */
  root(): Buffer {
    if (this.stack.length === 0) return EMPTY_ROOT;
    let r = this.stack[this.stack.length - 1];
    for (let i = this.stack.length - 2; i >= 0; i--) r = nodeHash(this.stack[i], r);
    return r;
  }

  /** The frontier's perfect subtrees with their positions, largest first. */
  subtrees(): Subtree[] {
    return frontierNodes(this.count).map((ref, i) => ({ ...ref, hash: this.stack[i] }));
  }

  clone(): MerkleFrontier {
    return MerkleFrontier.restore(this.count, this.stack.slice());
  }

  toJSON(): MerkleFrontierJson {
    return { size: this.count, nodes: this.stack.map(toHex) };
  }

  static fromJSON(json: MerkleFrontierJson): MerkleFrontier {
    if (!json || typeof json !== 'object' || !Array.isArray(json.nodes)) throw new TypeError('MerkleFrontier.fromJSON: expected { size, nodes }');
    const expected = frontierNodes(json.size).length;
    if (json.nodes.length !== expected) throw new RangeError(`MerkleFrontier.fromJSON: a tree of ${json.size} leaves has ${expected} frontier nodes, got ${json.nodes.length}`);
    return MerkleFrontier.restore(json.size, json.nodes.map(fromHex));
  }

  /** The frontier of a tree of `size` leaves from stored perfect subtree hashes (see frontierNodes). */
  static fromSubtrees(size: number, hashAt: SubtreeHashes): MerkleFrontier {
    return MerkleFrontier.restore(size, frontierNodes(size).map((n) => hashAt(n.level, n.index)));
  }

  private static restore(size: number, stack: Buffer[]): MerkleFrontier {
    const frontier = new MerkleFrontier();
    frontier.count = size;
    frontier.stack.push(...stack);
    return frontier;
  }
}
