import type { TopicSpec } from '@vigil/contracts';
import type { IncomingMessage, MessageBus, SubscribeOptions, Subscription, TopicMessages } from './bus';

interface Entry {
  offset: number;
  message: IncomingMessage;
}

interface TopicLog {
  entries: Entry[];
  nextOffset: number;
}

interface Group {
  id: string;
  topics: string[];
  committed: Map<string, number>;
  wake: () => void;
  running: boolean;
}

interface Waiter {
  topic: string;
  offset: number;
  groups: Set<Group>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The standalone bus: an in-process log per topic with consumer groups and committed offsets.
 *
 * A publish resolves only after every consumer group subscribed to the topic has committed past
 * the message, that is after the consumer's database transaction. The outbox row is therefore
 * deleted only once its effects are durable, and a crash at any point loses nothing: undelivered
 * rows are still in the outbox at the next start.
 *
 * Retention differs from Kafka's: an entry is dropped once every group subscribed at that moment
 * has committed it (with no group subscribed, entries wait). A group that joins later starts at
 * the oldest retained entry, so it does not see what others already consumed; the standalone
 * launcher therefore subscribes every group (pause/resume) before anything is published.
 */
export class MemoryBus implements MessageBus {
  readonly kind = 'memory' as const;
  private readonly topics = new Map<string, TopicLog>();
  private readonly groups = new Map<string, Group>();
  private waiters: Waiter[] = [];
  private closed = false;
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  /**
   * Holds publishes until `resume()`: the standalone launcher starts every service's consumers
   * before any relay delivers, so no group joins after messages meant for it were trimmed.
   */
  pause(): void {
    this.gate ??= new Promise((resolve) => (this.openGate = resolve));
  }

  resume(): void {
    this.openGate?.();
    this.gate = undefined;
    this.openGate = undefined;
  }

  private log(topic: string): TopicLog {
    let log = this.topics.get(topic);
    if (!log) {
      log = { entries: [], nextOffset: 0 };
      this.topics.set(topic, log);
    }
    return log;
  }

  async publish(batches: TopicMessages[]): Promise<void> {
    if (this.closed) throw new Error('bus is closed');
    if (this.gate) await this.gate;
    const pending: Promise<void>[] = [];
    for (const { topic, messages } of batches) {
      const log = this.log(topic);
      for (const m of messages) {
        const offset = log.nextOffset++;
        log.entries.push({ offset, message: { topic, partition: 0, offset: String(offset), key: m.key, value: m.value, headers: { ...m.headers } } });
      }
      const last = log.nextOffset - 1;
      const groups = new Set([...this.groups.values()].filter((g) => g.topics.includes(topic)));
      if (groups.size) {
        pending.push(new Promise((resolve, reject) => this.waiters.push({ topic, offset: last, groups, resolve, reject })));
        for (const g of groups) g.wake();
      }
    }
    await Promise.all(pending);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.groups.has(options.groupId)) throw new Error(`group ${options.groupId} already consumes in this process`);
    let wake: () => void = () => undefined;
    const group: Group = {
      id: options.groupId,
      topics: options.topics,
      committed: new Map(
        options.topics.map((t) => [t, options.startFrom === 'latest' ? this.log(t).nextOffset : (this.log(t).entries[0]?.offset ?? this.log(t).nextOffset)]),
      ),
      wake: () => wake(),
      running: true,
    };
    this.groups.set(group.id, group);
    const maxBatch = options.maxBatchSize ?? 500;

    const loop = (async () => {
      while (group.running) {
        let worked = false;
        for (const topic of group.topics) {
          const log = this.log(topic);
          const from = group.committed.get(topic)!;
          const batch = log.entries.filter((e) => e.offset >= from).slice(0, maxBatch);
          if (!batch.length) continue;
          worked = true;
          try {
            await options.handler(batch.map((e) => e.message), { heartbeat: async () => undefined });
          } catch {
            // Not committed: the same batch comes again, as with Kafka.
            await new Promise((r) => setTimeout(r, 200));
            continue;
          }
          group.committed.set(topic, batch[batch.length - 1]!.offset + 1);
          this.settle(group, topic);
        }
        if (!worked && group.running) await new Promise<void>((resolve) => (wake = resolve));
      }
    })();

    return {
      stop: async () => {
        group.running = false;
        wake();
        await loop;
        this.groups.delete(group.id);
        // Publishers waiting only on this group are released: the message stays in the log.
        for (const w of this.waiters) w.groups.delete(group);
        this.flushWaiters();
      },
    };
  }

  private settle(group: Group, topic: string) {
    const committed = group.committed.get(topic)!;
    for (const w of this.waiters) if (w.topic === topic && committed > w.offset) w.groups.delete(group);
    this.flushWaiters();
    this.trim(topic);
  }

  private flushWaiters() {
    const done = this.waiters.filter((w) => w.groups.size === 0);
    this.waiters = this.waiters.filter((w) => w.groups.size > 0);
    for (const w of done) w.resolve();
  }

  /** Drops entries every current group has committed; with no group, entries wait. */
  private trim(topic: string) {
    const groups = [...this.groups.values()].filter((g) => g.topics.includes(topic));
    if (!groups.length) return;
    const min = Math.min(...groups.map((g) => g.committed.get(topic)!));
    const log = this.log(topic);
    const firstKept = log.entries.findIndex((e) => e.offset >= min);
    log.entries = firstKept === -1 ? [] : log.entries.slice(firstKept);
  }

  async ensureTopics(specs: readonly TopicSpec[]): Promise<void> {
    for (const spec of specs) this.log(spec.name);
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const g of this.groups.values()) {
      g.running = false;
      g.wake();
    }
    const error = new Error('bus closed before the message was consumed');
    for (const w of this.waiters) w.reject(error);
    this.waiters = [];
  }
}

let shared: MemoryBus | undefined;

/** The one in-process bus of a standalone process, shared by all its services. */
export function sharedMemoryBus(): MemoryBus {
  if (!shared || (shared as unknown as { closed: boolean }).closed) shared = new MemoryBus();
  return shared;
}
