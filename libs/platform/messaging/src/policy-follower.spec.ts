import { createLogger } from '@vigil/platform';
import { MemoryBus } from './memory-bus';
import { PolicyFollower } from './policy-follower';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('PolicyFollower', () => {
  it('leaves no retry pause behind when stopped while the policy service is unreachable', async () => {
    const before = timers();
    const follower = new PolicyFollower({
      bus: new MemoryBus(),
      policyRpcAddress: '127.0.0.1:1', // nothing listens there
      rpcCredentials: null,
      groupPrefix: 'test.policy-cache',
      logger: createLogger('test', 'silent'),
      apply: () => true,
    });
    await follower.start();
    expect(await follower.whenLoaded(300)).toBe(false); // failed at least once, now pausing
    await follower.stop();
    await new Promise((r) => setImmediate(r));
    expect(follower.isLoaded).toBe(false);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
