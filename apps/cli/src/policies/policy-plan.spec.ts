import type { PolicySpec } from './policy-file.ts';
import { type CurrentPolicy, deepEqual, describePlan, diffValues, planPolicies, summarizePlan } from './policy-plan.ts';

const spec = (name: string, extra: Partial<PolicySpec> = {}): PolicySpec => ({
  name,
  type: 'query_control',
  description: '',
  enabled: false,
  enforcement_mode: 'enforce',
  databases: ['db_orders'],
  config: { rules: [{ name: 'no-drop', pattern: '^DROP', action: 'block', severity: 'high', message: 'no' }] },
  ...extra,
});
const current = (id: string, name: string, extra: Partial<PolicySpec> = {}): CurrentPolicy => ({ id, ...spec(name, extra) });

describe('planPolicies', () => {
  it('creates what only the file has, with every field of the file', () => {
    const plan = planPolicies([spec('new', { enabled: true })], [], { prune: false });
    expect(plan.items).toEqual([{ action: 'create', name: 'new', body: spec('new', { enabled: true }) }]);
    expect(plan.unchanged).toEqual([]);
  });

  it('finds nothing to do when the server matches the file, whatever the key order of config', () => {
    const server = current('pol_1', 'same', { config: { rules: [{ message: 'no', severity: 'high', action: 'block', pattern: '^DROP', name: 'no-drop' }] } });
    const plan = planPolicies([spec('same')], [server], { prune: true });
    expect(plan.items).toEqual([]);
    expect(plan.unchanged).toEqual(['same']);
    expect(summarizePlan(plan)).toBe('No changes: 1 policy matches the file.');
  });

  it('updates only the fields that differ, and names each changed leaf', () => {
    const file = spec('p', { enabled: true, config: { rules: [{ name: 'no-drop', pattern: '^(DROP|TRUNCATE)', action: 'block', severity: 'high', message: 'no' }] } });
    const plan = planPolicies([file], [current('pol_9', 'p')], { prune: false });
    expect(plan.items).toEqual([
      {
        action: 'update',
        name: 'p',
        id: 'pol_9',
        body: { enabled: true, config: file.config },
        changes: [
          { field: 'enabled', from: false, to: true },
          { field: 'config.rules[0].pattern', from: '^DROP', to: '^(DROP|TRUNCATE)' },
        ],
      },
    ]);
  });

  it('treats databases as a set: another order is no change, another member is', () => {
    expect(planPolicies([spec('p', { databases: ['db_b', 'db_a'] })], [current('pol_1', 'p', { databases: ['db_a', 'db_b'] })], { prune: false }).items).toEqual([]);
    const plan = planPolicies([spec('p', { databases: ['db_a', 'db_c'] })], [current('pol_1', 'p', { databases: ['db_a', 'db_b'] })], { prune: false });
    expect(plan.items[0]).toMatchObject({ action: 'update', body: { databases: ['db_a', 'db_c'] } });
  });

  it('reports a default the server differs from as a change (an omitted field means its create default)', () => {
    const plan = planPolicies([spec('p')], [current('pol_1', 'p', { enabled: true, enforcement_mode: 'shadow', description: 'x' })], { prune: false });
    expect(plan.items[0]).toMatchObject({ action: 'update', body: { enabled: false, enforcement_mode: 'enforce', description: '' } });
  });

  it('keeps policies missing from the file unless pruning, and then deletes them', () => {
    const server = [current('pol_1', 'kept'), current('pol_2', 'extra')];
    const keep = planPolicies([spec('kept')], server, { prune: false });
    expect(keep.items).toEqual([]);
    expect(keep.unmanaged).toEqual(['extra']);
    expect(describePlan(keep)).toEqual(['  keep   extra (not in the file; --prune would delete it)']);
    const prune = planPolicies([spec('kept')], server, { prune: true });
    expect(prune.items).toEqual([{ action: 'delete', name: 'extra', id: 'pol_2' }]);
    expect(prune.unmanaged).toEqual([]);
  });

  it('orders creates, updates, deletes, each by name, and describes them', () => {
    const plan = planPolicies(
      [spec('b-new'), spec('a-new', { type: 'access_control', enabled: true }), spec('changed', { description: 'now described' })],
      [current('pol_1', 'changed'), current('pol_2', 'zz-gone'), current('pol_3', 'aa-gone')],
      { prune: true },
    );
    expect(plan.items.map((i) => `${i.action} ${i.name}`)).toEqual(['create a-new', 'create b-new', 'update changed', 'delete aa-gone', 'delete zz-gone']);
    expect(describePlan(plan)).toEqual([
      '+ create a-new (access_control, enabled)',
      '+ create b-new (query_control)',
      '~ update changed (pol_1)',
      '    description: "" -> "now described"',
      '- delete aa-gone (pol_3)',
      '- delete zz-gone (pol_2)',
    ]);
    expect(summarizePlan(plan)).toBe('2 to create, 1 to update, 2 to delete, 0 unchanged.');
  });
});

describe('diffValues', () => {
  it('descends into mappings and same-length lists, and reports added and removed keys', () => {
    expect(diffValues({ a: { b: 1, c: [1, 2] }, gone: true }, { a: { b: 2, c: [1, 3] }, added: 'x' }, ['config'])).toEqual([
      { field: 'config.a.b', from: 1, to: 2 },
      { field: 'config.a.c[1]', from: 2, to: 3 },
      { field: 'config.added', from: undefined, to: 'x' },
      { field: 'config.gone', from: true, to: undefined },
    ]);
  });

  it('reports a list that grew or a changed type as one change of the whole value', () => {
    expect(diffValues([1], [1, 2], ['config', 'users'])).toEqual([{ field: 'config.users', from: [1], to: [1, 2] }]);
    expect(diffValues({ a: 1 }, [1], ['config'])).toEqual([{ field: 'config', from: { a: 1 }, to: [1] }]);
  });

  it('quotes keys that are not plain words', () => {
    expect(diffValues({ 'a b': 1 }, { 'a b': 2 }, ['config'])).toEqual([{ field: 'config["a b"]', from: 1, to: 2 }]);
  });
});

describe('deepEqual', () => {
  it('ignores key order but not list order, and tells null, missing and false apart', () => {
    expect(deepEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: null }, {})).toBe(false);
    expect(deepEqual({ a: false }, { a: 0 })).toBe(false);
    expect(deepEqual({ a: undefined }, {})).toBe(true);
  });
});
