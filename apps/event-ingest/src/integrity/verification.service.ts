import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { StartVerificationRequest, Verification, VerificationFailure } from '@vigil/contracts';
import { ulid } from '@vigil/domain';
import { checkCheckpoint, type CheckpointPublicKey } from '@vigil/integrity';
import { CONFIG, DomainException, LOGGER, type Logger } from '@vigil/platform';
import { DataSource } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { toEvent } from '../events/events.repository';
import { BLOCK_SIZE, storedEventLeafHash } from './leaf';
import { SigningKeys } from './signing-keys.service';
import { StoredFrontier } from './tree-builder.service';
import { type CheckpointRow, toCheckpoint, TreeRepository } from './tree.repository';

export enum VerificationErrorCode {
  NotFound = 'verification_not_found',
  InvalidRange = 'invalid_verification_range',
}

interface JobRow {
  id: string;
  status: Verification['status'];
  tree_size: string;
  from_index: string;
  to_index: string;
  checked: string;
  total: string;
  first_failure: VerificationFailure | null;
  created_at: Date;
  finished_at: Date | null;
}

function toVerification(row: JobRow): Verification {
  return {
    id: row.id,
    status: row.status,
    tree_size: Number(row.tree_size),
    from_index: Number(row.from_index),
    to_index: Number(row.to_index),
    checked: Number(row.checked),
    total: Number(row.total),
    first_failure: row.first_failure,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at ? row.finished_at.toISOString() : null,
  };
}

const COLUMNS = `id, status, tree_size::text, from_index::text, to_index::text, checked::text, total::text, first_failure, created_at, finished_at`;
/** A job whose worker stopped renewing this long ago is taken over by another (or the next start). */
const LEASE_SECONDS = 60;
const ROOT_PASS_BLOCKS = 256;

/**
 * Server-side verification jobs (docs/integrity.md#verification-jobs). A job is a row: any replica
 * runs it under a lease it renews with each step of progress, so a job outlives the process that
 * started it. It checks, against the signed checkpoint of `tree_size`:
 * 1. every stored checkpoint up to it is signed by a published key valid at its time;
 * 2. the stored leaf hashes reproduce every one of those checkpoints' roots and every stored
 *    subtree node (the tree was not replaced or edited);
 * 3. every event in [from_index, to_index) is stored at its leaf's position with the leaf's hash.
 * It reports the first failure by position.
 */
@Injectable()
export class VerificationJobs implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(TreeRepository) private readonly tree: TreeRepository,
    @Inject(SigningKeys) private readonly keys: SigningKeys,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'integrity-verification' });
  }

  onApplicationBootstrap() {
    this.running = true;
    this.loop = this.run();
  }

  async beforeApplicationShutdown() {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  async start(request: StartVerificationRequest): Promise<Verification> {
    const checkpoint = request.tree_size === undefined ? await this.tree.latestCheckpoint() : await this.tree.checkpoint(request.tree_size);
    if (!checkpoint) {
      throw new DomainException(404, 'checkpoint_not_found', request.tree_size === undefined ? 'No checkpoint has been signed yet.' : `No checkpoint of tree size ${request.tree_size}.`);
    }
    const treeSize = Number(checkpoint.tree_size);
    const from = request.from_index ?? 0;
    const to = request.to_index ?? treeSize;
    if (to > treeSize || from >= to) {
      throw new DomainException(400, VerificationErrorCode.InvalidRange, `The range must satisfy 0 <= from_index < to_index <= tree_size (${treeSize}).`, [
        { field: to > treeSize ? 'to_index' : 'from_index', message: to > treeSize ? `must be at most the tree size ${treeSize}` : 'must be below to_index' },
      ]);
    }
    const [row]: JobRow[] = await this.dataSource.query(
      `INSERT INTO event_ingest.integrity_verifications (id, status, tree_size, from_index, to_index, total)
       VALUES ($1, 'running', $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [`ver_${ulid()}`, treeSize, from, to, to - from],
    );
    this.wake?.();
    return toVerification(row!);
  }

  async get(id: string): Promise<Verification> {
    const [row]: JobRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM event_ingest.integrity_verifications WHERE id = $1`, [id]);
    if (!row) throw DomainException.notFound('verification', id, VerificationErrorCode.NotFound);
    return toVerification(row);
  }

  private async run() {
    while (this.running) {
      let worked = false;
      try {
        worked = await this.runNext();
      } catch (error) {
        this.logger.error({ err: error }, 'verification job failed to run; it is retried');
      }
      if (worked || !this.running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** Claims and runs one job (from the start: checking is idempotent). Returns whether it found one. */
  async runNext(): Promise<boolean> {
    // An UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [[row]]: [JobRow[], number] = await this.dataSource.query(
      `UPDATE event_ingest.integrity_verifications SET lease_until = now() + interval '${LEASE_SECONDS} seconds', checked = 0, updated_at = now()
       WHERE id = (SELECT id FROM event_ingest.integrity_verifications
                   WHERE status = 'running' AND (lease_until IS NULL OR lease_until < now())
                   ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
    );
    if (!row) return false;
    const job = toVerification(row);
    const failure = await this.verify(job);
    await this.dataSource.query(
      `UPDATE event_ingest.integrity_verifications SET status = $2, first_failure = $3, checked = CASE WHEN $2 = 'passed' THEN total ELSE checked END,
         finished_at = now(), updated_at = now(), lease_until = NULL WHERE id = $1`,
      [job.id, failure ? 'failed' : 'passed', failure ? JSON.stringify(failure) : null],
    );
    this.logger.info({ id: job.id, status: failure ? 'failed' : 'passed', first_failure: failure }, 'verification finished');
    return true;
  }

  private async progress(id: string, checked: number) {
    await this.dataSource.query(
      `UPDATE event_ingest.integrity_verifications SET checked = $2, updated_at = now(), lease_until = now() + interval '${LEASE_SECONDS} seconds' WHERE id = $1`,
      [id, checked],
    );
  }

  /** The first failure of a job, or null when everything checks. */
  async verify(job: Pick<Verification, 'id' | 'tree_size' | 'from_index' | 'to_index'>): Promise<VerificationFailure | null> {
    const checkpoints = await this.tree.checkpointsUpTo(job.tree_size);
    const signatureFailure = await this.checkSignatures(checkpoints);
    if (signatureFailure) return signatureFailure;
    const treeFailure = await this.checkTree(job.tree_size, checkpoints);
    const until = treeFailure ? (treeFailure.until ?? treeFailure.leaf_index + 1) : undefined;
    const eventFailure = await this.checkEvents(job, until);
    if (!treeFailure) return eventFailure;
    // The events' check names an exact position; the tree's, the first leaf no signed root vouches
    // for. The exact one wins when it lies before the end of that stretch.
    if (eventFailure && eventFailure.leaf_index < until!) return eventFailure;
    return strip(treeFailure);
  }

  private async checkSignatures(checkpoints: CheckpointRow[]): Promise<VerificationFailure | null> {
    const keys: CheckpointPublicKey[] = (await this.keys.list()).map((k) => ({ ...k }));
    for (const row of checkpoints) {
      const result = checkCheckpoint(toCheckpoint(row), keys);
      if (!result.ok) {
        return { leaf_index: Math.max(Number(row.tree_size) - 1, 0), event_id: null, reason: 'bad_signature', detail: `checkpoint of tree size ${row.tree_size}: ${result.detail}` };
      }
    }
    return null;
  }

  /** Rebuilds the tree from the stored leaf hashes, comparing every checkpoint root and stored node. */
  private async checkTree(treeSize: number, checkpoints: CheckpointRow[]): Promise<(VerificationFailure & { until?: number }) | null> {
    const frontier = StoredFrontier.empty();
    let next = 0;
    let lastGood = 0;
    const blocksInTree = Math.floor(treeSize / BLOCK_SIZE);
    const state = await this.tree.state();
    for (let block = 0; block * BLOCK_SIZE < treeSize; block += ROOT_PASS_BLOCKS) {
      const end = Math.min(block + ROOT_PASS_BLOCKS, blocksInTree);
      const blocks = await this.tree.blocks(block, end);
      const out = { blocks: [] as { block: number; hashes: Buffer }[], nodes: [] as { level: number; index: number; hash: Buffer }[] };
      for (let b = block; b < block + ROOT_PASS_BLOCKS && b * BLOCK_SIZE < treeSize; b++) {
        let leaves = blocks.get(b);
        if (!leaves && b === Math.floor(state.treeSize / BLOCK_SIZE)) leaves = state.tail;
        const want = Math.min(BLOCK_SIZE, treeSize - b * BLOCK_SIZE);
        if (!leaves || leaves.length < want) {
          return { leaf_index: b * BLOCK_SIZE + (leaves?.length ?? 0), event_id: null, reason: 'missing', detail: `the stored tree lacks leaf hashes from ${b * BLOCK_SIZE + (leaves?.length ?? 0)} (it holds fewer than the checkpoint's ${treeSize})` };
        }
        for (const leaf of leaves.slice(0, want)) {
          frontier.append(leaf, out);
          next++;
          while (next === Number(checkpoints[0]?.tree_size)) {
            const cp = checkpoints.shift()!;
            if (!frontier.root().equals(cp.root_hash)) {
              return {
                leaf_index: lastGood,
                until: next,
                event_id: null,
                reason: 'root_mismatch',
                detail: `the stored leaves ${lastGood}..${next - 1} do not reproduce the signed root of the checkpoint of tree size ${next} (the last checkpoint that matches is of size ${lastGood})`,
              };
            }
            lastGood = next;
          }
        }
      }
      const stored = await this.tree.nodes(out.nodes);
      for (const node of out.nodes) {
        const hash = stored.get(`${node.level}/${node.index}`);
        if (!hash || !hash.equals(node.hash)) {
          const first = node.index * 2 ** node.level;
          return { leaf_index: first, until: first + 2 ** node.level, event_id: null, reason: 'root_mismatch', detail: `stored subtree ${node.level}/${node.index} (leaves ${first}..${first + 2 ** node.level - 1}) ${hash ? 'differs from its leaves' : 'is missing'}` };
        }
      }
    }
    return null;
  }

  private async checkEvents(job: Pick<Verification, 'id' | 'tree_size' | 'from_index' | 'to_index'>, stopAt?: number): Promise<VerificationFailure | null> {
    const batch = this.config.INTEGRITY_VERIFY_BATCH;
    const end = job.to_index;
    for (let from = job.from_index; from < end; from += batch) {
      const to = Math.min(from + batch, end);
      const [leaves, rows, gaps] = await Promise.all([this.tree.leafHashes(from, to), this.tree.eventsBySeq(from + 1, to), this.tree.retainedGaps(from, to)]);
      const bySeq = new Map<number, typeof rows>();
      for (const row of rows) bySeq.set(Number(row.seq), [...(bySeq.get(Number(row.seq)) ?? []), row]);
      const leafAt = new Map<string, number>();
      for (const [i, h] of leaves) leafAt.set(h.toString('hex'), i);
      for (let i = from; i < to; i++) {
        const leaf = leaves.get(i);
        const found = bySeq.get(i + 1) ?? [];
        if (!leaf) return { leaf_index: i, event_id: found[0]?.id ?? null, reason: 'missing', detail: `the stored tree lacks leaf ${i}` };
        if (!found.length) {
          if (gaps.some((g) => g.first_index <= i && i <= g.last_index)) continue;
          return { leaf_index: i, event_id: null, reason: 'missing', detail: `no stored event has sequence ${i + 1}, and retention did not drop it` };
        }
        const hashes = found.map((row) => storedEventLeafHash(toEvent(row)));
        const matching = hashes.findIndex((h) => h.equals(leaf));
        if (matching >= 0) {
          const extra = found.find((_, k) => k !== matching);
          if (extra) return { leaf_index: i, event_id: extra.id, reason: 'unexpected', detail: `event ${extra.id} also claims sequence ${i + 1} but is not that leaf` };
          continue;
        }
        const row = found[0]!;
        const elsewhere = leafAt.get(hashes[0]!.toString('hex')) ?? (await this.findLeaf(hashes[0]!, job.tree_size));
        if (elsewhere !== null && elsewhere !== i) {
          return { leaf_index: i, event_id: row.id, reason: 'reordered', detail: `event ${row.id} is stored at position ${i} but is leaf ${elsewhere}` };
        }
        return { leaf_index: i, event_id: row.id, reason: 'altered', detail: `event ${row.id} at position ${i} does not hash to its leaf: a field changed after it was stored` };
      }
      await this.progress(job.id, to - job.from_index);
      if (stopAt !== undefined && to >= stopAt) break; // past the tree's failure nothing can come first
    }
    return null;
  }

  /** The position of a leaf hash anywhere in the tree (only after a mismatch: reads every block). */
  private async findLeaf(hash: Buffer, treeSize: number): Promise<number | null> {
    for (let block = 0; block * BLOCK_SIZE < treeSize; block += ROOT_PASS_BLOCKS) {
      const hashes = await this.tree.leafHashes(block * BLOCK_SIZE, Math.min((block + ROOT_PASS_BLOCKS) * BLOCK_SIZE, treeSize));
      for (const [i, h] of hashes) if (h.equals(hash)) return i;
    }
    return null;
  }
}

function strip(failure: VerificationFailure & { until?: number }): VerificationFailure {
  const { until: _until, ...rest } = failure;
  return rest;
}
