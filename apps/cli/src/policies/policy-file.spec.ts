import { ExitCode } from '../errors.ts';
import { parsePolicyFile, PolicyFileError, serializePolicies } from './policy-file.ts';

const problemsOf = (text: string) => {
  try {
    parsePolicyFile(text, 'policies.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyFileError);
    expect((error as PolicyFileError).exitCode).toBe(ExitCode.usage);
    return (error as PolicyFileError).problems;
  }
  throw new Error('the file was accepted');
};

describe('parsePolicyFile', () => {
  it('reads the mapping form, filling omitted fields with the create defaults', () => {
    const policies = parsePolicyFile(
      ['policies:', '  no-drops:', '    type: query_control', '    databases: ["*"]', '    config: { rules: [] }'].join('\n'),
      'p.yaml',
    );
    expect(policies).toEqual([
      { name: 'no-drops', type: 'query_control', description: '', enabled: false, enforcement_mode: 'enforce', databases: ['*'], config: { rules: [] } },
    ]);
  });

  it('reads the list form and JSON', () => {
    const json = JSON.stringify({ policies: [{ name: 'a', type: 'alerting', enabled: true, enforcement_mode: 'shadow', description: 'd', databases: ['db_x'], config: {} }] });
    expect(parsePolicyFile(json, 'p.json')).toEqual([
      { name: 'a', type: 'alerting', description: 'd', enabled: true, enforcement_mode: 'shadow', databases: ['db_x'], config: {} },
    ]);
  });

  it('names the path and line of every bad field', () => {
    const problems = problemsOf(
      [
        'policies:', // 1
        '  - name: ok', // 2
        '    type: query_control', // 3
        '    databases: [db_a]', // 4
        '    config: {}', // 5
        '  - name: bad', // 6
        '    type: firewall', // 7
        '    enabled: "yes"', // 8
        '    databases: [db_a, orders]', // 9
        '    config: [1]', // 10
        '    colour: red', // 11
      ].join('\n'),
    );
    expect(problems).toEqual([
      { path: 'policies[1].colour', message: expect.stringContaining('unknown field'), line: 11 },
      { path: 'policies[1].type', message: expect.stringContaining('one of access_control'), line: 7 },
      { path: 'policies[1].enabled', message: 'must be true or false', line: 8 },
      { path: 'policies[1].databases[1]', message: 'must be a database id (db_...) or *', line: 9 },
      { path: 'policies[1].config', message: expect.stringContaining('a mapping'), line: 10 },
    ]);
  });

  it('reports a missing field at the policy that lacks it, and duplicate names in the list form', () => {
    const problems = problemsOf(['policies:', '  - name: a', '    type: alerting', '    config: {}', '  - name: a', '    type: alerting', '    databases: []', '    config: {}'].join('\n'));
    expect(problems).toEqual([
      { path: 'policies[0].databases', message: expect.stringContaining('is required'), line: 2 },
      { path: 'policies[1].name', message: 'duplicates the policy at policies[0]', line: 5 },
    ]);
  });

  it('refuses duplicate keys, a name that disagrees with its key, unknown top-level keys and broken YAML', () => {
    expect(problemsOf('policies:\n  a: {type: alerting, databases: [], config: {}}\n  a: {type: alerting, databases: [], config: {}}\n')[0]).toMatchObject({
      message: expect.stringContaining('unique'),
      line: 3,
    });
    expect(problemsOf('policies:\n  a: {name: b, type: alerting, databases: [], config: {}}\n')).toEqual([
      { path: 'policies.a.name', message: 'must be left out or equal the key', line: 2 },
    ]);
    expect(problemsOf('policy:\n  a: {}\n')).toEqual([
      { path: 'policy', message: expect.stringContaining('unknown top-level key'), line: 1 },
      { path: 'policies', message: expect.stringContaining('is required'), line: 1 },
    ]);
    expect(problemsOf('policies: [\n')[0]).toMatchObject({ path: '' });
    expect(problemsOf('- 1\n')).toEqual([{ path: '', message: expect.stringContaining('mapping with a `policies` key'), line: 1 }]);
  });

  it('quotes policy names that are not plain words in paths', () => {
    expect(problemsOf('policies:\n  "orders after hours":\n    type: nope\n    databases: []\n    config: {}\n')).toEqual([
      { path: 'policies["orders after hours"].type', message: expect.any(String), line: 3 },
    ]);
  });
});

describe('serializePolicies', () => {
  const policies = [
    { name: 'z', type: 'alerting' as const, description: '', enabled: true, enforcement_mode: 'enforce' as const, databases: ['*'], config: { conditions: [{ a: 1 }] } },
    { name: 'a b', type: 'query_control' as const, description: 'multi\nline', enabled: false, enforcement_mode: 'shadow' as const, databases: [], config: {} },
  ];

  it.each(['yaml', 'json'] as const)('writes %s that reads back to the same policies, sorted by name', (format) => {
    const text = serializePolicies(policies, format, 'exported\nfor a test');
    expect(parsePolicyFile(text, `p.${format}`)).toEqual([policies[1], policies[0]]);
  });

  it('writes the header as YAML comments', () => {
    expect(serializePolicies(policies, 'yaml', 'line one\nline two').startsWith('# line one\n# line two\n')).toBe(true);
  });
});
