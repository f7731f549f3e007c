import { cidrContains, cidrContainsFast, ipv4Of, parseCidr, parseIp } from './cidr';
import { PolicyEngine, simulate } from './engine';
import { compilePattern, sharedLiteral } from './pattern';
import type { EngineEvent, PolicyDefinition } from './types';

// The engine shares work between the policies of an event (interned patterns and literals, column
// references, one reused view) and memoizes it per event. These tests pin that the sharing never
// changes an answer: across policies, across events, and between the engine and simulation.

let nextId = 0;
const queryPolicy = (rules: { name: string; pattern: string; case_sensitive?: boolean }[], databases = ['db_shared']): PolicyDefinition & { version: number } => ({
  id: `pol_shared_${++nextId}`,
  name: `shared ${nextId}`,
  type: 'query_control',
  enabled: true,
  databases,
  version: 1,
  config: { rules: rules.map((r) => ({ ...r, action: 'alert', severity: 'high' })) },
});
const queryEvent = (query: string, extra: Partial<EngineEvent> = {}): EngineEvent => ({
  type: 'database.query',
  database_id: 'db_shared',
  timestamp: Date.parse('2026-03-04T10:00:00Z'),
  user: 'app',
  source_ip: '10.0.0.1',
  query,
  ...extra,
});
const ruleNames = (engine: PolicyEngine, event: EngineEvent) => engine.evaluate(event).map((e) => `${e.policy_name}:${e.rule_name}`);

describe('work shared between policies', () => {
  it('interns equal patterns and keeps case sensitivity apart', () => {
    expect(compilePattern('drop\\s+table')).toBe(compilePattern('drop\\s+table'));
    expect(compilePattern('drop\\s+table', true)).not.toBe(compilePattern('drop\\s+table'));
    expect(sharedLiteral('benchmark1(').gate).toBe(sharedLiteral('benchmark2(').gate);
  });

  it('answers each event afresh: a memo of one event never leaks into the next', () => {
    const engine = new PolicyEngine();
    const a = queryPolicy([{ name: 'drops', pattern: '\\bDROP\\s+TABLE\\b' }]);
    const b = queryPolicy([{ name: 'drops', pattern: '\\bDROP\\s+TABLE\\b' }, { name: 'unions', pattern: 'union\\s+select' }]);
    engine.apply(a);
    engine.apply(b);
    expect(ruleNames(engine, queryEvent('DROP TABLE x'))).toEqual([`${a.name}:drops`, `${b.name}:drops`]);
    expect(ruleNames(engine, queryEvent('SELECT 1'))).toEqual([]);
    expect(ruleNames(engine, queryEvent('select 1 union select 2'))).toEqual([`${b.name}:unions`]);
    expect(ruleNames(engine, queryEvent('drop table y'))).toEqual([`${a.name}:drops`, `${b.name}:drops`]);
  });

  it('does not conflate a case-sensitive rule with the same pattern folded', () => {
    const engine = new PolicyEngine();
    const sensitive = queryPolicy([{ name: 'upper', pattern: 'DROP TABLE', case_sensitive: true }]);
    const folded = queryPolicy([{ name: 'any', pattern: 'DROP TABLE' }]);
    engine.apply(sensitive);
    engine.apply(folded);
    expect(ruleNames(engine, queryEvent('drop table t'))).toEqual([`${folded.name}:any`]);
    expect(ruleNames(engine, queryEvent('DROP TABLE t'))).toEqual([`${sensitive.name}:upper`, `${folded.name}:any`]);
  });

  it('tells apart literals that share a prefix (one gate for all of them)', () => {
    const engine = new PolicyEngine();
    const policies = [1, 2, 3].map((i) => queryPolicy([{ name: `bench${i}`, pattern: `benchmark${i}\\(` }]));
    for (const p of policies) engine.apply(p);
    expect(ruleNames(engine, queryEvent('select benchmark2(1000, md5(1))'))).toEqual([`${policies[1]!.name}:bench2`]);
    expect(ruleNames(engine, queryEvent('select benchmark(1)'))).toEqual([]);
    expect(ruleNames(engine, queryEvent('select bench'))).toEqual([]);
    expect(ruleNames(engine, queryEvent('select benchmark3(1), benchmark1(2)'))).toEqual([`${policies[0]!.name}:bench1`, `${policies[2]!.name}:bench3`]);
  });

  it('gives simulation and the pipeline the same answers when they interleave', () => {
    const engine = new PolicyEngine();
    const policy = queryPolicy([{ name: 'drops', pattern: 'drop\\s+table' }]);
    engine.apply(policy);
    expect(ruleNames(engine, queryEvent('drop table a'))).toHaveLength(1);
    expect(simulate(policy, queryEvent('select 1')).would_trigger).toBe(false);
    expect(ruleNames(engine, queryEvent('drop table a'))).toHaveLength(1);
    expect(simulate(policy, queryEvent('drop table b')).would_trigger).toBe(true);
    expect(ruleNames(engine, queryEvent('select 2'))).toHaveLength(0);
  });

  it('masks per event: a protected column of one event is not remembered for the next', () => {
    const engine = new PolicyEngine();
    const columns = (id: string) => ({
      id,
      name: id,
      type: 'data_protection' as const,
      enabled: true,
      databases: ['db_shared'],
      version: 1,
      config: { rules: [{ name: 'cards', columns: ['payments.card_number', '*.ssn'], method: 'hash' }] },
    });
    engine.apply(columns('pol_mask_a'));
    engine.apply(columns('pol_mask_b'));
    const masked = (query: string) => engine.evaluate(queryEvent(query)).map((e) => e.masking?.[0]?.columns);
    expect(masked('select p.card_number from payments p')).toEqual([['payments.card_number'], ['payments.card_number']]);
    expect(masked('select amount from payments')).toEqual([]);
    expect(masked('select ssn from people')).toEqual([['*.ssn'], ['*.ssn']]);
  });

  it('drops its reference to the last event', () => {
    const engine = new PolicyEngine();
    engine.apply(queryPolicy([{ name: 'drops', pattern: 'drop' }]));
    const event = queryEvent('drop table t');
    engine.evaluate(event);
    expect((engine as unknown as { view: { event: EngineEvent } }).view.event).not.toBe(event);
  });
});

describe('IPv4 ranges compared as numbers', () => {
  const ranges = ['10.0.0.0/8', '0.0.0.0/0', '192.168.1.7', '255.255.255.255/32', '128.0.0.0/1', '::/0', '::ffff:0:0/96', '::ffff:10.0.0.0/104', '2001:db8::/32', 'fe80::/10'];
  const addresses = ['10.1.2.3', '11.0.0.1', '192.168.1.7', '255.255.255.255', '128.0.0.1', '127.0.0.1', '0.0.0.0', '::ffff:10.9.9.9', '2001:db8::1', '::1', 'fe80::1%eth0', '::10.1.2.3'];
  it.each(ranges.flatMap((r) => addresses.map((a) => [r, a] as const)))('%s vs %s: same answer as the 128-bit comparison', (range, text) => {
    const cidr = parseCidr(range)!;
    const address = parseIp(text)!;
    expect(cidr).toBeDefined();
    expect(address).toBeDefined();
    expect(cidrContainsFast(cidr, address, ipv4Of(address))).toBe(cidrContains(cidr, address));
  });

  it('pre-parses IPv4 ranges only', () => {
    expect(parseCidr('10.0.0.0/8')!.v4).toEqual({ network: 0x0a000000, mask: 0xff000000 });
    expect(parseCidr('2001:db8::/32')!.v4).toBeUndefined();
    expect(parseCidr('::/0')!.v4).toBeUndefined();
  });
});
