/** One Server-Sent Events message (the fields Vigil's stream uses). */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * An incremental parser of the `text/event-stream` format: feed it decoded text in chunks of any
 * size, it returns the messages completed so far. Comment lines (`: heartbeat`) count as activity
 * but produce no message; `retry:` is ignored (the CLI has its own reconnect policy).
 */
export class SseParser {
  private buffer = '';
  private id: string | undefined;
  private event = '';
  private data: string[] = [];

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      if (!this.data.length) {
        this.event = '';
        return undefined;
      }
      const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
      if (this.id !== undefined) message.id = this.id;
      this.event = '';
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}
