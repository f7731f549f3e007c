import type { AuditEvent, EventFilters, ReplayEventsRequest, ReplayEventsResponse } from '@vigil/contracts';
import { restoreStoredEvent } from '@vigil/contracts';
import type { Logger } from '@vigil/platform';
import { matchesFilters } from '../event-filters';
import type { StreamListener } from './event-stream.hub';

/** The writable side of one SSE response (express Response in production). */
export interface SseSink {
  /** False when the socket's buffer is full: wait for onDrain before writing more. */
  write(chunk: string): boolean;
  onDrain(listener: () => void): void;
  end(chunk?: string): void;
  destroy(): void;
}

export interface StreamSessionOptions {
  filters: EventFilters;
  /** The last sequence the client has (from Last-Event-ID), or undefined to start live. */
  after: bigint | undefined;
  /** Bytes a client may leave unread (held here while its socket is full) before it is disconnected. */
  maxBufferBytes: number;
  /** How long a disconnected slow client gets to read the final message before the socket is cut. */
  closeGraceMs: number;
  /** Live events held while the replay runs; beyond it the replay just reads further. */
  maxQueuedDuringReplay: number;
  replay(request: ReplayEventsRequest): Promise<ReplayEventsResponse>;
  position(): bigint;
  logger: Logger;
  onClose(reason: string): void;
}

/** One SSE message; an event stored escaped is restored to what its producer sent. */
export function sseFrame(event: AuditEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(restoreStoredEvent(event))}\n\n`;
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
  /** Frames waiting for the socket to drain, and their size. */
  private backlog: string[] = [];
  private backlogBytes = 0;
  private blocked = false;

  constructor(
    private readonly sink: SseSink,
    private readonly options: StreamSessionOptions,
  ) {
    this.sent = options.after ?? options.position();
    sink.onDrain(() => this.flush());
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
    this.send(sseFrame(event));
  }

  onHeartbeat(): void {
    if (this.mode === 'closed' || this.blocked) return; // a blocked stream needs no keep-alive
    this.send(`: heartbeat ${new Date().toISOString()}\n\n`);
  }

  /**
   * Writes while the socket takes data; once it is full, holds frames here up to maxBufferBytes.
   * A client that lets more pile up is disconnected: memory per stream stays bounded and one slow
   * reader never slows the hub or other streams.
   */
  private send(frame: string) {
    if (!this.blocked) {
      if (!this.sink.write(frame)) this.blocked = true;
      return;
    }
    this.backlog.push(frame);
    this.backlogBytes += Buffer.byteLength(frame);
    if (this.backlogBytes > this.options.maxBufferBytes) {
      this.close(
        'slow_consumer',
        `More than ${this.options.maxBufferBytes} bytes were left unread; reconnect with Last-Event-ID to resume after the last event you received.`,
      );
    }
  }

  private flush() {
    this.blocked = false;
    while (this.backlog.length && !this.blocked && this.mode !== 'closed') {
      const frame = this.backlog.shift()!;
      this.backlogBytes -= Buffer.byteLength(frame);
      if (!this.sink.write(frame)) this.blocked = true;
    }
  }

  /**
   * Ends the stream with a final message naming the reason, then cuts the connection: `event: error`
   * with `{code, detail}` for the server's reasons, `event: stream.closed` with `{reason, detail}`
   * when the stream's credential expired or was revoked (reconnecting with it is pointless).
   */
  close(code: string, detail: string, graceMs = this.options.closeGraceMs, event: 'error' | 'stream.closed' = 'error') {
    if (this.mode === 'closed') return;
    this.mode = 'closed';
    this.queue = [];
    // What was held back is dropped (the client resumes with Last-Event-ID); the final message
    // follows what the socket already has, so a reader that catches up sees why it was cut.
    this.backlog = [];
    this.backlogBytes = 0;
    this.options.onClose(code);
    const data = event === 'error' ? { code, detail } : { reason: code, detail };
    this.sink.end(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    // A reader that never catches up must not keep its socket: cut it after a grace period.
    setTimeout(() => this.sink.destroy(), graceMs).unref();
  }

  /** The client went away. */
  closed() {
    if (this.mode === 'closed') return;
    this.mode = 'closed';
    this.queue = [];
    this.backlog = [];
    this.options.onClose('client_closed');
  }

  get lastSent(): bigint {
    return this.sent;
  }
}
