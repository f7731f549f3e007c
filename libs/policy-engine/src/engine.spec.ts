import { cidrContains, parseCidr, parseIp } from './cidr';
import { compilePolicy } from './compile';
import { PolicyEngine, simulate, SlidingWindows } from './engine';
import { compilePattern, foldForPrefilter, patternMatches, requiredLiterals } from './pattern';
import { compileTimeWindow, inTimeWindow } from './time-window';
import type { EngineEvent, PolicyDefinition, PolicyTypeName } from './types';

const at = (iso: string) => Date.parse(iso);
const policy = (type: PolicyTypeName, config: unknown, extra: Partial<PolicyDefinition> = {}): PolicyDefinition => ({
  id: 'pol_test',
  name: 'test policy',
  type,
  enabled: true,
  databases: ['db_main'],
  config,
  ...extra,
});
const event = (extra: Partial<EngineEvent> = {}): EngineEvent => ({
  type: 'database.query',
  severity: 'info',
  database_id: 'db_main',
  timestamp: at('2026-03-04T10:00:00Z'), // a Wednesday
  user: 'alice',
  source_ip: '10.1.2.3',
  query: 'SELECT 1',
  ...extra,
});

describe('CIDR ranges', () => {
  it.each([
    ['10.0.0.0/8', '10.255.1.2', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['192.168.1.7', '192.168.1.7', true],
    ['192.168.1.7', '192.168.1.8', false],
    ['0.0.0.0/0', '203.0.113.9', true],
    ['0.0.0.0/0', '2001:db8::1', false],
    ['10.0.0.0/8', '::ffff:10.9.9.9', true],
    ['2001:db8::/32', '2001:db8:abcd::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['::/0', '::1', true],
    ['fe80::/10', 'fe80::1%eth0', true],
    ['2001:db8::1/128', '[2001:db8::1]', true],
    ['2001:0db8:0000:0000:0000:0000:0000:0000/64', '2001:db8::ffff:1', true],
  ])('%s contains %s: %s', (range, address, expected) => {
    const cidr = parseCidr(range)!;
    expect(cidr).toBeDefined();
    expect(cidrContains(cidr, parseIp(address)!)).toBe(expected);
  });

  it.each(['10.0.0.0/33', '256.1.1.1', '10.0.0', '01.2.3.4/8', '2001:db8::/129', '2001:db8:::1', '1:2:3:4:5:6:7:8:9', 'x.y.z.w/8', '10.0.0.0/8/1', ''])(
    'refuses %s',
    (range) => expect(parseCidr(range)).toBeUndefined(),
  );
});

describe('time windows', () => {
  const window = (start: string, end: string, timezone: string, days?: string[]) => compileTimeWindow({ start, end, timezone, days });

  it.each([
    // Weekday windows in UTC
    ['09:00', '17:00', 'UTC', ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], '2026-03-04T09:00:00Z', true],
    ['09:00', '17:00', 'UTC', ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], '2026-03-04T17:00:00Z', false],
    ['09:00', '17:00', 'UTC', ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], '2026-03-07T10:00:00Z', false], // Saturday
    // Crossing midnight: the morning part belongs to the previous day's window
    ['22:00', '06:00', 'UTC', ['friday'], '2026-03-06T23:30:00Z', true], // Friday night
    ['22:00', '06:00', 'UTC', ['friday'], '2026-03-07T05:59:00Z', true], // Saturday early morning
    ['22:00', '06:00', 'UTC', ['friday'], '2026-03-07T06:00:00Z', false],
    ['22:00', '06:00', 'UTC', ['friday'], '2026-03-06T05:00:00Z', false], // Friday morning belongs to Thursday
    ['22:00', '06:00', 'UTC', ['friday'], '2026-03-06T12:00:00Z', false],
    // Start == end is the whole day
    ['00:00', '00:00', 'UTC', ['sunday'], '2026-03-08T13:00:00Z', true],
    // Time zones: 09:00-17:00 in New York is 14:00-22:00 UTC in winter (EST) and 13:00-21:00 in summer (EDT)
    ['09:00', '17:00', 'America/New_York', undefined, '2026-03-06T13:30:00Z', false], // EST: 08:30
    ['09:00', '17:00', 'America/New_York', undefined, '2026-03-09T13:30:00Z', true], // after the switch on 8 March: 09:30 EDT
    ['09:00', '17:00', 'America/New_York', undefined, '2026-03-09T21:30:00Z', false], // 17:30 EDT
    // Europe/Berlin switches on 29 March 2026: 02:00 CET becomes 03:00 CEST
    ['01:00', '03:00', 'Europe/Berlin', ['sunday'], '2026-03-29T00:30:00Z', true], // 01:30 CET
    ['01:00', '03:00', 'Europe/Berlin', ['sunday'], '2026-03-29T01:00:00Z', false], // 03:00 CEST: the hour 02:xx does not exist
    ['01:00', '03:00', 'Europe/Berlin', ['sunday'], '2026-10-25T00:30:00Z', true], // 02:30 CEST (first pass)
    ['01:00', '03:00', 'Europe/Berlin', ['sunday'], '2026-10-25T01:30:00Z', true], // 02:30 CET (the repeated hour)
    ['01:00', '03:00', 'Europe/Berlin', ['sunday'], '2026-10-25T02:30:00Z', false], // 03:30 CET
    // A zone east of UTC moves the weekday: Monday 01:00 in Tokyo is Sunday 16:00 UTC
    ['00:00', '08:00', 'Asia/Tokyo', ['monday'], '2026-03-08T16:00:00Z', true],
    ['00:00', '08:00', 'Asia/Tokyo', ['monday'], '2026-03-09T16:00:00Z', false],
    // Half-hour offsets
    ['09:00', '10:00', 'Asia/Kolkata', undefined, '2026-03-04T03:45:00Z', true], // 09:15 IST
  ])('%s-%s %s %j at %s: inside = %s', (start, end, tz, days, instant, expected) => {
    expect(inTimeWindow(window(start, end, tz, days as string[] | undefined), at(instant))).toBe(expected);
  });
});

describe('RE2 patterns', () => {
  it.each([
    ['\\bDROP\\s+TABLE\\b', 'drop   table users', true],
    ['\\bDROP\\s+TABLE\\b', 'SELECT droptable FROM x', false],
    ['^\\s*DELETE\\s+FROM\\s+\\w+\\s*;?\\s*$', 'DELETE FROM accounts;', true],
    ['^\\s*DELETE\\s+FROM\\s+\\w+\\s*;?\\s*$', 'DELETE FROM accounts WHERE id = 1', false],
    ['union\\s+(all\\s+)?select', "1' UNION ALL SELECT password FROM users", true],
    ['pg_sleep\\(', 'select pg_sleep(10)', true],
    ['(?-i)SELECT', 'select 1', false],
    ['s', '\u017f', true], // RE2 folds the long s onto s: the prefilter must not hide it
    ['K', '\u212a', true], // and the Kelvin sign onto k
  ])('/%s/ on "%s": %s', (source, text, expected) => {
    const pattern = compilePattern(source);
    expect(patternMatches(pattern, text, foldForPrefilter(text))).toBe(expected);
    // The prefilter never changes the answer, only the cost.
    expect(pattern.regex.test(text)).toBe(expected);
  });

  it.each([
    ['\\bDROP\\s+TABLE\\b', ['drop', 'table']],
    ['a|b', []],
    ['ab?cd', ['cd']],
    ['x{0,3}yz', ['yz']],
    ['(DROP|TRUNCATE)\\s+TABLE', ['table']],
    ['[a-z]+_secret', ['_secret']],
  ])('the prefilter of /%s/ requires %j', (source, literals) => {
    expect(requiredLiterals(source)).toEqual(literals);
  });

  it.each(['(a)\\1', 'a(?=b)', '(?<!x)y', '(unclosed', 'a{2,1}', 'a{1001}'])('refuses /%s/, which RE2 cannot run', (source) => {
    expect(() => compilePattern(source)).toThrow();
  });

  it.each([
    ['(a+)+$', `${'a'.repeat(50_000)}!`],
    ['(a|aa)*b', 'a'.repeat(50_000)],
    ['(x+x+)+y', 'x'.repeat(50_000)],
    ['^(\\w+\\s?)*$', `${'word '.repeat(10_000)}!`],
  ])('runs the catastrophic-backtracking candidate /%s/ in linear time', (source, text) => {
    // A backtracking engine (JavaScript's own RegExp) would not return on these inputs within the
    // test's timeout; RE2 answers in one pass, for the input and for twice the input.
    const pattern = compilePattern(source);
    expect(patternMatches(pattern, text, foldForPrefilter(text))).toBe(false);
    expect(patternMatches(pattern, text + text, foldForPrefilter(text + text))).toBe(false);
  });
});

describe('access_control', () => {
  const config = {
    conditions: {
      users: ['alice', 'bob'],
      time_window: { start: '08:00', end: '18:00', timezone: 'Europe/Berlin', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] },
      allowed_ips: ['10.0.0.0/8', '2001:db8::/32'],
    },
    actions: [{ type: 'block' }, { type: 'alert', severity: 'critical', channels: ['security-team'] }],
  };

  it.each([
    ['inside the window from an allowed IPv4 address', {}, null],
    ['a user the policy does not govern', { user: 'carol', timestamp: at('2026-03-07T03:00:00Z') }, null],
    ['outside the window (Saturday)', { timestamp: at('2026-03-07T10:00:00Z') }, ['user', 'time_window']],
    ['before 08:00 Berlin time (06:30 UTC is 07:30 CET)', { timestamp: at('2026-03-04T06:30:00Z') }, ['user', 'time_window']],
    ['from an address outside the ranges', { source_ip: '192.168.0.5' }, ['user', 'ip_restriction']],
    ['from an allowed IPv6 address', { source_ip: '2001:db8::42' }, null],
    ['from a disallowed IPv6 address', { source_ip: '2001:dead::1' }, ['user', 'ip_restriction']],
    ['from outside the ranges and outside the window', { source_ip: '8.8.8.8', timestamp: at('2026-03-08T23:00:00Z') }, ['user', 'time_window', 'ip_restriction']],
    ['without a source address inside the window', { source_ip: undefined }, null],
  ])('%s', (_label, extra, expected) => {
    const result = simulate(policy('access_control', config), event(extra as Partial<EngineEvent>));
    expect(result.matched_conditions.map((c) => c.type)).toEqual(expected ?? []);
    expect(result.would_trigger).toBe(expected !== null);
    if (expected) {
      expect(result.actions_would_execute).toEqual([{ type: 'block', severity: 'high' }, { type: 'alert', severity: 'critical', channels: ['security-team'] }]);
      expect(result.evaluation).toMatchObject({ outcome: 'violation', action_taken: 'blocked', severity: 'critical' });
      for (const c of result.matched_conditions) expect(c.reason.length).toBeGreaterThan(10);
    }
  });

  it('says why in words', () => {
    const result = simulate(policy('access_control', config), event({ timestamp: at('2026-03-07T10:00:00Z'), source_ip: '192.168.0.5' }));
    expect(result.matched_conditions).toEqual([
      { type: 'user', reason: 'user "alice" is governed by this policy' },
      { type: 'time_window', reason: 'saturday 11:00 Europe/Berlin is outside monday, tuesday, wednesday, thursday, friday 08:00-18:00 Europe/Berlin' },
      { type: 'ip_restriction', reason: '192.168.0.5 is not in the allowed ranges (10.0.0.0/8, 2001:db8::/32)' },
    ]);
  });

  it('with only log actions is a match, not a violation', () => {
    const result = simulate(policy('access_control', { ...config, actions: [{ type: 'log' }] }), event({ source_ip: '1.1.1.1' }));
    expect(result.evaluation).toMatchObject({ outcome: 'match', action_taken: 'logged' });
  });
});

describe('query_control', () => {
  const config = {
    rules: [
      { name: 'no drops', pattern: '\\bDROP\\s+(TABLE|DATABASE)\\b', action: 'block', severity: 'critical', message: 'DROP is not allowed' },
      { name: 'unbounded delete', pattern: '^\\s*DELETE\\s+FROM\\s+\\S+\\s*;?\\s*$', action: 'alert', severity: 'high' },
      { name: 'sleep probes', pattern: 'pg_sleep\\s*\\(', action: 'log' },
    ],
    exceptions: { users: ['dba'], applications: ['migrator'] },
  };

  it.each([
    ['a harmless query', { query: 'SELECT * FROM t WHERE id = 1' }, [], null],
    ['a DROP TABLE', { query: 'drop table customers' }, ['no drops'], 'blocked'],
    ['an unbounded DELETE', { query: 'DELETE FROM accounts;' }, ['unbounded delete'], 'alerted'],
    ['a sleep probe', { query: "SELECT pg_sleep(5)" }, ['sleep probes'], 'logged'],
    ['two rules at once', { query: 'DROP DATABASE x; select pg_sleep(1)' }, ['no drops', 'sleep probes'], 'blocked'],
    ['an exempt user with an exempt application', { query: 'drop table customers', user: 'dba', client_application: 'migrator' }, [], null],
    ['an exempt user with another application', { query: 'drop table customers', user: 'dba', client_application: 'psql' }, ['no drops'], 'blocked'],
    ['an exempt application named by another user', { query: 'drop table customers', user: 'mallory', client_application: 'migrator' }, ['no drops'], 'blocked'],
    ['no query at all', { query: undefined }, [], null],
  ])('%s', (_label, extra, rules, actionTaken) => {
    const result = simulate(policy('query_control', config), event(extra as Partial<EngineEvent>));
    expect(result.matched_conditions.map((c) => c.reason.match(/rule "([^"]+)"/)?.[1])).toEqual(rules);
    expect(result.evaluation?.action_taken ?? null).toBe(actionTaken);
    if (rules.length) expect(result.matched_conditions.every((c) => c.type === 'query_pattern')).toBe(true);
  });

  it('names the executed actions with their severity', () => {
    const result = simulate(policy('query_control', config), event({ query: 'DROP TABLE a; DELETE FROM b' }));
    expect(result.actions_would_execute).toEqual([{ type: 'block', severity: 'critical' }]);
    expect(result.evaluation).toMatchObject({ severity: 'critical', rule_name: 'no drops', message: 'DROP is not allowed', outcome: 'violation' });
  });
});

describe('exceptions', () => {
  const rules = [{ name: 'no drops', pattern: '\\bdrop\\s+table\\b', action: 'block' }];
  const triggers = (exceptions: unknown, sample: Partial<EngineEvent>) =>
    simulate(policy('query_control', { rules, exceptions }), event({ query: 'DROP TABLE t', ...sample })).would_trigger;

  it('ignores an application-only exemption: application_name is chosen by the client', () => {
    expect(triggers({ applications: ['migrator'] }, { user: 'anyone', client_application: 'migrator' })).toBe(true);
    expect(triggers({ users: [], applications: ['migrator'] }, { user: 'anyone', client_application: 'migrator' })).toBe(true);
  });

  it('exempts a user and application pair only together', () => {
    const exceptions = { users: ['deployer'], applications: ['migrator'] };
    expect(triggers(exceptions, { user: 'deployer', client_application: 'migrator' })).toBe(false);
    expect(triggers(exceptions, { user: 'deployer', client_application: 'psql' })).toBe(true);
    expect(triggers(exceptions, { user: 'deployer' })).toBe(true);
    // A spoofed PGAPPNAME from another user earns nothing.
    expect(triggers(exceptions, { user: 'mallory', client_application: 'migrator' })).toBe(true);
  });

  it('exempts listed users whatever their application when no application is listed', () => {
    expect(triggers({ users: ['dba'] }, { user: 'dba', client_application: 'anything' })).toBe(false);
    expect(triggers({ users: ['dba'] }, { user: 'dba' })).toBe(false);
    expect(triggers({ users: ['dba'] }, { user: 'other' })).toBe(true);
  });

  it('refuses an application-only exemption at save, not when a stored policy is loaded', () => {
    const stored = policy('query_control', { rules, exceptions: { applications: ['migrator'] } });
    expect(compilePolicy(stored, 'config', { forSave: true })).toEqual({
      ok: false,
      errors: [{ field: 'config.exceptions.applications', message: expect.stringContaining('application_name is chosen by the database client') }],
    });
    expect(compilePolicy(stored).ok).toBe(true);
    expect(compilePolicy(policy('query_control', { rules, exceptions: { users: ['dba'], applications: ['migrator'] } }), 'config', { forSave: true }).ok).toBe(true);
  });

  it('counts the enabled policies whose application-only exemption is ignored', () => {
    const engine = new PolicyEngine();
    engine.apply({ ...policy('query_control', { rules, exceptions: { applications: ['migrator'] } }, { id: 'p1' }), version: 1 });
    engine.apply({ ...policy('query_control', { rules, exceptions: { users: ['dba'], applications: ['migrator'] } }, { id: 'p2' }), version: 1 });
    expect(engine.untrustedExemptionCount).toBe(1);
    expect(engine.hasUntrustedExemption('p1')).toBe(true);
    expect(engine.hasUntrustedExemption('p2')).toBe(false);
    engine.apply({ ...policy('query_control', { rules, exceptions: { users: ['dba'], applications: ['migrator'] } }, { id: 'p1' }), version: 2 });
    expect(engine.untrustedExemptionCount).toBe(0);
  });
});

describe('data_protection', () => {
  const config = {
    rules: [
      { name: 'cards', columns: ['payments.card_number'], method: 'partial', show_last: 4 },
      { name: 'ssn', columns: ['*.ssn'], method: 'hash' },
      { name: 'medical', columns: ['patients.*'], classifications: ['phi'], method: 'redact' },
    ],
    exceptions: { users: ['auditor'] },
  };

  it.each([
    ['a query on other columns', { query: 'SELECT id, total FROM payments' }, []],
    ['a qualified protected column', { query: 'SELECT p.card_number FROM payments p' }, ['cards']],
    ['the column and its table named apart', { query: 'SELECT card_number FROM payments' }, ['cards']],
    ['the same column name in another table', { query: 'SELECT card_number FROM gift_cards' }, []],
    ['a column protected in every table', { query: 'select "SSN" from employees' }, ['ssn']],
    ['every column of a table', { query: 'SELECT * FROM clinic.patients' }, ['medical']],
    ['classified data in the details', { query: 'SELECT 1', details: { classifications: ['PHI'] } }, ['medical']],
    ['an exempt user', { query: 'SELECT ssn FROM employees', user: 'auditor' }, []],
  ])('%s', (_label, extra, rules) => {
    const result = simulate(policy('data_protection', config), event(extra as Partial<EngineEvent>));
    expect(result.evaluation?.masking?.map((m) => m.rule) ?? []).toEqual(rules);
    if (rules.length) {
      expect(result.evaluation).toMatchObject({ outcome: 'match', action_taken: 'masked' });
      expect(result.actions_would_execute).toEqual([{ type: 'mask' }]);
    }
  });

  it('says how to mask', () => {
    const result = simulate(policy('data_protection', config), event({ query: 'SELECT card_number, ssn FROM payments' }));
    expect(result.evaluation?.masking).toEqual([
      { rule: 'cards', method: 'partial', columns: ['payments.card_number'], classifications: [], show_first: 0, show_last: 4 },
      { rule: 'ssn', method: 'hash', columns: ['*.ssn'], classifications: [] },
    ]);
  });

  it('is a violation when it also blocks or alerts', () => {
    const result = simulate(policy('data_protection', { ...config, actions: [{ type: 'alert', severity: 'high' }] }), event({ query: 'SELECT ssn FROM t' }));
    expect(result.evaluation).toMatchObject({ outcome: 'violation', action_taken: 'alerted', severity: 'high', alert: { type: 'policy_violation', severity: 'high' } });
  });
});

describe('alerting', () => {
  const failedLogins = {
    conditions: {
      event_types: ['user.login_failed'],
      threshold: { count: 3, window_minutes: 10, group_by: ['user'] },
    },
    alert: { severity: 'high', title: 'Brute force?' },
  };

  it('raises when N matching events of one user fall within the window, and counts again afterwards', () => {
    const engine = new PolicyEngine();
    engine.apply({ ...policy('alerting', failedLogins), version: 1 });
    const login = (user: string, minute: number) =>
      engine.evaluate(event({ type: 'user.login_failed', user, timestamp: at('2026-03-04T10:00:00Z') + minute * 60_000 }));
    expect(login('mallory', 0)).toEqual([]);
    expect(login('mallory', 4)).toEqual([]);
    expect(login('bob', 5)).toEqual([]); // another group
    const [raised] = login('mallory', 9);
    expect(raised).toMatchObject({ outcome: 'violation', action_taken: 'alerted', alert: { type: 'threshold_breach', severity: 'high', title: 'Brute force?' } });
    expect(raised!.matched_conditions.at(-1)).toEqual({ type: 'threshold', reason: '3 matching events for user=mallory within 10 minutes (threshold 3)' });
    expect(login('mallory', 10)).toEqual([]); // the window starts again after an alert
  });

  it('forgets events that slid out of the window', () => {
    const engine = new PolicyEngine();
    engine.apply({ ...policy('alerting', failedLogins), version: 1 });
    const login = (minute: number) => engine.evaluate(event({ type: 'user.login_failed', user: 'eve', timestamp: at('2026-03-04T10:00:00Z') + minute * 60_000 }));
    expect(login(0)).toEqual([]);
    expect(login(5)).toEqual([]);
    expect(login(11)).toEqual([]); // minute 0 is out: 2 in window
    expect(login(12)).toHaveLength(1);
  });

  it.each([
    ['an event type pattern', { event_types: ['security.*'] }, { type: 'security.anomaly' }, true],
    ['an event type pattern that does not match', { event_types: ['security.*'] }, { type: 'database.query' }, false],
    ['severities', { severities: ['critical'] }, { severity: 'critical' }, true],
    ['a field equality', { fields: [{ field: 'details.threat_type', operator: 'equals', value: 'sql_injection' }] }, { details: { threat_type: 'sql_injection' } }, true],
    ['a numeric field', { fields: [{ field: 'details.rows', operator: 'gte', value: 10000 }] }, { details: { rows: 50_000 } }, true],
    ['a numeric field below', { fields: [{ field: 'details.rows', operator: 'gte', value: 10000 }] }, { details: { rows: 5 } }, false],
    ['a field pattern', { fields: [{ field: 'query', operator: 'matches', value: 'COPY .* TO' }] }, { query: "copy users to '/tmp/x'" }, true],
    ['a set', { fields: [{ field: 'user', operator: 'in', value: ['root', 'sa'] }] }, { user: 'sa' }, true],
    ['users', { users: ['root'] }, { user: 'alice' }, false],
  ])('matches on %s', (_label, conditions, extra, expected) => {
    const result = simulate(policy('alerting', { conditions, alert: { severity: 'medium' } }), event(extra as Partial<EngineEvent>));
    expect(result.would_trigger).toBe(expected);
    if (expected) expect(result.actions_would_execute).toEqual([{ type: 'alert', severity: 'medium' }]);
  });

  it('bounds the memory of its windows', () => {
    const windows = new SlidingWindows(100);
    for (let i = 0; i < 1000; i++) windows.hit(`k${i}`, i, 60_000);
    expect(windows.size).toBe(100);
  });
});

describe('config validation (422 material)', () => {
  const errorsOf = (type: PolicyTypeName, config: unknown) => {
    const result = compilePolicy(policy(type, config));
    return result.ok ? [] : result.errors.map((e) => e.field);
  };

  it.each([
    ['access_control', { conditions: { allowed_ips: ['10.0.0.0/33'] }, actions: [{ type: 'block' }] }, ['config.conditions.allowed_ips[0]']],
    ['access_control', { conditions: { time_window: { start: '9:00', end: '25:00', timezone: 'Mars/Olympus', days: ['funday'] } }, actions: [{ type: 'block' }] },
      ['config.conditions.time_window.start', 'config.conditions.time_window.end', 'config.conditions.time_window.timezone', 'config.conditions.time_window.days[0]']],
    ['access_control', { conditions: {}, actions: [{ type: 'block' }] }, ['config.conditions']],
    ['access_control', { conditions: { allowed_ips: ['10.0.0.0/8'] }, actions: [{ type: 'explode' }] }, ['config.actions[0].type']],
    ['access_control', { conditions: { allowed_ips: ['10.0.0.0/8'] }, actions: [] }, ['config.actions']],
    ['query_control', { rules: [{ name: 'x', pattern: '(a)\\1', action: 'block' }] }, ['config.rules[0].pattern']],
    ['query_control', { rules: [{ name: 'x', pattern: 'a', action: 'block' }, { name: 'x', pattern: 'b', action: 'block' }] }, ['config.rules[1].name']],
    ['query_control', { rules: [{ name: 'x', pattern: 'a', action: 'block', extra: 1 }] }, ['config.rules[0].extra']],
    ['data_protection', { rules: [{ name: 'x', method: 'redact' }] }, ['config.rules[0]']],
    ['data_protection', { rules: [{ name: 'x', columns: ['a.b.c'], method: 'shred' }] }, ['config.rules[0].method']],
    ['data_protection', { rules: [{ name: 'x', columns: ['a.b.c'], method: 'hash' }] }, ['config.rules[0].columns[0]']],
    ['alerting', { conditions: { event_types: ['nope.*', 'database.query', 'database.nope'] }, alert: { severity: 'high' } }, ['config.conditions.event_types[0]', 'config.conditions.event_types[2]']],
    ['alerting', { conditions: { fields: [{ field: 'query', operator: 'matches', value: '(?=x)' }] }, alert: { severity: 'high' } }, ['config.conditions.fields[0].value']],
    ['alerting', { conditions: {}, alert: { severity: 'urgent' } }, ['config.alert.severity']],
  ] as const)('%s %j -> %j', (type, config, fields) => {
    expect(errorsOf(type, config)).toEqual(fields);
  });
});

describe('PolicyEngine state', () => {
  const drops = { rules: [{ name: 'no drops', pattern: 'drop\\s+table', action: 'block' }] };

  it('evaluates only the enabled policies of the event database, and follows versions', () => {
    const engine = new PolicyEngine();
    engine.apply({ ...policy('query_control', drops), version: 1 });
    engine.apply({ ...policy('query_control', drops, { id: 'pol_other', databases: ['db_other'] }), version: 1 });
    engine.apply({ ...policy('query_control', drops, { id: 'pol_all', databases: ['*'] }), version: 1 });
    const q = event({ query: 'DROP TABLE x' });
    expect(engine.evaluate(q).map((e) => e.policy_id).sort()).toEqual(['pol_all', 'pol_test']);

    expect(engine.apply({ ...policy('query_control', drops, { enabled: false }), version: 2 })).toBe('applied');
    expect(engine.evaluate(q).map((e) => e.policy_id)).toEqual(['pol_all']);
    // A late copy of version 1 (bootstrap racing the change stream) does not bring it back.
    expect(engine.apply({ ...policy('query_control', drops), version: 1 })).toBe('stale');
    expect(engine.evaluate(q).map((e) => e.policy_id)).toEqual(['pol_all']);
    engine.apply({ ...policy('query_control', drops, { id: 'pol_all', databases: ['*'], deleted: true, enabled: false }), version: 2 });
    expect(engine.evaluate(q)).toEqual([]);
  });

  it('marks the evaluations of a shadow-mode policy, and follows a change of mode', () => {
    const engine = new PolicyEngine();
    engine.apply({ ...policy('query_control', drops, { enforcement_mode: 'shadow' }), version: 1 });
    engine.apply({ ...policy('query_control', drops, { id: 'pol_enforced' }), version: 1 });
    const q = event({ query: 'DROP TABLE x' });
    const byId = () => Object.fromEntries(engine.evaluate(q).map((e) => [e.policy_id, e]));
    // The verdict is what enforcing would do; the flag says it must not be enforced.
    expect(byId().pol_test).toMatchObject({ action_taken: 'blocked', outcome: 'violation', shadow: true });
    expect(byId().pol_enforced).not.toHaveProperty('shadow');
    engine.apply({ ...policy('query_control', drops, { enforcement_mode: 'enforce' }), version: 2 });
    expect(byId().pol_test).not.toHaveProperty('shadow');
  });

  it('does not enforce a snapshot whose config does not compile', () => {
    const engine = new PolicyEngine();
    expect(engine.apply({ ...policy('query_control', { rules: [{ name: 'x', pattern: '(?=', action: 'block' }] }), version: 1 })).toBe('invalid');
    expect(engine.enabledCount).toBe(0);
  });
});
