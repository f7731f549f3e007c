import type { ActiveMaskRule } from '../enforcement/enforcer';
import type { FieldDescription } from '../protocol/messages';
import type { CatalogSnapshot } from './catalog';
import { maskRow, maskValue, planMasks } from './masking';
import { protectionView } from './protection';

const rule = (over: Partial<ActiveMaskRule>): ActiveMaskRule => ({ policyId: 'pol_1', policyName: 'p', rule: 'r', method: 'redact', showFirst: 0, showLast: 4, table: '*', column: 'ssn', shadow: false, ...over });
const field = (name: string, tableOid: number, column: number, typeOid = 25): FieldDescription => ({ name, tableOid, column, typeOid, typeSize: -1, typeModifier: -1, format: 0 });
const snapshot: CatalogSnapshot = {
  relations: new Map([
    [100, { schema: 'public', table: 'customers', kind: 'r', columns: new Map([[1, 'id'], [2, 'ssn'], [3, 'email']]) }],
    [200, { schema: 'public', table: 'other', kind: 'r', columns: new Map([[2, 'ssn']]) }],
    [300, { schema: 'public', table: 'v', kind: 'v', columns: new Map([[1, 'x']]) }],
  ]),
  viewDeps: new Map([[300, [{ rel: 100, att: 2 }]]]),
  userFunctions: new Set(),
  builtinFunctions: new Set(['upper']),
  parents: new Map(),
  at: Date.now(),
};

describe('masking', () => {
  it.each([
    ['redact', '123-45-6789', '***'],
    ['partial', '123-45-6789', '*******6789'],
    ['partial', '12', '**'],
    ['null', 'x', null],
  ] as const)('%s masks %j', (method, value, expected) => {
    const out = maskValue(Buffer.from(value), method, 0, 4, true);
    expect(out === null ? null : out.toString()).toBe(expected);
  });

  it('hashes with SHA-256 and turns non-text values into NULL', () => {
    expect(maskValue(Buffer.from('a'), 'hash', 0, 0, true)!.toString()).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
    expect(maskValue(Buffer.from('42'), 'redact', 0, 0, false)).toBeNull();
  });

  it('identifies protected columns by table OID and attribute number, whatever the output name', () => {
    const view = protectionView(snapshot, [rule({ table: 'customers', column: 'ssn' }), rule({ column: 'email', method: 'hash' })]);
    const plan = planMasks([field('id', 100, 1, 23), field('anything', 100, 2), field('mail', 100, 3)], view, undefined)!;
    expect(plan.map((m) => m?.column)).toEqual([undefined, 'customers.ssn', 'customers.email']);
    const values = [Buffer.from('1'), Buffer.from('123'), null];
    expect(maskRow(values, plan)).toBe(2);
    expect(values.map((v) => v?.toString() ?? null)).toEqual(['1', '***', null]);
  });

  it('leaves other tables and clean computed values alone; masks tainted computed values, views over protected columns and unknown relations whole', () => {
    const view = protectionView(snapshot, [rule({ table: 'customers', method: 'partial' })]);
    expect(planMasks([field('ssn', 200, 2)], view, undefined)).toBeUndefined();
    expect(planMasks([field('upper', 0, 0)], view, undefined)).toBeUndefined();
    const tainted = planMasks([field('upper', 0, 0)], view, { rule: view.fallback, reason: 'customers' })!;
    expect(tainted[0]).toMatchObject({ column: 'upper (computed; reads customers)', rule: { method: 'redact' } });
    expect(planMasks([field('x', 300, 1)], view, undefined)![0]?.column).toBe('v.x');
    expect(planMasks([field('y', 999, 1)], view, undefined)![0]?.column).toBe('y (relation 999 unknown)');
  });

  it('records shadow rules without rewriting', () => {
    const view = protectionView(snapshot, [rule({ shadow: true })]);
    const plan = planMasks([field('ssn', 100, 2)], view, undefined)!;
    const values = [Buffer.from('123')];
    expect(maskRow(values, plan)).toBe(0);
    expect(values[0]!.toString()).toBe('123');
  });
});
