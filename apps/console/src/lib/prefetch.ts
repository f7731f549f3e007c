/** An API call's outcome as `useRequest` reads it. */
export type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** How long a call started ahead of its page stays usable by it (beyond that the page asks again). */
export const PREFETCH_TTL_MS = 10_000;

const started = new Map<string, { at: number; outcome: Promise<Outcome<unknown>> }>();

/**
 * Starts the call a page is about to make under `key` (see `useRequest`), so that it is in flight
 * before the page renders: the Overview's data is asked for the moment the session resumes, not
 * after React has drawn the page and run its effects. A later call for the same key replaces it.
 */
export function prefetch<T>(key: string, run: () => Promise<Outcome<T>>, now = Date.now()): void {
  const outcome = run();
  // Nobody may ever take it (the user went elsewhere): its failure is not an unhandled rejection.
  outcome.catch(() => undefined);
  started.set(key, { at: now, outcome });
}

/** The call started ahead under `key`, once (it is forgotten when taken), if recent enough. */
export function takePrefetched<T>(key: string, now = Date.now()): Promise<Outcome<T>> | undefined {
  const entry = started.get(key);
  if (!entry) return undefined;
  started.delete(key);
  return now - entry.at <= PREFETCH_TTL_MS ? (entry.outcome as Promise<Outcome<T>>) : undefined;
}
