/**
 * The Live page's memory: the newest events first, each id once (a resumed stream never shows an
 * event twice), at most `capacity` kept. Pure: the page renders `items` once per animation frame.
 */
export interface LiveItem {
  id: string;
}

export class LiveBuffer<T extends LiveItem> {
  private seen = new Set<string>();
  /** Newest first. */
  items: readonly T[] = [];
  /** Events received in total (duplicates excluded), including those no longer kept. */
  received = 0;
  duplicates = 0;

  constructor(private readonly capacity: number) {}

  /** Adds a batch (oldest first, as the stream sends them); returns how many were new. */
  add(batch: readonly T[]): number {
    const fresh: T[] = [];
    for (const item of batch) {
      if (this.seen.has(item.id)) {
        this.duplicates++;
        continue;
      }
      this.seen.add(item.id);
      fresh.push(item);
    }
    if (!fresh.length) return 0;
    this.received += fresh.length;
    const next = [...fresh.reverse(), ...this.items];
    if (next.length > this.capacity) {
      for (const dropped of next.splice(this.capacity)) this.seen.delete(dropped.id);
    }
    this.items = next;
    return fresh.length;
  }

  clear(): void {
    this.seen.clear();
    this.items = [];
    this.received = 0;
    this.duplicates = 0;
  }
}

/** The rows a virtualized list draws: those in view plus `overscan` on each side. */
export function visibleRange(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 10): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(viewportHeight / rowHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, first + inView + overscan) };
}
