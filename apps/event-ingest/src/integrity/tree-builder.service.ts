import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Checkpoint } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { nodeHash, rootFromLeaves, signCheckpoint } from '@vigil/integrity';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import { afterCommit } from '@vigil/database';
import { DataSource, type EntityManager } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { CommittedEvents } from '../events/committed-events';
import { EVENTS_RELAY_CHANNEL } from '../events/events.relay';
import { EventsRepository, type StoredEvent, toEvent } from '../events/events.repository';
import { CommittedLeaves } from './committed-leaves';
import { BLOCK_LEVEL, BLOCK_SIZE, storedEventLeafHash } from './leaf';
import { KEYS_LOCK, SigningKeys } from './signing-keys.service';
import { TreeRepository } from './tree.repository';

const LOCK = `hashtext('vigil:integrity-tree')`;
/** How often the builder looks for new events when nothing wakes it. */
const POLL_MS = 250;

/**
 * The right edge of the tree: the complete subtrees of level >= 8 that are still left children
 * (one per set bit of size / 256, largest first) and the leaves of the incomplete last block.
 */
export class StoredFrontier {
  constructor(
    public size: number,
    public nodes: { level: number; hash: Buffer }[],
    public tail: Buffer[],
  ) {}

  static empty(): StoredFrontier {
    return new StoredFrontier(0, [], []);
  }

  clone(): StoredFrontier {
    return new StoredFrontier(this.size, [...this.nodes], [...this.tail]);
  }

  /** The subtrees of level >= 8 a tree of `size` leaves is made of, largest first. */
  static nodeRefs(size: number): { level: number; index: number }[] {
    const refs: { level: number; index: number }[] = [];
    let start = 0;
    for (let level = 62; level >= BLOCK_LEVEL; level--) {
      const width = 2 ** level;
      if (size - start >= width) {
        refs.push({ level, index: start / width });
        start += width;
      }
    }
    return refs;
  }

  /**
   * Appends one leaf; returns the complete block and the subtree nodes (level >= 8) it finished,
   * for storage.
   */
  append(leaf: Buffer, out: { blocks: { block: number; hashes: Buffer }[]; nodes: { level: number; index: number; hash: Buffer }[] }): void {
    this.tail.push(leaf);
    this.size++;
    if (this.tail.length < BLOCK_SIZE) return;
    const block = this.size / BLOCK_SIZE - 1;
    out.blocks.push({ block, hashes: Buffer.concat(this.tail) });
    let hash = rootFromLeaves(this.tail);
    let level = BLOCK_LEVEL;
    let index = block;
    this.tail = [];
    out.nodes.push({ level, index, hash });
    while (this.nodes.length && this.nodes[this.nodes.length - 1]!.level === level) {
      const left = this.nodes.pop()!;
      hash = nodeHash(left.hash, hash);
      level++;
      index = Math.floor(index / 2);
      out.nodes.push({ level, index, hash });
    }
    this.nodes.push({ level, hash });
  }

  /** RFC 9162 root of the tree so far. */
  root(): Buffer {
    const parts = this.nodes.map((n) => n.hash);
    if (this.tail.length) parts.push(rootFromLeaves(this.tail));
    if (!parts.length) return rootFromLeaves([]);
    let hash = parts[parts.length - 1]!;
    for (let i = parts.length - 2; i >= 0; i--) hash = nodeHash(parts[i]!, hash);
    return hash;
  }
}

/**
 * Appends stored events to the Merkle tree in sequence order after they commit, and signs
 * checkpoints (docs/integrity.md#storage, #checkpoints-and-keys). One builder per installation
 * works at a time (advisory lock, like the audit.events.v1 relay); ingestion never waits for it.
 * Everything it writes for a batch (blocks, nodes, the new size and tail) commits together, so a
 * crash anywhere resumes from the last committed size with no gap.
 */
@Injectable()
export class TreeBuilder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private frontier: StoredFrontier | undefined;
  private readonly logger: Logger;
  private lastRotationCheck = 0;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(TreeRepository) private readonly tree: TreeRepository,
    @Inject(EventsRepository) private readonly events: EventsRepository,
    @Inject(CommittedEvents) private readonly committed: CommittedEvents,
    @Inject(SigningKeys) private readonly keys: SigningKeys,
    @Inject(CommittedLeaves) private readonly leaves: CommittedLeaves,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'integrity-tree' });
  }

  onApplicationBootstrap() {
    if (!this.config.INTEGRITY_LOG) {
      this.logger.warn('INTEGRITY_LOG is off: no leaves, tree or checkpoints are made while it stays off');
      return;
    }
    this.running = true;
    this.loop = this.run();
  }

  async beforeApplicationShutdown() {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Wakes the builder now (after a commit). */
  nudge() {
    this.wake?.();
  }

  private async run() {
    let backoff = 0;
    while (this.running) {
      try {
        const appended = await this.step();
        backoff = 0;
        if (appended > 0) continue;
      } catch (error) {
        this.frontier = undefined;
        backoff = Math.min(backoff ? backoff * 2 : 250, 10_000);
        this.logger.error({ err: error, retry_ms: backoff }, 'building the event log failed; will retry');
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** One turn: append what committed, then checkpoint if one is due. Returns leaves appended. */
  async step(now = () => new Date()): Promise<number> {
    if (Date.now() - this.lastRotationCheck > 60_000) {
      this.lastRotationCheck = Date.now();
      await this.keys.rotateIfDue();
    }
    const appended = await this.buildOnce();
    await this.checkpointIfDue(now());
    return appended;
  }

  private async loadFrontier(manager: EntityManager): Promise<StoredFrontier> {
    const state = await this.tree.state(manager);
    if (this.frontier && this.frontier.size === state.treeSize) return this.frontier;
    const refs = StoredFrontier.nodeRefs(state.treeSize);
    const found = await this.tree.nodes(refs, manager);
    const nodes = refs.map((r) => {
      const hash = found.get(`${r.level}/${r.index}`);
      if (!hash) throw new Error(`stored tree is missing node ${r.level}/${r.index} of size ${state.treeSize}`);
      return { level: r.level, hash };
    });
    this.frontier = new StoredFrontier(state.treeSize, nodes, state.tail);
    return this.frontier;
  }

  /** Appends the next committed events (at most up to the next forced checkpoint). */
  async buildOnce(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(${LOCK}) AS locked`);
      if (!locked) return 0;
      const current = await this.loadFrontier(manager);
      const last = await this.tree.latestCheckpoint(manager);
      const cap = (last ? Number(last.tree_size) : 0) + this.config.INTEGRITY_CHECKPOINT_MAX_EVENTS - current.size;
      const limit = Math.min(this.config.INTEGRITY_BUILD_BATCH, cap);
      if (limit <= 0) return 0;
      const next = current.clone();
      const out = { blocks: [] as { block: number; hashes: Buffer }[], nodes: [] as { level: number; index: number; hash: Buffer }[] };
      // Events this process committed come from memory; the table is read for anything else.
      const cached = this.leaves.take(current.size, limit);
      for (const hash of cached) next.append(hash, out);
      const rows = cached.length ? [] : await this.tree.leavesAfter(manager, current.size, limit);
      for (const row of rows) {
        if (row.seq !== next.size + 1) {
          // Sequences commit in order, so a hole is an event removed before the tree took it.
          this.logger.error({ expected_seq: next.size + 1, found_seq: row.seq }, 'stored events have a gap in their sequence; the tree stops before it');
          break;
        }
        const hash = row.leaf_hash ?? (row.row ? storedEventLeafHash(toEvent(row.row)) : null);
        if (!hash) break;
        next.append(hash, out);
      }
      if (next.size === current.size) return 0;
      await this.tree.append(manager, { ...out, treeSize: next.size, tail: next.tail });
      afterCommit(manager, () => {
        this.frontier = next;
        this.leaves.forget(next.size);
      });
      this.frontier = undefined; // until the commit is known
      return next.size - current.size;
    });
  }

  /**
   * Signs a checkpoint of the built tree when one is due: INTEGRITY_CHECKPOINT_MAX_EVENTS leaves
   * since the last, or INTEGRITY_CHECKPOINT_INTERVAL_MS since the last with new events other than
   * that checkpoint's own event. The checkpoint is stored with its `audit.checkpoint` event in one
   * transaction.
   */
  async checkpointIfDue(now: Date, force = false): Promise<Checkpoint | null> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query(`SELECT pg_try_advisory_xact_lock(${LOCK}) AS locked`);
      if (!locked) return null;
      const frontier = await this.loadFrontier(manager);
      const last = await this.tree.latestCheckpoint(manager);
      const lastSize = last ? Number(last.tree_size) : 0;
      if (frontier.size === 0 || frontier.size === lastSize) return null;
      // The previous checkpoint's own event alone does not call for another checkpoint.
      const ownEvent = last && Number(last.event_seq) <= frontier.size ? 1 : 0;
      const fresh = frontier.size - lastSize - ownEvent;
      const due =
        force ||
        !last ||
        frontier.size - lastSize >= this.config.INTEGRITY_CHECKPOINT_MAX_EVENTS ||
        (fresh > 0 && now.getTime() - last.timestamp.getTime() >= this.config.INTEGRITY_CHECKPOINT_INTERVAL_MS);
      if (!due || (fresh <= 0 && !force)) return null;
      // The key and the time are read under the keys' shared lock, by the database clock that
      // dates key validity: the checkpoint falls inside its key's validity.
      await manager.query(`SELECT pg_advisory_xact_lock_shared(${KEYS_LOCK})`);
      const key = await this.keys.signingKey(manager);
      const [{ at }]: { at: Date }[] = await manager.query(`SELECT clock_timestamp() AS at`);
      const fields = { tree_size: frontier.size, root_hash: frontier.root().toString('hex'), timestamp: at.toISOString(), key_id: key.keyId };
      const checkpoint: Checkpoint = signCheckpoint(fields, key.privateKey);
      const event = await this.storeCheckpointEvent(manager, checkpoint, at);
      await this.tree.insertCheckpoint(manager, checkpoint, event);
      return checkpoint;
    });
  }

  /** The checkpoint as an `audit.checkpoint` event: a leaf of a later tree, published like any event. */
  private async storeCheckpointEvent(manager: EntityManager, checkpoint: Checkpoint, now: Date): Promise<StoredEvent> {
    const at = now.toISOString();
    const event: StoredEvent = {
      id: newId('event'),
      type: 'audit.checkpoint',
      severity: 'info',
      database_id: 'vigil',
      timestamp: at,
      processed_at: at,
      details: { ...checkpoint } as StoredEvent['details'],
      context: { policy_id: null, rule_id: null, risk_score: 0 },
      producer_id: null,
      seq: '0',
      operation: null,
      correlation_id: null,
    };
    event.leaf_hash = storedEventLeafHash(event);
    const first = await this.events.reserveSequence(manager, 1);
    event.seq = String(first);
    await this.events.insertMany(manager, [event]);
    await this.events.addCounts(manager, [event]);
    await manager.query('SELECT pg_notify($1, $2)', [EVENTS_RELAY_CHANNEL, '']);
    afterCommit(manager, () => {
      this.committed.add([event]);
      this.leaves.add([event]);
      this.nudge();
    });
    return event;
  }
}
