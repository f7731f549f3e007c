import { MAX_JSON_DEPTH, nestedDeeperThan } from './http-pipeline';

describe('nesting limit of JSON bodies', () => {
  const objects = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  const arrays = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

  it('lets through bodies nested up to the limit and refuses one level more', () => {
    expect(nestedDeeperThan(objects(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan(arrays(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('measures the deepest branch, not the widest, and scalars not at all', () => {
    expect(nestedDeeperThan({ a: [1, 2, { b: 'x' }], c: { d: null } }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [1, 2, { b: ['x'] }] }, 3)).toBe(true);
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(undefined, 0)).toBe(false);
  });

  it('walks a body nested a hundred thousand levels without exhausting the stack', () => {
    expect(nestedDeeperThan(arrays(100_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
