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
    expect(() => proxyConfigView(config)).toThrow(/PROXY_UPSTREAM_TLS is require, which cannot be honoured through PROXY_UPSTREAM_SOCKET_DIR/);
  });

  it('adds PROXY_REDACT_PATTERNS (one pattern, or a JSON array) to the built-in redaction', () => {
    expect(loadConfig('pg-proxy', pgProxyConfigSpec, {}).PROXY_REDACT_PATTERNS).toEqual([]);
    expect(loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_REDACT_PATTERNS: 'tok_[a-z0-9]{8}' }).PROXY_REDACT_PATTERNS).toEqual(['tok_[a-z0-9]{8}']);
    const config = loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_REDACT_PATTERNS: '["api_key=(\\\\w+)", "a,b"]' });
    expect(config.PROXY_REDACT_PATTERNS).toEqual(['api_key=(\\w+)', 'a,b']);
    expect(proxyConfigView(config).redactor.redact("SELECT 'API_KEY=abc', 'a,b', pgp_sym_encrypt('d', 'K3y')")).toBe("SELECT 'API_KEY=***', '***', pgp_sym_encrypt('d', '***')");
  });

  it('refuses to start with a bad redaction pattern, naming which one and why', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig('pg-proxy', pgProxyConfigSpec, env);
      } catch (e) {
        return (e as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ PROXY_REDACT_PATTERNS: '["ok", "(a)\\\\1"]' })).toEqual([{ variable: 'PROXY_REDACT_PATTERNS', message: expect.stringMatching(/^pattern 2 is not a valid RE2 regular expression/) }]);
    expect(problems({ PROXY_REDACT_PATTERNS: '(unclosed' })).toEqual([{ variable: 'PROXY_REDACT_PATTERNS', message: expect.stringMatching(/^pattern 1 is not a valid RE2/) }]);
    expect(problems({ PROXY_REDACT_PATTERNS: '.*' })).toEqual([{ variable: 'PROXY_REDACT_PATTERNS', message: 'pattern 1 matches the empty text' }]);
    expect(problems({ PROXY_REDACT_PATTERNS: '["unterminated' })).toEqual([{ variable: 'PROXY_REDACT_PATTERNS', message: 'is not a valid JSON array of RE2 patterns' }]);
    expect(problems({ PROXY_REDACT_PATTERNS: '[1]' })).toEqual([{ variable: 'PROXY_REDACT_PATTERNS', message: 'must be a JSON array of strings (RE2 patterns)' }]);
  });

  it('defaults to masking tainted output and judging fast-path calls, and refuses unknown values of both at start', () => {
    const view = proxyConfigView(loadConfig('pg-proxy', pgProxyConfigSpec, {}));
    expect([view.maskComputed, view.functionCalls]).toEqual(['mask', 'judge']);
    expect(proxyConfigView(loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_MASK_COMPUTED: 'refuse', PROXY_FUNCTION_CALLS: 'refuse' })).functionCalls).toBe('refuse');
    expect(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_MASK_COMPUTED: 'pass' })).toThrow(/PROXY_MASK_COMPUTED/);
    expect(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_FUNCTION_CALLS: 'allow' })).toThrow(/PROXY_FUNCTION_CALLS/);
  });
});
