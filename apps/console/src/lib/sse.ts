/**
 * A reader of `text/event-stream` (the HTML standard's event stream format) for a `fetch` response.
 * The console reads `GET /v1/events/stream` with `fetch` rather than `EventSource` because
 * `EventSource` cannot send the `Authorization` header, and the access token must not travel in the
 * address (it would land in logs and history). Resuming sends `Last-Event-ID` as a header.
 */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/** Incremental parser: feed it text as it arrives, it returns the messages completed so far. */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  /** The last `id:` field seen (kept across messages, as the standard's "last event ID buffer"). */
  lastEventId: string | undefined;
  /** The last `retry:` field, in milliseconds. */
  retry: number | undefined;

  feed(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    // Lines end with CRLF, LF or CR; a CR at the very end may be the first half of a CRLF.
    const lines = this.buffer.split(/\r\n|\n|\r(?!$)/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (this.data.length) {
          messages.push({ ...(this.id !== undefined ? { id: this.id } : {}), event: this.event || 'message', data: this.data.join('\n') });
        }
        this.data = [];
        this.event = '';
        this.id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id' && !value.includes('\u0000')) {
        this.id = value;
        this.lastEventId = value;
      } else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    }
    return messages;
  }
}

/**
 * Reads an event stream until it ends or `signal` aborts, handing each batch of messages to
 * `onMessages`. Throws what `fetch` or the body throws (an abort included).
 */
export async function readEventStream(body: ReadableStream<Uint8Array>, onMessages: (messages: SseMessage[], lastEventId: string | undefined) => void): Promise<void> {
  const parser = new SseParser();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const messages = parser.feed(decoder.decode(value, { stream: true }));
    if (messages.length) onMessages(messages, parser.lastEventId);
  }
}
