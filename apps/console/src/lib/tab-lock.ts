/** The Web Lock every tab of the console takes around a refresh (POST /v1/auth/refresh). */
export const REFRESH_LOCK = 'vigil-console-refresh';

/** The subset of the Web Locks API used (`navigator.locks`). */
export interface TabLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/**
 * Runs `work` while holding the exclusive Web Lock `name`, shared by every tab and window of this
 * origin in this browser profile: a second tab's call starts only when the first one's has
 * settled. Where the API is missing (a browser without it, or a page outside a secure context:
 * plain http on an address other than localhost) `work` runs at once.
 */
export function acrossTabs<T>(name: string, work: () => Promise<T>, locks: TabLocks | undefined = browserLocks()): Promise<T> {
  return locks ? locks.request(name, work) : work();
}

function browserLocks(): TabLocks | undefined {
  const nav = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { locks?: TabLocks });
  return nav?.locks;
}
