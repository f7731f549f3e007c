import { MemoryBus } from './memory-bus';

const msg = (value: string) => ({ key: 'k', value, headers: {} });

describe('MemoryBus', () => {
  it('resolves a publish only after every subscribed group committed the message', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async (batch) => { await gate; seen.push(...batch.map((m) => m.value)); } });
    let published = false;
    const publishing = bus.publish([{ topic: 't', messages: [msg('a')] }]).then(() => (published = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(published).toBe(false);
    release();
    await publishing;
    expect(seen).toEqual(['a']);
    await bus.close();
  });

  it('redelivers a batch whose handler threw', async () => {
    const bus = new MemoryBus();
    let attempts = 0;
    await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async () => { attempts++; if (attempts < 3) throw new Error('transient'); } });
    await bus.publish([{ topic: 't', messages: [msg('a')] }]);
    expect(attempts).toBe(3);
    await bus.close();
  });

  it('keeps messages until a first group takes them, then delivers to each group', async () => {
    const bus = new MemoryBus();
    await bus.publish([{ topic: 't', messages: [msg('early')] }]);
    const a: string[] = [];
    const b: string[] = [];
    await bus.subscribe({ groupId: 'a', topics: ['t'], handler: async (batch) => { a.push(...batch.map((m) => m.value)); } });
    await bus.subscribe({ groupId: 'b', topics: ['t'], handler: async (batch) => { b.push(...batch.map((m) => m.value)); } });
    await bus.publish([{ topic: 't', messages: [msg('late')] }]);
    expect(a).toEqual(['early', 'late']);
    // 'early' was trimmed once group a committed it, before b existed (documented on MemoryBus).
    expect(b).toEqual(['late']);
    await bus.close();
  });

  it('holds publishes while paused', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    bus.pause();
    const publishing = bus.publish([{ topic: 't', messages: [msg('x')] }]);
    await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async (batch) => { seen.push(...batch.map((m) => m.value)); } });
    bus.resume();
    await publishing;
    expect(seen).toEqual(['x']);
    await bus.close();
  });

  it('rejects pending publishes when closed', async () => {
    const bus = new MemoryBus();
    await bus.subscribe({ groupId: 'g', topics: ['t'], handler: () => new Promise(() => undefined) });
    const publishing = bus.publish([{ topic: 't', messages: [msg('x')] }]);
    await new Promise((r) => setTimeout(r, 10));
    await bus.close();
    await expect(publishing).rejects.toThrow(/closed/);
  });
});
