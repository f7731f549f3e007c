import { MemoryBus } from '@vigil/messaging';
import { createLogger, Registry } from '@vigil/platform';
import { freePort } from '@vigil/testing';
import { PolicyCache } from './policy-cache';

describe('PolicyCache.whenReady at start', () => {
  it('holds every batch that asks while the policies load, not only the first, then holds no later batch', async () => {
    const bus = new MemoryBus();
    // Nothing answers on this port: the policies never load and the wait at start runs to its end.
    const cache = new PolicyCache(bus, { POLICY_RPC_ADDRESS: `127.0.0.1:${await freePort()}`, ENFORCEMENT_READY_TIMEOUT_MS: 300 }, createLogger('test', 'silent'), new Registry());
    await cache.onApplicationBootstrap();
    try {
      // Batches of two partitions reach enforcement together. Each must wait like the first; the
      // second used to be answered "not loaded" at once and enforced without the policies.
      const settled: string[] = [];
      await Promise.all([
        cache.whenReady().then((ready) => settled.push(`first ${ready}`)),
        cache.whenReady().then((ready) => settled.push(`second ${ready}`)),
      ]);
      expect(settled).toEqual(['first false', 'second false']);
      expect(await cache.whenReady()).toBe(false);
    } finally {
      await cache.onModuleDestroy();
      await bus.close();
    }
  });
});
