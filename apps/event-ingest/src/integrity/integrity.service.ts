import { Inject, Injectable } from '@nestjs/common';
import {
  type Checkpoint,
  type CheckpointPage,
  type CheckpointsRequest,
  type ConsistencyProof,
  type ConsistencyProofRequest,
  type InclusionProof,
  type InclusionProofRequest,
  type IntegrityKey,
  IntegrityLimits,
  type LeavesPage,
  type LeavesRequest,
  restoreStoredEvent,
} from '@vigil/contracts';
import { consistencyProof, consistencyProofNodes, inclusionPath, inclusionPathNodes, type SubtreeRef } from '@vigil/integrity';
import { DomainException } from '@vigil/platform';
import { toEvent } from '../events/events.repository';
import { SigningKeys } from './signing-keys.service';
import { toCheckpoint, TreeRepository } from './tree.repository';

export enum IntegrityErrorCode {
  NoCheckpoint = 'checkpoint_not_found',
  EventNotFound = 'event_not_found',
  NotInTree = 'event_not_in_tree',
  InvalidRange = 'invalid_tree_range',
  TreeDamaged = 'tree_damaged',
}

/** Reads of the verifiable log: keys, checkpoints, proofs and leaves (docs/integrity.md#api). */
@Injectable()
export class IntegrityService {
  constructor(
    @Inject(TreeRepository) private readonly tree: TreeRepository,
    @Inject(SigningKeys) private readonly keys: SigningKeys,
  ) {}

  async listKeys(): Promise<{ data: IntegrityKey[] }> {
    return { data: await this.keys.list() };
  }

  rotateKey(): Promise<IntegrityKey> {
    return this.keys.rotate('on_demand');
  }

  async latestCheckpoint(): Promise<Checkpoint> {
    const row = await this.tree.latestCheckpoint();
    if (!row) throw new DomainException(404, IntegrityErrorCode.NoCheckpoint, 'No checkpoint has been signed yet.');
    return toCheckpoint(row);
  }

  async checkpoint(treeSize: number): Promise<Checkpoint> {
    const row = await this.tree.checkpoint(treeSize);
    if (!row) throw new DomainException(404, IntegrityErrorCode.NoCheckpoint, `No checkpoint of tree size ${treeSize}.`);
    return toCheckpoint(row);
  }

  async checkpoints(request: CheckpointsRequest): Promise<CheckpointPage> {
    const { rows, total } = await this.tree.checkpoints(request.page, request.per_page);
    return {
      data: rows.map(toCheckpoint),
      pagination: { total, page: request.page, per_page: request.per_page, has_more: request.page * request.per_page < total },
    };
  }

  /** Perfect subtree hashes the proof needs, read at once; a gap means the stored tree is damaged. */
  private async provider(refs: SubtreeRef[]): Promise<(level: number, index: number) => Buffer> {
    const found = await this.tree.subtrees(refs);
    return (level, index) => {
      const hash = found.get(`${level}/${index}`);
      if (!hash) throw new DomainException(409, IntegrityErrorCode.TreeDamaged, `The stored tree lacks subtree ${level}/${index}: it cannot serve this proof (run a verification job).`);
      return hash;
    };
  }

  /** Two round trips: the event, tree and checkpoint in one query; then the leaf's block and the nodes side by side. */
  async inclusionProof(request: InclusionProofRequest): Promise<InclusionProof> {
    const context = await this.tree.proofContext(request.event_id, request.tree_size);
    if (!context.checkpoint) {
      throw new DomainException(404, IntegrityErrorCode.NoCheckpoint, request.tree_size === undefined ? 'No checkpoint has been signed yet.' : `No checkpoint of tree size ${request.tree_size}.`);
    }
    const checkpoint = toCheckpoint(context.checkpoint);
    if (context.seq === null) throw DomainException.notFound('event', request.event_id, IntegrityErrorCode.EventNotFound);
    const leafIndex = context.seq - 1;
    if (leafIndex >= checkpoint.tree_size) {
      throw new DomainException(
        409,
        IntegrityErrorCode.NotInTree,
        `Event ${request.event_id} is leaf ${leafIndex}, not inside the checkpoint of ${checkpoint.tree_size} leaves; ask again once a newer checkpoint covers it.`,
      );
    }
    const refs = [{ level: 0, index: leafIndex }, ...inclusionPathNodes(leafIndex, checkpoint.tree_size)];
    const found = await this.tree.subtrees(refs, context.state);
    const hashAt = (level: number, index: number) => {
      const hash = found.get(`${level}/${index}`);
      if (!hash) throw new DomainException(409, IntegrityErrorCode.TreeDamaged, `The stored tree lacks subtree ${level}/${index}: it cannot serve this proof (run a verification job).`);
      return hash;
    };
    return {
      event_id: request.event_id,
      leaf_index: leafIndex,
      tree_size: checkpoint.tree_size,
      leaf_hash: hashAt(0, leafIndex).toString('hex'),
      audit_path: inclusionPath(leafIndex, checkpoint.tree_size, hashAt).map((h) => h.toString('hex')),
      checkpoint,
    };
  }

  async consistencyProof(request: ConsistencyProofRequest): Promise<ConsistencyProof> {
    if (request.first > request.second) {
      throw new DomainException(400, IntegrityErrorCode.InvalidRange, 'first must not be larger than second.', [{ field: 'first', message: 'must be at most second' }]);
    }
    // Both must be checkpointed sizes: a client proves against heads it can check the signature of.
    await this.checkpoint(request.first);
    await this.checkpoint(request.second);
    const hashAt = await this.provider(consistencyProofNodes(request.first, request.second));
    return {
      first: request.first,
      second: request.second,
      proof: consistencyProof(request.first, request.second, hashAt).map((h) => h.toString('hex')),
    };
  }

  async leaves(request: LeavesRequest): Promise<LeavesPage> {
    const limit = Math.min(Math.max(request.limit, 1), IntegrityLimits.maxLeavesPerPage);
    const state = await this.tree.state();
    const from = request.from;
    const to = Math.min(from + limit, state.treeSize);
    if (from >= to) return { data: [], next_from: null };
    const [hashes, rows, gaps] = await Promise.all([this.tree.leafHashes(from, to), this.tree.eventsBySeq(from + 1, to), this.tree.retainedGaps(from, to)]);
    // retained: false only where retention dropped the event; an event missing otherwise stays
    // retained: true with event null, which every verifier reports as missing.
    const dropped = (i: number) => gaps.some((g) => g.first_index <= i && i <= g.last_index);
    const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
    const data = [];
    for (let i = from; i < to; i++) {
      const row = bySeq.get(i + 1);
      data.push({
        leaf_index: i,
        leaf_hash: hashes.get(i)?.toString('hex') ?? '',
        event: row ? restoreStoredEvent(toEvent(row)) : null,
        retained: !!row || !dropped(i),
      });
    }
    return { data, next_from: to < state.treeSize ? to : null };
  }
}
