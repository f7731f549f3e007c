import type { IncomingMessage, Server, ServerResponse } from 'node:http';

interface Step {
  name: string;
  since: number;
  detail?: () => unknown;
}

/**
 * What a service's stop is waiting on, step by step (the service's own: requests in flight, the
 * module hooks; and what modules record inside them: consumers, the outbox relay, the bus, the
 * pool). When the stop does not finish within SHUTDOWN_TIMEOUT_MS, the steps still pending are
 * what the error names.
 */
export class ShutdownProgress {
  private readonly pending = new Set<Step>();

  /** Runs `work` as the named step; `detail` describes its state if the stop runs out of time in it. */
  async step<T>(name: string, work: () => Promise<T> | T, detail?: () => unknown): Promise<T> {
    const step: Step = { name, since: Date.now(), detail };
    this.pending.add(step);
    try {
      return await work();
    } finally {
      this.pending.delete(step);
    }
  }

  /** The steps not finished, oldest first, with how long each has waited. */
  report(): { step: string; waiting_ms: number; detail?: unknown }[] {
    const now = Date.now();
    return [...this.pending].map((s) => {
      let detail: unknown;
      try {
        detail = s.detail?.();
      } catch (error) {
        detail = `unavailable: ${(error as Error).message}`;
      }
      return { step: s.name, waiting_ms: now - s.since, ...(detail === undefined ? {} : { detail }) };
    });
  }
}

/** The stop did not finish within SHUTDOWN_TIMEOUT_MS: the process exits non-zero. */
export class ShutdownTimedOut extends Error {
  constructor(service: string, timeoutMs: number) {
    super(`${service} did not stop within SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms)`);
    this.name = 'ShutdownTimedOut';
  }
}

/**
 * Stops the HTTP listener and waits for the requests in flight, then closes every connection:
 * Node's `server.close()` alone waits for every keep-alive connection to go idle, and a client
 * that keeps sending requests on one (a probe, a proxy's pool) would hold the stop forever. From
 * now on, each answer closes its connection; idle connections are closed as they become idle; what
 * is still open after `timeoutMs` is closed (those requests get no answer).
 */
export async function drainHttp(server: Server, timeoutMs: number): Promise<{ connectionsCut: number }> {
  const closeAfterAnswer = (_request: IncomingMessage, response: ServerResponse) => {
    response.shouldKeepAlive = false;
  };
  // Before the application's own listener, which may answer at once.
  server.prependListener('request', closeAfterAnswer);
  server.close();
  const open = () => new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    server.closeIdleConnections();
    const count = await open();
    if (count === 0) return { connectionsCut: 0 };
    if (Date.now() >= deadline) {
      server.closeAllConnections();
      return { connectionsCut: count };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, deadline - Date.now())));
  }
}

/** The kinds of handles and requests keeping the event loop alive, counted (for the timeout's report). */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
