import { emptyPolicyForm, errorFor, policyFormFromPolicy, policyFormToBody, problemFieldErrors } from './policy-form';

describe('the policy form', () => {
  it('builds a blocking query rule policy', () => {
    const form = { ...emptyPolicyForm('query_control'), name: ' no drops ', databases: 'db_a, db_b', rules: [{ name: 'drops', pattern: '\\bDROP\\b', action: 'block' as const, severity: 'critical' as const, message: 'no', caseSensitive: false }] };
    expect(policyFormToBody(form)).toEqual({
      errors: {},
      body: { name: 'no drops', description: '', type: 'query_control', databases: ['db_a', 'db_b'], enabled: true, enforcement_mode: 'enforce', config: { rules: [{ name: 'drops', pattern: '\\bDROP\\b', action: 'block', severity: 'critical', message: 'no' }] } },
    });
  });

  it('marks missing names, patterns and databases with the API field paths', () => {
    const { errors } = policyFormToBody({ ...emptyPolicyForm('query_control'), databases: ' ' });
    expect(errors).toEqual({ name: 'is required', databases: expect.any(String), 'config.rules[0].name': 'is required', 'config.rules[0].pattern': 'is required' });
  });

  it('validates access control addresses and time windows', () => {
    const form = { ...emptyPolicyForm('access_control'), name: 'office', allowedIps: '10.0.0.0/8\n300.1.1.1', window: true, start: '9:00', timezone: 'Nowhere/City', days: ['friday', 'monday'] };
    const { body, errors } = policyFormToBody(form);
    expect(errors).toEqual({
      'config.conditions.allowed_ips[1]': '"300.1.1.1" is not an IPv4 address',
      'config.conditions.time_window.start': 'must be a time of day HH:MM',
      'config.conditions.time_window.timezone': '"Nowhere/City" is not an IANA time zone',
    });
    expect((body.config as { conditions: { time_window: { days: string[] } } }).conditions.time_window.days).toEqual(['monday', 'friday']);
  });

  it('builds alerting thresholds and checks their numbers', () => {
    const form = { ...emptyPolicyForm('alerting'), name: 'failed logins', eventTypes: 'user.login_failed', threshold: true, count: '5', windowMinutes: '0', groupBy: ['user'] };
    const { body, errors } = policyFormToBody(form);
    expect(errors).toEqual({ 'config.conditions.threshold.window_minutes': expect.any(String) });
    expect(body.config).toEqual({ conditions: { event_types: ['user.login_failed'], threshold: { count: 5, window_minutes: 0, group_by: ['user'] } }, alert: { severity: 'high' } });
  });

  it('round-trips a stored policy and keeps what the form does not show', () => {
    const stored = {
      type: 'query_control', name: 'p', description: 'd', databases: ['*'], enabled: false, enforcement_mode: 'shadow',
      config: { rules: [{ name: 'r', pattern: 'x', action: 'alert', severity: 'low', channels: ['pager'], case_sensitive: true }], exceptions: { users: ['etl'], applications: ['backup'] } },
    };
    const form = policyFormFromPolicy(stored);
    expect(form).toMatchObject({ shadow: true, enabled: false, exceptUsers: 'etl' });
    expect(policyFormToBody(form, stored.config).body).toEqual({
      name: 'p', description: 'd', type: 'query_control', databases: ['*'], enabled: false, enforcement_mode: 'shadow',
      config: { rules: [{ channels: ['pager'], name: 'r', pattern: 'x', action: 'alert', severity: 'low', case_sensitive: true }], exceptions: { users: ['etl'], applications: ['backup'] } },
    });
  });

  it('builds data protection rules with partial masks', () => {
    const form = { ...emptyPolicyForm('data_protection'), name: 'cards', maskRules: [{ name: 'pan', columns: 'card_number', classifications: '', method: 'partial' as const, showFirst: '', showLast: '4' }] };
    expect(policyFormToBody(form).body.config).toEqual({ rules: [{ name: 'pan', method: 'partial', columns: ['card_number'], show_last: 4 }] });
  });

  it('reads field errors of a problem document and finds those of a field and its items', () => {
    const errors = problemFieldErrors({ title: 'Bad', errors: [{ field: 'config.rules[0].pattern', message: 'is not valid' }, { field: 'name', message: 'too long' }, { nope: 1 }] });
    expect(errors).toEqual({ 'config.rules[0].pattern': 'is not valid', name: 'too long' });
    expect(errorFor(errors, 'name')).toBe('too long');
    expect(errorFor(errors, 'config.rules')).toBe('[0].pattern is not valid');
    expect(errorFor(errors, 'databases')).toBeUndefined();
  });
});
