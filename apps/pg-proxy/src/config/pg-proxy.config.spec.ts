import { ConfigError, loadConfig } from '@vigil/platform';
import { proxyConfigView } from '../proxy/proxy.service';
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

  it('reaches the server through its Unix-domain socket when PROXY_UPSTREAM_SOCKET_DIR is set (socket file named by the port)', () => {
    const config = loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM: 'db.internal:5433', PROXY_UPSTREAM_SOCKET_DIR: '/var/run/postgresql/' });
    expect(proxyConfigView(config).upstreamSocket).toBe('/var/run/postgresql/.s.PGSQL.5433');
    expect(proxyConfigView(loadConfig('pg-proxy', pgProxyConfigSpec, {})).upstreamSocket).toBeUndefined();
  });

  it('refuses a relative socket directory, and TLS toward the server through a Unix-domain socket', () => {
    expect(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM_SOCKET_DIR: 'run/postgresql' })).toThrow(/PROXY_UPSTREAM_SOCKET_DIR must be an absolute path/);
    const config = loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM_SOCKET_DIR: '/run/postgresql', PROXY_UPSTREAM_TLS: 'require' });
    expect(() => proxyConfigView(config)).toThrow(/PROXY_UPSTREAM_TLS=require cannot be honoured through PROXY_UPSTREAM_SOCKET_DIR/);
  });
});
