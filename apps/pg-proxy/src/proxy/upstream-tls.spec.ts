import { ConfigError, loadConfig } from '@vigil/platform';
import { pgProxyConfigSpec } from '../config/pg-proxy.config';
import { catalogRolePrivileges, type CatalogRoleRow } from '../masking/catalog';
import { proxyConfigView } from './proxy.service';
import { isLoopback, pgSslOption, resolveUpstreamTls, tlsOptions, type UpstreamTlsSettings } from './upstream-tls';

const PEM = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
const files: Record<string, Buffer> = { '/etc/vigil/postgres/ca.pem': PEM, '/etc/vigil/postgres/key.der': Buffer.from([0x30, 0x82, 0x01]) };
const read = (path: string): Buffer => {
  const content = files[path];
  if (!content) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return content;
};
const resolve = (settings: UpstreamTlsSettings, host = 'db.internal') => resolveUpstreamTls(settings, host, read);
const problems = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('TLS toward the server (PROXY_UPSTREAM_TLS)', () => {
  it('refuses prefer at start, saying why and what to set instead', () => {
    expect(problems(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM_TLS: 'prefer' }))).toEqual([
      { variable: 'PROXY_UPSTREAM_TLS', message: expect.stringMatching(/no longer accepts prefer, which falls back to plaintext without a word.*verify-full.*disable/) },
    ]);
    expect(problems(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM_TLS: 'verify-ca' }))).toEqual([
      { variable: 'PROXY_UPSTREAM_TLS', message: 'must be one of disable, require, verify-full (got "verify-ca")' },
    ]);
    expect(loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM_TLS: ' ' }).PROXY_UPSTREAM_TLS).toBeUndefined();
  });

  it('is verify-full whenever a CA file is given, and by default toward a server on another host', () => {
    expect(resolve({ PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/ca.pem' })).toEqual({ mode: 'verify-full', ca: PEM, chosen: 'ca-file' });
    expect(resolve({ PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/ca.pem' }, '127.0.0.1')).toEqual({ mode: 'verify-full', ca: PEM, chosen: 'ca-file' });
    expect(resolve({ PROXY_UPSTREAM_TLS: 'verify-full', PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/ca.pem' })).toEqual({ mode: 'verify-full', ca: PEM, chosen: 'explicit' });
    // No CA file: Node's bundled public CAs (a managed service's publicly signed certificate).
    expect(resolve({})).toEqual({ mode: 'verify-full', chosen: 'default-remote' });
    expect(resolve({}, '10.0.0.5')).toEqual({ mode: 'verify-full', chosen: 'default-remote' });
  });

  it('is plaintext by default only toward this host (loopback) or through the Unix-domain socket', () => {
    for (const host of ['127.0.0.1', '127.3.0.9', 'localhost', 'LOCALHOST', '::1', '[::1]']) expect(resolve({}, host)).toEqual({ mode: 'disable', chosen: 'default-local' });
    expect(resolve({ PROXY_UPSTREAM_SOCKET_DIR: '/run/postgresql' })).toEqual({ mode: 'disable', chosen: 'socket' });
    expect(resolve({ PROXY_UPSTREAM_SOCKET_DIR: '/run/postgresql', PROXY_UPSTREAM_TLS: 'disable' })).toEqual({ mode: 'disable', chosen: 'explicit' });
    expect(['127.0.0.1.example.com', '128.0.0.1', '::2', 'localhost.example.com'].filter(isLoopback)).toEqual([]);
  });

  it('takes disable and require only when written out, and never together with a CA file', () => {
    expect(resolve({ PROXY_UPSTREAM_TLS: 'disable' })).toEqual({ mode: 'disable', chosen: 'explicit' });
    expect(resolve({ PROXY_UPSTREAM_TLS: 'require' })).toEqual({ mode: 'require', chosen: 'explicit' });
    expect(problems(() => resolve({ PROXY_UPSTREAM_TLS: 'require', PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/ca.pem' }))).toEqual([
      {
        variable: 'PROXY_UPSTREAM_TLS',
        message: 'is require, which does not check the server certificate, but PROXY_UPSTREAM_TLS_CA_FILE is set: unset PROXY_UPSTREAM_TLS (verify-full is the mode with a CA file) or unset PROXY_UPSTREAM_TLS_CA_FILE',
      },
    ]);
    expect(problems(() => resolve({ PROXY_UPSTREAM_TLS: 'disable', PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/ca.pem' }))).toEqual([
      { variable: 'PROXY_UPSTREAM_TLS', message: expect.stringMatching(/^is disable, which sends everything in plaintext, but PROXY_UPSTREAM_TLS_CA_FILE is set/) },
    ]);
  });

  it('refuses TLS settings that the Unix-domain socket cannot honour, naming every one', () => {
    expect(problems(() => resolve({ PROXY_UPSTREAM_SOCKET_DIR: '/run/postgresql', PROXY_UPSTREAM_TLS: 'verify-full', PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/ca.pem' }))).toEqual([
      { variable: 'PROXY_UPSTREAM_TLS', message: expect.stringContaining('is verify-full, which cannot be honoured through PROXY_UPSTREAM_SOCKET_DIR') },
      { variable: 'PROXY_UPSTREAM_TLS_CA_FILE', message: expect.stringContaining('PROXY_UPSTREAM_SOCKET_DIR reaches the server through its Unix-domain socket') },
    ]);
  });

  it('refuses a CA file it cannot read or that holds no PEM certificate', () => {
    expect(problems(() => resolve({ PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/missing.pem' }))).toEqual([
      { variable: 'PROXY_UPSTREAM_TLS_CA_FILE', message: 'cannot be read (ENOENT: /etc/vigil/postgres/missing.pem)' },
    ]);
    expect(problems(() => resolve({ PROXY_UPSTREAM_TLS_CA_FILE: '/etc/vigil/postgres/key.der' }))).toEqual([
      { variable: 'PROXY_UPSTREAM_TLS_CA_FILE', message: 'is not a PEM certificate file (/etc/vigil/postgres/key.der)' },
    ]);
  });

  it('reports contradictions through the configuration view the service starts from', () => {
    const config = loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM: 'db.internal:5432', PROXY_UPSTREAM_TLS: 'require', PROXY_UPSTREAM_TLS_CA_FILE: '/nonexistent/ca.pem' });
    const found = problems(() => proxyConfigView(config));
    expect(found.map((p) => p.variable)).toEqual(['PROXY_UPSTREAM_TLS', 'PROXY_UPSTREAM_TLS_CA_FILE']);
    expect(proxyConfigView(loadConfig('pg-proxy', pgProxyConfigSpec, {})).upstreamTls).toBe('disable');
    expect(proxyConfigView(loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_UPSTREAM: 'db.internal:5432' }))).toMatchObject({ upstreamTls: 'verify-full', upstreamTlsChosen: 'default-remote' });
  });

  it('checks chain and host name in verify-full, for the sessions and the catalog connection alike', () => {
    expect(tlsOptions({ mode: 'verify-full', ca: PEM }, 'db.internal')).toEqual({ host: 'db.internal', servername: 'db.internal', rejectUnauthorized: true, ca: PEM });
    // An address is checked against the certificate's IP addresses and never sent as SNI.
    expect(tlsOptions({ mode: 'verify-full', ca: PEM }, '10.0.0.5')).toEqual({ host: '10.0.0.5', rejectUnauthorized: true, ca: PEM });
    expect(tlsOptions({ mode: 'verify-full' }, '[::1]')).toEqual({ host: '::1', rejectUnauthorized: true });
    expect(tlsOptions({ mode: 'require' }, 'db.internal')).toEqual({ host: 'db.internal', servername: 'db.internal', rejectUnauthorized: false });
    expect(tlsOptions({ mode: 'disable' }, 'db.internal')).toBeUndefined();
    expect(pgSslOption({ mode: 'verify-full', ca: PEM })).toEqual({ rejectUnauthorized: true, ca: PEM });
    expect(pgSslOption({ mode: 'verify-full' })).toEqual({ rejectUnauthorized: true });
    expect(pgSslOption({ mode: 'require' })).toEqual({ rejectUnauthorized: false });
    expect(pgSslOption({ mode: 'disable' })).toBe(false);
  });
});

describe('the catalog role', () => {
  const role = (partial: Partial<CatalogRoleRow> & { name: string }): CatalogRoleRow => ({ self: false, superuser: false, bypassrls: false, createrole: false, replication: false, ...partial });

  it('defaults: refuse a privileged role, check it from the postgres database', () => {
    const config = loadConfig('pg-proxy', pgProxyConfigSpec, {});
    expect([config.PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE, config.PROXY_CATALOG_DATABASE]).toEqual([false, 'postgres']);
    expect(() => loadConfig('pg-proxy', pgProxyConfigSpec, { PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: 'sometimes' })).toThrow(/PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE must be true or false/);
  });

  it('finds nothing in a role with only CONNECT and catalog reads', () => {
    expect(catalogRolePrivileges([role({ name: 'vigil_proxy_catalog', self: true })])).toEqual([]);
    // Membership of harmless roles (an application group) is not privilege.
    expect(catalogRolePrivileges([role({ name: 'vigil_proxy_catalog', self: true }), role({ name: 'readers' })])).toEqual([]);
  });

  it('names a superuser once, whatever else it is', () => {
    expect(catalogRolePrivileges([role({ name: 'postgres', self: true, superuser: true, bypassrls: true, replication: true }), role({ name: 'pg_read_all_data' })])).toEqual(['is a superuser']);
  });

  it('names every attribute and predefined role that reaches data, its own or of a role it may become', () => {
    expect(
      catalogRolePrivileges([
        role({ name: 'cat', self: true, createrole: true, replication: true }),
        role({ name: 'admins', superuser: true }),
        role({ name: 'rls_off', bypassrls: true }),
        role({ name: 'pg_read_all_data' }),
        role({ name: 'pg_write_all_data' }),
        role({ name: 'pg_monitor' }),
        role({ name: 'pg_read_all_stats' }),
        role({ name: 'pg_execute_server_program' }),
      ]),
    ).toEqual([
      'may create roles (CREATEROLE)',
      'may stream the whole cluster (REPLICATION)',
      'may act as the role admins, which is a superuser',
      'may act as the role rls_off, which bypasses row-level security (BYPASSRLS)',
      'may read every table (member of pg_read_all_data)',
      'may write every table (member of pg_write_all_data)',
      "may read every session's statement text (member of pg_read_all_stats, which pg_monitor includes)",
      'may run programs on the server (member of pg_execute_server_program)',
    ]);
  });
});
