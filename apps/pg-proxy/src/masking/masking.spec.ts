import type { ActiveMaskRule } from '../enforcement/enforcer';
import type { FieldDescription } from '../protocol/messages';
import { computedRule, maskRow, maskValue, planMasks } from './masking';

const rule = (over: Partial<ActiveMaskRule>): ActiveMaskRule => ({ policyId: 'pol_1', policyName: 'p', rule: 'r', method: 'redact', showFirst: 0, showLast: 4, table: '*', column: 'ssn', shadow: false, ...over });
const field = (name: string, tableOid: number, column: number, typeOid = 25): FieldDescription => ({ name, tableOid, column, typeOid, typeSize: -1, typeModifier: -1, format: 0 });
const tables = new Map([[100, { schema: 'public', table: 'customers', columns: new Map([[1, 'id'], [2, 'ssn'], [3, 'email']]) }]]);

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
    const plan = planMasks([field('id', 100, 1, 23), field('anything', 100, 2), field('mail', 100, 3)], [rule({ table: 'customers', column: 'ssn' }), rule({ column: 'email', method: 'hash' })], tables, undefined)!;
    expect(plan.map((m) => m?.column)).toEqual([undefined, 'customers.ssn', 'customers.email']);
    const values = [Buffer.from('1'), Buffer.from('123'), null];
    expect(maskRow(values, plan)).toBe(2);
    expect(values.map((v) => v?.toString() ?? null)).toEqual(['1', '***', null]);
  });

  it('leaves other tables alone and masks computed columns only when they read a protected column', () => {
    expect(planMasks([field('ssn', 200, 2)], [rule({ table: 'customers' })], new Map([[200, { schema: 'public', table: 'other', columns: new Map([[2, 'ssn']]) }]]), undefined)).toBeUndefined();
    const computed = computedRule([rule({ table: 'customers' })], ['ssn'], ['customers']);
    expect(computed?.column).toBe('ssn');
    expect(computedRule([rule({ table: 'customers' })], ['name'], ['customers'])).toBeUndefined();
    expect(planMasks([field('upper', 0, 0)], [rule({})], new Map(), computed)![0]?.column).toBe('upper (computed from ssn)');
  });

  it('records shadow rules without rewriting', () => {
    const plan = planMasks([field('ssn', 100, 2)], [rule({ shadow: true })], tables, undefined)!;
    const values = [Buffer.from('123')];
    expect(maskRow(values, plan)).toBe(0);
    expect(values[0]!.toString()).toBe('123');
  });
});
