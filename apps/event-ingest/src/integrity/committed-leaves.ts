import { Injectable } from '@nestjs/common';

/** At most this many leaf hashes wait here for the tree builder; past it the table is read. */
const CAPACITY = 100_000;

/**
 * Leaf hashes of events this process committed recently, by sequence, so the tree builder can
 * append them without reading them back from the events table (as CommittedEvents does for the
 * relay). Only committed events enter (added after commit) and sequences are unique among
 * committed events, so a run of consecutive sequences found here is exactly what the table holds
 * for that range. Anything missing (another replica stored it, the window overflowed, a restart)
 * is read from the table: the table stays the only source of truth.
 */
@Injectable()
export class CommittedLeaves {
  private readonly bySeq = new Map<number, Buffer>();
  /** Everything up to here was forgotten (the tree took it). */
  private floor = 0;

  /** Called after the transaction that stored these events has committed. */
  add(events: { seq: string; leaf_hash?: Buffer | null }[]): void {
    for (const event of events) if (event.leaf_hash && Number(event.seq) > this.floor) this.bySeq.set(Number(event.seq), event.leaf_hash);
    for (const seq of this.bySeq.keys()) {
      if (this.bySeq.size <= CAPACITY) break;
      this.bySeq.delete(seq);
    }
  }

  /** The leaf hashes of the consecutive run of sequences after `after` (at most `limit`). */
  take(after: number, limit: number): Buffer[] {
    const run: Buffer[] = [];
    for (let seq = after + 1; run.length < limit; seq++) {
      const hash = this.bySeq.get(seq);
      if (!hash) break;
      run.push(hash);
    }
    return run;
  }

  /** Drops everything up to and including `upTo` (in the tree). */
  forget(upTo: number): void {
    if (upTo <= this.floor) return;
    if (upTo - this.floor > this.bySeq.size) {
      for (const seq of [...this.bySeq.keys()]) if (seq <= upTo) this.bySeq.delete(seq);
    } else {
      for (let seq = this.floor + 1; seq <= upTo; seq++) this.bySeq.delete(seq);
    }
    this.floor = upTo;
  }
}
