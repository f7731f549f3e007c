import { ConfigError } from '@vigil/platform';
import { rolesPlanFromEnv, serviceUrlVariable } from './database-commands';
import { credentialOf } from './roles';

describe('role bootstrap configuration', () => {
  const url = (role: string, password = 'pw', db = 'vigil') => `postgres://${role}:${password}@db.example:5432/${db}`;
  const env = {
    DATABASE_ADMIN_URL: url('postgres'),
    DATABASE_OWNER_URL: url('vigil_owner', 'o%40wn'),
    AUTH_DATABASE_URL: url('vigil_auth'),
    POLICY_DATABASE_URL: url('vigil_policy'),
    EVENT_INGEST_DATABASE_URL: url('vigil_event_ingest'),
    DELIVERY_DATABASE_URL: url('vigil_delivery'),
  };

  it('reads each role and its percent-decoded password from the URL the role is used with', () => {
    const { plan } = rolesPlanFromEnv(env);
    expect(plan.owner).toEqual({ role: 'vigil_owner', password: 'o@wn' });
    expect(plan.services.map((s) => [s.schema, s.role])).toEqual([
      ['auth', 'vigil_auth'],
      ['policy', 'vigil_policy'],
      ['event_ingest', 'vigil_event_ingest'],
      ['delivery', 'vigil_delivery'],
    ]);
    expect(plan.connectOnly).toEqual([]);
  });

  it('names each missing URL, and a URL for another database', () => {
    let error: unknown;
    try {
      rolesPlanFromEnv({ ...env, POLICY_DATABASE_URL: undefined, DELIVERY_DATABASE_URL: url('vigil_delivery', 'pw', 'other') });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['POLICY_DATABASE_URL']);
    expect(() => rolesPlanFromEnv({ ...env, DELIVERY_DATABASE_URL: url('vigil_delivery', 'pw', 'other') })).toThrow(
      /DELIVERY_DATABASE_URL must name the same database as DATABASE_ADMIN_URL \(vigil\)/,
    );
  });

  it('refuses a URL without a role', () => {
    expect(() => credentialOf('postgres://db.example:5432/vigil')).toThrow(/names no user/);
  });

  it('names the runtime URL variable after the service', () => {
    expect(serviceUrlVariable('event-ingest')).toBe('EVENT_INGEST_DATABASE_URL');
  });
});
