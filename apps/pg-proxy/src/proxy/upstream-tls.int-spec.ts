import { execFileSync, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { type RunningService, startService } from '@vigil/platform';
import { type ChildService, freePort, testRpcFiles, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { Catalog } from '../masking/catalog';
import { pgProxyService } from '../pg-proxy.service-definition';
import { encodeSslRequest } from '../protocol/messages';
import { snapshot, startTestProxy, type TestProxy } from '../testing/test-proxy';
import { ProxyService } from './proxy.service';
import type { UpstreamTlsMode } from './upstream-tls';

/**
 * TLS toward the server and the catalog role, against a PostgreSQL of the test's own (embedded,
 * TLS on) whose certificate the test swaps: one signed by the test CA for 127.0.0.1 (right), one by
 * the same CA for another host name, one by another CA for 127.0.0.1, and none at all (ssl off).
 * verify-full must accept only the first, for sessions and for the catalog connection; the proxy
 * service refuses to start with a wrong certificate or a privileged catalog role.
 */
let dir: string;
let server: ChildService;
let port: number;
let caA: Buffer;
let caAFile: string;
const certs: Record<'right' | 'otherHost' | 'otherCa', { cert: string; key: string }> = {} as never;
const proxies: TestProxy[] = [];
const services: RunningService[] = [];

function openssl(...args: string[]) {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

/** A CA (key and self-signed certificate) in `dir`. */
function makeCa(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.pem`);
  const key = join(dir, `${name}.key`);
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  return { cert, key };
}

/** A server certificate for `altNames` signed by `ca`; key and certificate owned by the server's user. */
function makeServerCert(name: string, ca: { cert: string; key: string }, altNames: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const ext = join(dir, `${name}.ext`);
  openssl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${name}`);
  writeFileSync(ext, `subjectAltName=${altNames}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`);
  openssl('x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext);
  // The server runs as the postgres user and refuses a key others can read.
  const uid = process.getuid?.() === 0 ? Number(execFileSync('id', ['-u', 'postgres']).toString().trim()) : process.getuid!();
  for (const f of [cert, key]) {
    chownSync(f, uid, -1);
    chmodSync(f, 0o600);
  }
  return { cert, key };
}

function spawnNode(script: string, args: string[]): ChildService {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    process: child,
    output: () => out,
    exited,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

const admin = () => new Client({ host: '127.0.0.1', port, user: 'postgres', password: 'admin-pass', database: 'postgres' });

/** What the server answers a TLS request with now: the SHA-256 fingerprint of its certificate, or "N" (no TLS). */
function presented(): Promise<string> {
  return new Promise((done, fail) => {
    const socket = netConnect({ host: '127.0.0.1', port }, () => socket.write(encodeSslRequest()));
    socket.once('error', fail);
    socket.once('data', (answer) => {
      if (answer[0] === 0x4e) {
        socket.destroy();
        return done('N');
      }
      const secure = tlsConnect({ socket, rejectUnauthorized: false }, () => {
        done(secure.getPeerCertificate().fingerprint256);
        secure.destroy();
      });
      secure.once('error', fail);
    });
  });
}

/** Makes the server present `which` (or no TLS at all), and waits until a new connection sees it. */
async function serve(which: keyof typeof certs | 'no TLS'): Promise<void> {
  const client = admin();
  await client.connect();
  try {
    if (which === 'no TLS') await client.query('ALTER SYSTEM SET ssl = off');
    else {
      await client.query('ALTER SYSTEM SET ssl = on');
      await client.query(`ALTER SYSTEM SET ssl_cert_file = '${certs[which].cert}'`);
      await client.query(`ALTER SYSTEM SET ssl_key_file = '${certs[which].key}'`);
    }
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
  const expected = which === 'no TLS' ? 'N' : new X509Certificate(readFileSync(certs[which].cert)).fingerprint256;
  await waitFor(async () => (await presented()) === expected, 10_000, `the server to present ${which}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-proxy-upstream-tls-'));
  const a = makeCa('vigil-test-ca-a');
  const b = makeCa('vigil-test-ca-b');
  caAFile = a.cert;
  caA = readFileSync(a.cert);
  certs.right = makeServerCert('right', a, 'IP:127.0.0.1,DNS:localhost');
  certs.otherHost = makeServerCert('other-host', a, 'DNS:db.example.internal');
  certs.otherCa = makeServerCert('other-ca', b, 'IP:127.0.0.1,DNS:localhost');
  port = await freePort();
  // Started without TLS: settings given on its command line could not be changed by a reload.
  server = spawnNode(resolve(__dirname, '../testing/embedded-pg.mjs'), [dir, String(port)]);
  await waitFor(() => server.output().includes('READY'), 60_000, `embedded PostgreSQL: ${server.output()}`);
  const client = admin();
  await client.connect();
  // The documented catalog role (docs/proxy.md#catalog-role), and two that are more than that.
  await client.query("CREATE ROLE vigil_proxy_catalog LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD 'catalog-pass'");
  await client.query('REVOKE CONNECT ON DATABASE postgres FROM PUBLIC');
  await client.query('GRANT CONNECT ON DATABASE postgres TO vigil_proxy_catalog, scram_user');
  await client.query("CREATE ROLE all_reader LOGIN PASSWORD 'reader-pass'");
  await client.query('GRANT CONNECT ON DATABASE postgres TO all_reader');
  await client.query('GRANT pg_read_all_data TO all_reader');
  await client.query("CREATE TABLE people (id int PRIMARY KEY, ssn text); INSERT INTO people VALUES (1, '123-45-6789')");
  await client.query('GRANT SELECT ON people TO scram_user');
  await client.end();
  await serve('right');
}, 120_000);

afterAll(async () => {
  for (const s of services) await s.stop();
  for (const p of proxies) await p.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function proxy(mode: UpstreamTlsMode, ca: Buffer | undefined = caA): Promise<TestProxy> {
  const p = await startTestProxy({
    config: { upstreamHost: '127.0.0.1', upstreamPort: port, upstreamTls: mode, upstreamCa: ca, tlsMode: 'disabled' },
    catalogUser: 'vigil_proxy_catalog',
    catalogPassword: 'catalog-pass',
  });
  proxies.push(p);
  return p;
}

const through = (p: TestProxy) => new Client({ host: '127.0.0.1', port: p.port, user: 'scram_user', password: 'scram-pass', database: 'postgres' });

/** Connects through the proxy: the server's TLS state as the session sees it, or the error the client got. */
async function session(p: TestProxy): Promise<{ ssl: boolean } | { code: string; message: string }> {
  const client = through(p);
  const failed = await client.connect().then(
    () => undefined,
    (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
  );
  if (failed) return failed;
  try {
    return (await client.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0]!;
  } finally {
    await client.end();
  }
}

/** Reads the catalog snapshot as the proxy's catalog connection does: resolves, or the error. */
async function catalogRead(mode: UpstreamTlsMode, ca: Buffer | undefined = caA): Promise<'read' | string> {
  const catalog = new Catalog({ host: '127.0.0.1', port, user: 'vigil_proxy_catalog', password: 'catalog-pass', tls: { mode, ca } });
  try {
    const snapshot = await catalog.snapshot('postgres');
    return snapshot.relations.size > 0 ? 'read' : 'empty';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await catalog.close();
  }
}

/** The proxy service started as deployed (real configuration, its catalog check included) in front of the test server. */
async function startProxyService(env: Record<string, string>): Promise<RunningService> {
  const running = await startService(pgProxyService, {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    PROXY_LISTEN_HOST: '127.0.0.1',
    PROXY_LISTEN_PORT: '0',
    PROXY_UPSTREAM: `127.0.0.1:${port}`,
    PROXY_SPILL_DIR: join(dir, `spill-${services.length}`),
    POLICY_RPC_ADDRESS: `127.0.0.1:${await freePort()}`,
    PROXY_POLICIES_READY_TIMEOUT_MS: '100',
    // Its own RPC certificate, as deployed (it calls the policy service for snapshots).
    ...testRpcFiles('pg-proxy'),
    ...env,
  });
  services.push(running);
  return running;
}
const refusal = (env: Record<string, string>) => startProxyService(env).then(
  () => 'started',
  (e: Error) => `${e.name}: ${e.message}`,
);

describe('verify-full toward the server', () => {
  it('accepts the certificate the configured CA signed for the host, for sessions and the catalog connection', async () => {
    await serve('right');
    const p = await proxy('verify-full');
    expect(await session(p)).toEqual({ ssl: true });
    expect(await catalogRead('verify-full')).toBe('read');
    // Masking resolves result columns through that catalog connection, as the minimal role.
    p.store.apply(snapshot({ type: 'data_protection', databases: ['db_postgres'], config: { rules: [{ name: 'ssn', columns: ['people.ssn'], method: 'partial', show_last: 4 }] } }));
    const client = through(p);
    await client.connect();
    expect((await client.query('SELECT p.ssn AS x FROM people p')).rows).toEqual([{ x: '*******6789' }]);
    await client.end();
  });

  it('refuses a certificate of the same CA made for another host name', async () => {
    await serve('otherHost');
    const p = await proxy('verify-full');
    expect(await session(p)).toEqual({ code: '08006', message: 'the Vigil proxy could not establish a verified TLS connection to the database server' });
    await waitFor(() => p.records.some((r) => r.type === 'user.login_failed'), 5000, 'the refused login recorded');
    expect(p.records.find((r) => r.type === 'user.login_failed')!.details.error.message).toMatch(/^upstream TLS refused: .*IP: 127\.0\.0\.1 is not in the cert's list/);
    expect(await catalogRead('verify-full')).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list/);
    // require encrypts without checking: it takes the same certificate (which is why it must be written out).
    expect(await session(await proxy('require', undefined))).toEqual({ ssl: true });
  });

  it('refuses a certificate for the right host signed by another CA', async () => {
    await serve('otherCa');
    const p = await proxy('verify-full');
    expect(await session(p)).toMatchObject({ code: '08006' });
    await waitFor(() => p.records.some((r) => r.type === 'user.login_failed'), 5000, 'the refused login recorded');
    expect(p.records.find((r) => r.type === 'user.login_failed')!.details.error.message).toMatch(/^upstream TLS refused: .*unable to verify the first certificate/);
    expect(await catalogRead('verify-full')).toMatch(/unable to verify the first certificate/);
    // Without a CA file, Node's public CAs: the test CA is not one of them.
    expect(await catalogRead('verify-full', undefined)).toMatch(/unable to verify the first certificate/);
  });

  it('never falls back to plaintext when the server has no TLS', async () => {
    await serve('no TLS');
    try {
      const p = await proxy('verify-full');
      expect(await session(p)).toMatchObject({ code: '08006', message: 'the Vigil proxy could not establish a verified TLS connection to the database server' });
      expect(await catalogRead('verify-full')).toBe('The server does not support SSL connections');
      expect(await catalogRead('require')).toBe('The server does not support SSL connections');
    } finally {
      await serve('right');
    }
  });
});

describe('the proxy service at start', () => {
  it('refuses to start when the catalog connection meets a certificate verify-full rejects, naming where and why', async () => {
    await serve('otherHost');
    try {
      const message = await refusal({ PROXY_UPSTREAM_TLS_CA_FILE: caAFile, PROXY_CATALOG_USER: 'vigil_proxy_catalog', PROXY_CATALOG_PASSWORD: 'catalog-pass' });
      expect(message).toMatch(/^StartRefused: the catalog connection \(PROXY_CATALOG_USER "vigil_proxy_catalog" to 127\.0\.0\.1:\d+, database "postgres", PROXY_UPSTREAM_TLS=verify-full \(verify-full: PROXY_UPSTREAM_TLS_CA_FILE is set\)\) failed: .*IP: 127\.0\.0\.1 is not in the cert's list/);
    } finally {
      await serve('right');
    }
  });

  it('refuses a superuser catalog role with a clear message, and runs with it when PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE=true', async () => {
    const superuser = { PROXY_UPSTREAM_TLS_CA_FILE: caAFile, PROXY_CATALOG_USER: 'postgres', PROXY_CATALOG_PASSWORD: 'admin-pass' };
    expect(await refusal(superuser)).toBe(
      'StartRefused: PROXY_CATALOG_USER connects as the PostgreSQL role "postgres", which is a superuser. The catalog connection needs only CONNECT and reads of pg_catalog ' +
        '(docs/proxy.md#catalog-role): give it a role of its own with those, or set PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE=true to run as this role anyway.',
    );
    const allowed = await startProxyService({ ...superuser, PROXY_CATALOG_ALLOW_PRIVILEGED_ROLE: 'true' });
    expect(allowed.httpPort).toBeGreaterThan(0);
    await allowed.stop();
  });

  it('refuses a role that may read every table (pg_read_all_data)', async () => {
    expect(await refusal({ PROXY_UPSTREAM_TLS_CA_FILE: caAFile, PROXY_CATALOG_USER: 'all_reader', PROXY_CATALOG_PASSWORD: 'reader-pass' })).toMatch(
      /^StartRefused: PROXY_CATALOG_USER connects as the PostgreSQL role "all_reader", which may read every table \(member of pg_read_all_data\)\./,
    );
  });

  it('starts with the documented minimal role, its check made over verify-full', async () => {
    const running = await startProxyService({ PROXY_UPSTREAM_TLS_CA_FILE: caAFile, PROXY_CATALOG_USER: 'vigil_proxy_catalog', PROXY_CATALOG_PASSWORD: 'catalog-pass' });
    expect(running.app.get(ProxyService).catalogRole).toEqual({ role: 'vigil_proxy_catalog', serverVersion: expect.stringMatching(/^\d+/), tls: true, privileged: [], unreadable: [] });
    await running.stop();
  });
});
