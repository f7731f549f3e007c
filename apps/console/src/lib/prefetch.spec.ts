import { PREFETCH_TTL_MS, prefetch, takePrefetched } from './prefetch';

const answer = (data: unknown) => Promise.resolve({ data, response: new Response(null) });

describe('calls started ahead of their page', () => {
  it('hands a started call to the first taker only', async () => {
    let calls = 0;
    prefetch('overview:a', () => {
      calls += 1;
      return answer('first');
    }, 1_000);
    expect(calls).toBe(1);
    await expect(takePrefetched('overview:a', 1_001)).resolves.toEqual({ data: 'first', response: expect.any(Response) });
    expect(takePrefetched('overview:a', 1_002)).toBeUndefined();
  });

  it('is not used once stale, nor under another key', () => {
    prefetch('overview:b', () => answer('old'), 0);
    expect(takePrefetched('overview:c', 1)).toBeUndefined();
    expect(takePrefetched('overview:b', PREFETCH_TTL_MS + 1)).toBeUndefined();
    // Taken (and forgotten) even though stale: a later start is what counts.
    expect(takePrefetched('overview:b', 1)).toBeUndefined();
  });

  it('keeps the latest call for a key', async () => {
    prefetch('overview:d', () => answer('one'), 0);
    prefetch('overview:d', () => answer('two'), 0);
    await expect(takePrefetched('overview:d', 0)).resolves.toMatchObject({ data: 'two' });
  });

  it('does not leave a failed call that nobody took as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      prefetch('overview:e', () => Promise.reject(new Error('network down')), 0);
      await new Promise((done) => setTimeout(done, 10));
      expect(unhandled).toEqual([]);
      await expect(takePrefetched('overview:e', 0)).rejects.toThrow('network down');
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
