import type { EventListItem } from '@vigil/contracts';
import { type ApiClient, type Query, sleep } from '../http/api-client.ts';
import { ApiError } from '../http/problem.ts';
import { CliError, ExitCode } from '../errors.ts';
import { SseParser } from './sse.ts';

/** The server sends a heartbeat at least every 15 s: this long without a byte means a dead link. */
const IDLE_TIMEOUT_MS = 45_000;
const MAX_BACKOFF_MS = 30_000;
const REMEMBERED_IDS = 1000;

export interface TailOptions {
  filters: Query;
  sinceId?: string;
  onEvent(event: EventListItem): void;
  onNotice(text: string): void;
  signal?: AbortSignal;
}

/**
 * Follows GET /v1/events/stream until stopped. After a dropped connection it reconnects with
 * `Last-Event-ID` set to the last event received, and the server replays what was stored since,
 * then continues live: nothing is missed. The ids of the latest events are remembered too, so an
 * event is never printed twice even if a replay overlapped. Refusals (bad filter, unknown
 * Last-Event-ID, authentication) end the command; network errors and 5xx are retried forever with
 * backoff (1 s doubling to 30 s, back to 1 s once a connection is accepted).
 */
export async function tailEvents(client: ApiClient, options: TailOptions): Promise<void> {
  let lastId = options.sinceId;
  const seen = new Set<string>();
  let failures = 0;
  let connectedBefore = false;
  while (!options.signal?.aborted) {
    const connection = new AbortController();
    const abort = () => connection.abort();
    options.signal?.addEventListener('abort', abort);
    let idle: NodeJS.Timeout | undefined;
    const resetIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(), IDLE_TIMEOUT_MS);
    };
    let reason = 'the stream ended';
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastId) headers['last-event-id'] = lastId;
      const response = await client.send('GET', '/v1/events/stream', { query: options.filters, headers, signal: connection.signal });
      options.onNotice(
        connectedBefore
          ? `vigil: reconnected${lastId ? ` (resuming after ${lastId})` : ''}`
          : `vigil: streaming events from ${client.baseUrl}${lastId ? ` after ${lastId}` : ''} (Ctrl-C to stop)`,
      );
      connectedBefore = true;
      failures = 0;
      resetIdle();
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        resetIdle();
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (message.event === 'error') {
            reason = `the server ended the stream: ${message.data}`;
            continue;
          }
          if (message.event === 'stream.closed') {
            // The credential expired or was revoked: the reconnect refreshes the access token, or
            // stops with the login error if the session is gone.
            reason = `the server ended the stream: ${message.data}`;
            continue;
          }
          const event = JSON.parse(message.data) as EventListItem;
          const id = message.id ?? event.id;
          lastId = id;
          if (seen.has(id)) continue;
          seen.add(id);
          if (seen.size > REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
          options.onEvent(event);
        }
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      if (error instanceof ApiError && error.exitCode !== ExitCode.other) throw error;
      if (error instanceof CliError && error.exitCode === ExitCode.auth) throw error;
      reason = connection.signal.aborted ? 'no data for 45 s' : (error as Error).message;
    } finally {
      clearTimeout(idle);
      options.signal?.removeEventListener('abort', abort);
    }
    if (options.signal?.aborted) return;
    const delay = Math.min(1000 * 2 ** failures, MAX_BACKOFF_MS);
    failures++;
    options.onNotice(`vigil: ${reason}; reconnecting in ${delay / 1000} s${lastId ? ` (resuming after ${lastId})` : ''}`);
    await sleep(delay, options.signal);
  }
}
