import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@vigil/platform';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { publishedEvent, type RelayableEvent, type StoredEvent } from './events.repository';

/**
 * Events this process committed recently, by sequence, so the relay can publish them without
 * reading them back from the events table. Only committed events enter (`IngestService` adds them
 * after commit), and sequences are unique among committed events, so a run of consecutive
 * sequences found here is exactly what the table holds for that range. Anything missing (another
 * replica stored it, the window overflowed, the process restarted) is read from the table as
 * before: the table stays the outbox and the only source of truth; this is a read-back saving.
 */
@Injectable()
export class CommittedEvents {
  private readonly bySeq = new Map<string, RelayableEvent>();
  private readonly capacity: number;

  constructor(@Inject(CONFIG) config: Pick<EventIngestConfig, 'EVENTS_RELAY_BATCH'>) {
    this.capacity = config.EVENTS_RELAY_BATCH * 5;
  }

  /** Called after the transaction that stored `events` has committed. */
  add(events: StoredEvent[], trace?: Record<string, string>): void {
    for (const event of events) {
      this.bySeq.set(event.seq, { seq: event.seq, event: publishedEvent(event), correlationId: event.correlation_id, trace });
    }
    // Oldest first out: the relay falls back to the table for what is dropped.
    for (const seq of this.bySeq.keys()) {
      if (this.bySeq.size <= this.capacity) break;
      this.bySeq.delete(seq);
    }
  }

  /** The consecutive run of events after `after` (at most `limit`), possibly empty. */
  take(after: string, limit: number): RelayableEvent[] {
    const run: RelayableEvent[] = [];
    let next = BigInt(after) + 1n;
    while (run.length < limit) {
      const found = this.bySeq.get(String(next));
      if (!found) break;
      run.push(found);
      next++;
    }
    return run;
  }

  /** Drops everything up to and including `upTo` (published). */
  forget(upTo: string): void {
    const mark = BigInt(upTo);
    for (const seq of this.bySeq.keys()) {
      if (BigInt(seq) > mark) break;
      this.bySeq.delete(seq);
    }
  }

  get size(): number {
    return this.bySeq.size;
  }
}
