import { Inject, Injectable } from '@nestjs/common';
import type { Checkpoint } from '@vigil/contracts';
import { rootFromLeaves } from '@vigil/integrity';
import { DataSource, type EntityManager } from 'typeorm';
import { type EventRow, FULL } from '../events/events.repository';
import { BLOCK_LEVEL, BLOCK_SIZE, HASH_BYTES } from './leaf';

export interface TreeState {
  treeSize: number;
  /** Leaf hashes of the incomplete last block. */
  tail: Buffer[];
}

export interface CheckpointRow {
  tree_size: string;
  root_hash: Buffer;
  timestamp: Date;
  key_id: string;
  signature: string;
  event_id: string;
  event_seq: string;
}

export function toCheckpoint(row: Pick<CheckpointRow, 'tree_size' | 'root_hash' | 'timestamp' | 'key_id' | 'signature'>): Checkpoint {
  return {
    tree_size: Number(row.tree_size),
    root_hash: row.root_hash.toString('hex'),
    timestamp: row.timestamp.toISOString(),
    key_id: row.key_id,
    signature: row.signature,
  };
}

export function splitHashes(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += HASH_BYTES) out.push(bytes.subarray(i, i + HASH_BYTES));
  return out;
}

/** A perfect subtree: `level` (0 = a leaf) and its index among the subtrees of that level. */
export interface SubtreeRef {
  level: number;
  index: number;
}

const CHECKPOINT_COLUMNS = `tree_size::text, root_hash, "timestamp", key_id, signature, event_id, event_seq::text`;

/** Database access for the Merkle tree of stored events (docs/integrity.md#storage); no business rules. */
@Injectable()
export class TreeRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async state(manager: EntityManager = this.dataSource.manager): Promise<TreeState> {
    const [row]: { tree_size: string; tail: Buffer }[] = await manager.query(`SELECT tree_size::text, tail FROM event_ingest.integrity_tree`);
    return { treeSize: Number(row!.tree_size), tail: splitHashes(row!.tail) };
  }

  /**
   * Stored leaf hashes and events from `afterSeq` on, in sequence order: the leaf hash and, for
   * events stored without one (before the log existed, or with INTEGRITY_LOG off), the row.
   */
  async leavesAfter(manager: EntityManager, afterSeq: number, limit: number): Promise<{ seq: number; leaf_hash: Buffer | null; row: EventRow | null }[]> {
    const rows: { seq: string; leaf_hash: Buffer | null }[] = await manager.query(
      `SELECT e.seq::text AS seq, e.leaf_hash FROM event_ingest.events e WHERE e.seq > $1::bigint ORDER BY e.seq LIMIT $2`,
      [afterSeq, limit],
    );
    const missing = rows.filter((r) => !r.leaf_hash).map((r) => r.seq);
    const full = new Map<string, EventRow>();
    if (missing.length) {
      const found: EventRow[] = await manager.query(`SELECT ${FULL} FROM event_ingest.events e WHERE e.seq = ANY($1::bigint[])`, [missing]);
      for (const row of found) full.set(row.seq, row);
    }
    return rows.map((r) => ({ seq: Number(r.seq), leaf_hash: r.leaf_hash, row: r.leaf_hash ? null : (full.get(r.seq) ?? null) }));
  }

  /** Appends complete blocks and nodes and moves the tree's size, in the builder's transaction. */
  async append(
    manager: EntityManager,
    change: { blocks: { block: number; hashes: Buffer }[]; nodes: { level: number; index: number; hash: Buffer }[]; treeSize: number; tail: Buffer[] },
  ): Promise<void> {
    if (change.blocks.length) {
      await manager.query(`INSERT INTO event_ingest.integrity_leaf_blocks (block, hashes) SELECT * FROM unnest($1::bigint[], $2::bytea[])`, [
        change.blocks.map((b) => b.block),
        change.blocks.map((b) => b.hashes),
      ]);
    }
    if (change.nodes.length) {
      await manager.query(`INSERT INTO event_ingest.integrity_nodes (level, idx, hash) SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::bytea[])`, [
        change.nodes.map((n) => n.level),
        change.nodes.map((n) => n.index),
        change.nodes.map((n) => n.hash),
      ]);
    }
    await manager.query(`UPDATE event_ingest.integrity_tree SET tree_size = $1, tail = $2, updated_at = now()`, [change.treeSize, Buffer.concat(change.tail)]);
  }

  async nodes(refs: SubtreeRef[], manager: EntityManager = this.dataSource.manager): Promise<Map<string, Buffer>> {
    if (!refs.length) return new Map();
    const rows: { level: number; idx: string; hash: Buffer }[] = await manager.query(
      `SELECT n.level, n.idx::text AS idx, n.hash FROM event_ingest.integrity_nodes n
       JOIN unnest($1::smallint[], $2::bigint[]) AS want(level, idx) ON want.level = n.level AND want.idx = n.idx`,
      [refs.map((r) => r.level), refs.map((r) => r.index)],
    );
    return new Map(rows.map((r) => [`${r.level}/${r.idx}`, r.hash]));
  }

  /** Complete blocks of leaf hashes, [from, to). */
  async blocks(from: number, to: number, manager: EntityManager = this.dataSource.manager): Promise<Map<number, Buffer[]>> {
    const rows: { block: string; hashes: Buffer }[] = await manager.query(
      `SELECT block::text, hashes FROM event_ingest.integrity_leaf_blocks b WHERE b.block >= $1 AND b.block < $2 ORDER BY b.block`,
      [from, to],
    );
    return new Map(rows.map((r) => [Number(r.block), splitHashes(r.hashes)]));
  }

  /**
   * The leaf hashes [from, to) of the built tree, from the complete blocks and the tail. Fewer
   * than asked only past the tree's size, or where a block is gone (tampering: callers check).
   */
  async leafHashes(from: number, to: number, manager: EntityManager = this.dataSource.manager): Promise<Map<number, Buffer>> {
    const state = await this.state(manager);
    const end = Math.min(to, state.treeSize);
    const out = new Map<number, Buffer>();
    if (from >= end) return out;
    const firstBlock = Math.floor(from / BLOCK_SIZE);
    const lastBlock = Math.floor((end - 1) / BLOCK_SIZE);
    const tailBlock = Math.floor(state.treeSize / BLOCK_SIZE);
    const blocks = await this.blocks(firstBlock, Math.min(lastBlock + 1, tailBlock), manager);
    if (lastBlock >= tailBlock) blocks.set(tailBlock, state.tail);
    for (let i = from; i < end; i++) {
      const hash = blocks.get(Math.floor(i / BLOCK_SIZE))?.[i % BLOCK_SIZE];
      if (hash) out.set(i, hash);
    }
    return out;
  }

  /**
   * Hashes of perfect subtrees inside the built tree: level 8 and above from the stored nodes,
   * below from the leaves of their block. One query for the nodes and one for the blocks, side by
   * side (a proof is latency-bound).
   */
  async subtrees(refs: SubtreeRef[], state?: TreeState, manager: EntityManager = this.dataSource.manager): Promise<Map<string, Buffer>> {
    const high = refs.filter((r) => r.level >= BLOCK_LEVEL);
    const low = refs.filter((r) => r.level < BLOCK_LEVEL);
    const current = state ?? (low.length ? await this.state(manager) : { treeSize: 0, tail: [] });
    const tailBlock = Math.floor(current.treeSize / BLOCK_SIZE);
    const wanted = [...new Set(low.map((r) => Math.floor((r.index * 2 ** r.level) / BLOCK_SIZE)))];
    const stored = wanted.filter((b) => b !== tailBlock);
    const [found, rows] = await Promise.all([
      this.nodes(high, manager),
      stored.length
        ? (manager.query(`SELECT b.block::text AS block, b.hashes FROM event_ingest.integrity_leaf_blocks b WHERE b.block = ANY($1::bigint[])`, [stored]) as Promise<{ block: string; hashes: Buffer }[]>)
        : Promise.resolve([]),
    ]);
    const leaves = new Map<number, Buffer[]>(rows.map((r) => [Number(r.block), splitHashes(r.hashes)]));
    if (wanted.includes(tailBlock)) leaves.set(tailBlock, current.tail);
    for (const r of low) {
      const first = r.index * 2 ** r.level;
      const block = leaves.get(Math.floor(first / BLOCK_SIZE));
      if (!block) continue;
      const slice = block.slice(first % BLOCK_SIZE, (first % BLOCK_SIZE) + 2 ** r.level);
      if (slice.length === 2 ** r.level) found.set(`${r.level}/${r.index}`, r.level === 0 ? slice[0]! : rootFromLeaves(slice));
    }
    return found;
  }

  /**
   * In one query: the sequence of an event, the built tree's state, and the checkpoint of
   * `treeSize` (the latest when omitted).
   */
  async proofContext(eventId: string, treeSize?: number): Promise<{ seq: number | null; state: TreeState; checkpoint: CheckpointRow | null }> {
    const [row]: (Partial<CheckpointRow> & { event_seq_of: string | null; built: string; tail: Buffer })[] = await this.dataSource.query(
      `SELECT (SELECT e.seq::text FROM event_ingest.events e WHERE e.id = $1 LIMIT 1) AS event_seq_of,
              t.tree_size::text AS built, t.tail, c.*
       FROM event_ingest.integrity_tree t
       LEFT JOIN LATERAL (
         SELECT ${CHECKPOINT_COLUMNS} FROM event_ingest.integrity_checkpoints c
         WHERE ($2::bigint IS NULL OR c.tree_size = $2::bigint) ORDER BY c.tree_size DESC LIMIT 1
       ) c ON true`,
      [eventId, treeSize ?? null],
    );
    const checkpoint = row!.tree_size
      ? { tree_size: row!.tree_size, root_hash: row!.root_hash!, timestamp: row!.timestamp!, key_id: row!.key_id!, signature: row!.signature!, event_id: row!.event_id!, event_seq: row!.event_seq! }
      : null;
    return {
      seq: row!.event_seq_of === null ? null : Number(row!.event_seq_of),
      state: { treeSize: Number(row!.built), tail: splitHashes(row!.tail) },
      checkpoint,
    };
  }

  async latestCheckpoint(manager: EntityManager = this.dataSource.manager): Promise<CheckpointRow | null> {
    const [row]: CheckpointRow[] = await manager.query(`SELECT ${CHECKPOINT_COLUMNS} FROM event_ingest.integrity_checkpoints c ORDER BY c.tree_size DESC LIMIT 1`);
    return row ?? null;
  }

  async checkpoint(treeSize: number): Promise<CheckpointRow | null> {
    const [row]: CheckpointRow[] = await this.dataSource.query(`SELECT ${CHECKPOINT_COLUMNS} FROM event_ingest.integrity_checkpoints WHERE tree_size = $1`, [treeSize]);
    return row ?? null;
  }

  /** Checkpoints up to a size, oldest first. */
  async checkpointsUpTo(treeSize: number): Promise<CheckpointRow[]> {
    return this.dataSource.query(`SELECT ${CHECKPOINT_COLUMNS} FROM event_ingest.integrity_checkpoints c WHERE c.tree_size <= $1 ORDER BY c.tree_size`, [treeSize]);
  }

  async checkpoints(page: number, perPage: number): Promise<{ rows: CheckpointRow[]; total: number }> {
    const rows: CheckpointRow[] = await this.dataSource.query(
      `SELECT ${CHECKPOINT_COLUMNS} FROM event_ingest.integrity_checkpoints c ORDER BY c.tree_size DESC LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    );
    const [count]: { n: string }[] = await this.dataSource.query(`SELECT count(*)::text AS n FROM event_ingest.integrity_checkpoints`);
    return { rows, total: Number(count!.n) };
  }

  async insertCheckpoint(manager: EntityManager, checkpoint: Checkpoint, event: { id: string; seq: string }): Promise<void> {
    await manager.query(
      `INSERT INTO event_ingest.integrity_checkpoints (tree_size, root_hash, "timestamp", key_id, signature, event_id, event_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [checkpoint.tree_size, Buffer.from(checkpoint.root_hash, 'hex'), checkpoint.timestamp, checkpoint.key_id, checkpoint.signature, event.id, event.seq],
    );
  }

  /** Stored events by sequence, [fromSeq, toSeq] (a tampered table may hold several for one). */
  async eventsBySeq(fromSeq: number, toSeq: number): Promise<EventRow[]> {
    return this.dataSource.query(`SELECT ${FULL} FROM event_ingest.events e WHERE e.seq >= $1::bigint AND e.seq <= $2::bigint ORDER BY e.seq`, [fromSeq, toSeq]);
  }

  async eventById(id: string): Promise<EventRow | null> {
    const [row]: EventRow[] = await this.dataSource.query(`SELECT ${FULL} FROM event_ingest.events e WHERE e.id = $1 LIMIT 1`, [id]);
    return row ?? null;
  }

  /** Leaf ranges whose events retention dropped, overlapping [from, to). */
  async retainedGaps(from: number, to: number): Promise<{ first_index: number; last_index: number; partition_name: string; setting: string; dropped_at: Date }[]> {
    const rows: { first_index: string; last_index: string; partition_name: string; setting: string; dropped_at: Date }[] = await this.dataSource.query(
      `SELECT first_index::text, last_index::text, partition_name, setting, dropped_at FROM event_ingest.integrity_retained_gaps
       g WHERE g.first_index < $2 AND g.last_index >= $1 ORDER BY g.first_index`,
      [from, to],
    );
    return rows.map((r) => ({ ...r, first_index: Number(r.first_index), last_index: Number(r.last_index) }));
  }
}
