import { type PartitionerArgs, Partitioners } from 'kafkajs';
import { keyCachedPartitioner } from './key-partitioner';

const metadata = (n: number, leaderless: number[] = []) =>
  Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: leaderless.includes(partitionId) ? -1 : 1, partitionErrorCode: 0, replicas: [1], isr: [1], offlineReplicas: [] }));

const args = (topic: string, partitions: number, message: PartitionerArgs['message'], leaderless: number[] = []): PartitionerArgs => ({ topic, partitionMetadata: metadata(partitions, leaderless), message });

describe('keyCachedPartitioner', () => {
  it('puts every string key where kafkajs default partitioner does, first time and remembered', () => {
    const ours = keyCachedPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 3, 6, 12]) {
      for (let i = 0; i < 500; i++) {
        const key = i % 7 === 0 ? `db_${'é'.repeat(i % 5)}${i}` : `db_${i}`;
        const expected = theirs(args('audit.ingest', partitions, { key, value: 'x' }));
        expect(ours(args('audit.ingest', partitions, { key, value: 'x' }))).toBe(expected);
        expect(ours(args('audit.ingest', partitions, { key, value: 'y' }))).toBe(expected);
      }
    }
  });

  it('forgets what it knew when the topic partition count changes', () => {
    const ours = keyCachedPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    const keys = Array.from({ length: 50 }, (_, i) => `database-${i}`);
    for (const key of keys) ours(args('t', 3, { key, value: 'v' }));
    const moved = keys.filter((key) => theirs(args('t', 7, { key, value: 'v' })) !== theirs(args('t', 3, { key, value: 'v' })));
    expect(moved.length).toBeGreaterThan(0);
    for (const key of keys) expect(ours(args('t', 7, { key, value: 'v' }))).toBe(theirs(args('t', 7, { key, value: 'v' })));
  });

  it('keeps topics apart and stays bounded past 10,000 keys', () => {
    const ours = keyCachedPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (let i = 0; i < 25_000; i++) {
      const key = `k${i}`;
      expect(ours(args(i % 2 ? 'a' : 'b', i % 2 ? 6 : 5, { key, value: 'v' }))).toBe(theirs(args(i % 2 ? 'a' : 'b', i % 2 ? 6 : 5, { key, value: 'v' })));
    }
  });

  it('leaves explicit partitions, Buffer keys and unkeyed messages to kafkajs', () => {
    const ours = keyCachedPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    expect(ours(args('t', 6, { key: 'db_1', value: 'v', partition: 4 }))).toBe(4);
    expect(ours(args('t', 6, { key: Buffer.from('db_1'), value: 'v' }))).toBe(theirs(args('t', 6, { key: Buffer.from('db_1'), value: 'v' })));
    // Unkeyed: round robin over the partitions that have a leader.
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++) seen.add(ours(args('t', 6, { key: null, value: 'v' }, [2, 5])));
    expect([...seen].sort()).toEqual([0, 1, 3, 4]);
  });
});
