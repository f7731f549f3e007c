import { ConfigError, loadConfig } from '@vigil/platform';
import { pgProxyConfigSpec } from './pg-proxy.config';

describe('pg-proxy configuration', () => {
  it('refuses to start with the removed PROXY_SHADOW_POLICIES set, naming the policy field instead', () => {
    let error: unknown;
    try {
      loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_SHADOW_POLICIES: 'pol_a,pol_b' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([{ variable: 'PROXY_SHADOW_POLICIES', message: expect.stringContaining('enforcement_mode') }]);
  });

  it('starts without it (unset or empty)', () => {
    expect(() => loadConfig('pg-proxy', pgProxyConfigSpec, {})).not.toThrow();
    expect(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_SHADOW_POLICIES: ' ' })).not.toThrow();
  });
});
