import type { AuditEvent, EventFilters, ReplayEventsRequest, ReplayEventsResponse } from '@vigil/contracts';
import type { Logger } from '@vigil/platform';
import { matchesFilters } from '../event-filters';
import type { StreamListener } from './event-stream.hub';

/** The writable side of one SSE response (express Response in production). */
export interface SseSink {
  write(chunk: string): boolean;
  end(chunk?: string): void;
  destroy(): void;
  /** Bytes accepted by write() but not yet handed to the socket. */
  readonly writableLength: number;
}

export interface StreamSessionOptions {
  filters: EventFilters;
  /** The last sequence the client has (from Last-Event-ID), or undefined to start live. */
  after: bigint | undefined;
  /** Bytes a client may leave unread before it is disconnected. */
  maxBufferBytes: number;
  /** Live events held while the replay runs; beyond it the replay just reads further. */
  maxQueuedDuringReplay: number;
  replay(request: ReplayEventsRequest): Promise<ReplayEventsResponse>;
  position(): bigint;
  logger: Logger;
  onClose(reason: string): void;
}

export function sseFrame(event: AuditEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * One client's stream. A resumed stream first replays stored events after Last-Event-ID from
 * the database up to the hub's position, holding live events meanwhile; then it sends the held
 * events and goes live. `sent` (the last sequence written) drops anything at or below it, so
 * replay and live never overlap and never leave a hole.
 */
export class StreamSession implements StreamListener {
  private sent: bigint;
  private mode: 'replay' | 'live' | 'closed' = 'replay';
  private queue: { seq: bigint; event: AuditEvent }[] = [];
  private overflowed = false;

  constructor(
    private readonly sink: SseSink,
    private readonly options: StreamSessionOptions,
  ) {
    this.sent = options.after ?? options.position();
  }

  /** Runs the replay (if any) and switches to live; the hub must already deliver to this session. */
  async start(): Promise<void> {
    this.sink.write(`retry: 2000\n: connected\n\n`);
    try {
      for (;;) {
        const target = this.options.position();
        await this.replayUpTo(target);
        if (this.mode === 'closed') return;
        if (!this.overflowed) break;
        // Live events came faster than the replay read: forget them and read further.
        this.overflowed = false;
        this.queue = [];
      }
      const held = this.queue;
      this.queue = [];
      this.mode = 'live';
      for (const { seq, event } of held) this.deliver(seq, event);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'stream replay failed');
      this.close('replay_failed', 'The stored events could not be read; reconnect with Last-Event-ID to resume.');
    }
  }

  private async replayUpTo(target: bigint) {
    while (this.sent < target && this.mode !== 'closed') {
      const page = await this.options.replay({ after_seq: String(this.sent), until_seq: String(target), filters: this.options.filters, limit: 500 });
      for (const { seq, event } of page.events) this.write(BigInt(seq), event);
      // Filtered-out events between the last match and scanned_to count as seen.
      const scanned = BigInt(page.scanned_to);
      if (scanned > this.sent) this.sent = scanned;
      if (page.done) {
        this.sent = target > this.sent ? target : this.sent;
        return;
      }
    }
  }

  onEvent(seq: bigint, event: AuditEvent): void {
    if (this.mode === 'closed') return;
    if (this.mode === 'replay') {
      if (this.overflowed) return;
      this.queue.push({ seq, event });
      if (this.queue.length > this.options.maxQueuedDuringReplay) {
        this.overflowed = true;
        this.queue = [];
      }
      return;
    }
    this.deliver(seq, event);
  }

  private deliver(seq: bigint, event: AuditEvent) {
    if (seq <= this.sent) return;
    this.sent = seq;
    if (matchesFilters(event, this.options.filters)) this.write(seq, event);
  }

  private write(seq: bigint, event: AuditEvent) {
    if (this.mode === 'closed') return;
    if (seq > this.sent) this.sent = seq;
    this.sink.write(sseFrame(event));
    this.checkBuffer();
  }

  onHeartbeat(): void {
    if (this.mode === 'closed') return;
    this.sink.write(`: heartbeat ${new Date().toISOString()}\n\n`);
    this.checkBuffer();
  }

  private checkBuffer() {
    if (this.sink.writableLength > this.options.maxBufferBytes) {
      this.close(
        'slow_consumer',
        `More than ${this.options.maxBufferBytes} bytes were left unread; reconnect with Last-Event-ID to resume where you stopped.`,
      );
    }
  }

  /** Ends the stream with a final `error` message naming the reason, then cuts the connection. */
  close(code: string, detail: string) {
    if (this.mode === 'closed') return;
    this.mode = 'closed';
    this.queue = [];
    this.options.onClose(code);
    this.sink.end(`event: error\ndata: ${JSON.stringify({ code, detail })}\n\n`);
    // A reader that has stopped never drains the buffer: do not keep its socket and memory.
    setTimeout(() => this.sink.destroy(), 2000).unref();
  }

  /** The client went away. */
  closed() {
    if (this.mode === 'closed') return;
    this.mode = 'closed';
    this.queue = [];
    this.options.onClose('client_closed');
  }

  get lastSent(): bigint {
    return this.sent;
  }
}
