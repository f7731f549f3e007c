import { applyEvent, effectiveChanges, fold, UnknownPolicyEvent } from './policy.aggregate';

const created = {
  type: 'policy.created',
  version: 1,
  data: { id: 'pol_1', name: 'a', type: 'query_control', enabled: false, description: '', databases: ['db_x'], config: { rules: [] }, at: '2026-01-01T00:00:00.000Z' },
};

describe('policy aggregate', () => {
  it('folds a stream into the current state', () => {
    const state = fold([
      created,
      { type: 'policy.updated', version: 2, data: { changes: { name: 'b', databases: ['db_y'] }, at: '2026-01-02T00:00:00.000Z' } },
      { type: 'policy.enabled', version: 3, data: { at: '2026-01-03T00:00:00.000Z' } },
    ]);
    expect(state).toMatchObject({ id: 'pol_1', name: 'b', databases: ['db_y'], enabled: true, version: 3, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-03T00:00:00.000Z', deleted: false });
  });

  it('reads a policy created before enforcement_mode existed as enforced, and follows a change of mode', () => {
    expect(fold([created])!.enforcement_mode).toBe('enforce');
    const state = fold([created, { type: 'policy.updated', version: 2, data: { changes: { enforcement_mode: 'shadow' }, at: '2026-01-02T00:00:00.000Z' } }]);
    expect(state).toMatchObject({ enforcement_mode: 'shadow', version: 2 });
    expect(effectiveChanges(state!, { enforcement_mode: 'shadow' })).toEqual({});
    expect(effectiveChanges(state!, { enforcement_mode: 'enforce' })).toEqual({ enforcement_mode: 'enforce' });
    expect(fold([{ ...created, data: { ...created.data, enforcement_mode: 'shadow' } }])!.enforcement_mode).toBe('shadow');
  });

  it('marks a deleted policy deleted and not enabled', () => {
    const state = fold([created, { type: 'policy.enabled', version: 2, data: { at: 'x' } }, { type: 'policy.deleted', version: 3, data: { at: 'y' } }]);
    expect(state).toMatchObject({ deleted: true, enabled: false, version: 3 });
  });

  it('refuses a stream that does not start with policy.created', () => {
    expect(() => applyEvent(undefined, { type: 'policy.enabled', data: { at: 'x' } }, 1)).toThrow(UnknownPolicyEvent);
  });

  it('keeps only the changes that change something', () => {
    const state = fold([created])!;
    expect(effectiveChanges(state, { name: 'a', description: 'new', databases: ['db_x'], config: { rules: [1] } })).toEqual({ description: 'new', config: { rules: [1] } });
  });
});
