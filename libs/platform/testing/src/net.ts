import { createServer } from 'node:net';

/**
 * A port free on 127.0.0.1 now, for a process started later. Picked at random below the kernel's
 * ephemeral range (32768 and up on Linux): a port the kernel handed out (port 0) could be given
 * again to an outgoing connection (PostgreSQL, Kafka) before the process binds it, and its listen
 * would fail with EADDRINUSE. Falls back to a kernel-chosen port if none of the tries is free.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  return listenOn(0);
}

function canListen(port: number): Promise<boolean> {
  return listenOn(port).then(
    () => true,
    () => false,
  );
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/** Polls until `check` returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

/**
 * Waits, when needed, until at least `needMs` remain of the current fixed window of `windowMs`
 * (windows start at multiples of `windowMs` since the epoch, as the gateway's rate limits count):
 * a test that fills a small per-minute limit then sees all its attempts counted in one window,
 * never split over two.
 */
export async function startEarlyInWindow(needMs = 20_000, windowMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
