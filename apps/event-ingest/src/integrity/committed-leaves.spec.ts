import { CommittedLeaves } from './committed-leaves';

const hash = (n: number) => Buffer.alloc(32, n);

describe('CommittedLeaves', () => {
  it('hands out only a consecutive run after the tree size, and forgets what the tree took', () => {
    const leaves = new CommittedLeaves();
    leaves.add([
      { seq: '3', leaf_hash: hash(3) },
      { seq: '1', leaf_hash: hash(1) },
      { seq: '2', leaf_hash: hash(2) },
      { seq: '5', leaf_hash: hash(5) },
      { seq: '6', leaf_hash: null },
    ]);
    expect(leaves.take(0, 10)).toEqual([hash(1), hash(2), hash(3)]); // 4 is not here: the run stops
    expect(leaves.take(0, 2)).toEqual([hash(1), hash(2)]);
    expect(leaves.take(3, 10)).toEqual([]);
    leaves.forget(2);
    expect(leaves.take(0, 10)).toEqual([]);
    expect(leaves.take(2, 10)).toEqual([hash(3)]);
    leaves.add([{ seq: '4', leaf_hash: hash(4) }]);
    expect(leaves.take(2, 10)).toEqual([hash(3), hash(4), hash(5)]);
  });
});
