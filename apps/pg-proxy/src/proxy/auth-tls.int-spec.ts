import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createSecureContext } from 'node:tls';
import { type ChildService, freePort, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { startTestProxy, type TestProxy } from '../testing/test-proxy';

const run = promisify(execFile);

/**
 * Authentication relayed through the proxy against a server that asks for passwords (SCRAM-SHA-256,
 * MD5, cleartext), TLS toward clients with a certificate made for this run, and TLS toward the server.
 */
let dir: string;
let server: ChildService;
let port: number;
let cert: string;
let key: string;
const proxies: TestProxy[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-proxy-auth-'));
  cert = join(dir, 'cert.pem');
  key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  // Proxy copies: the server's copies change owner for the postgres user.
  execFileSync('cp', [cert, join(dir, 'proxy-cert.pem')]);
  execFileSync('cp', [key, join(dir, 'proxy-key.pem')]);
  port = await freePort();
  server = spawnNode(resolve(__dirname, '../testing/embedded-pg.mjs'), [dir, String(port), cert, key]);
  await waitFor(() => server.output().includes('READY'), 60_000, `embedded PostgreSQL: ${server.output()}`);
}, 90_000);

afterAll(async () => {
  for (const p of proxies) await p.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

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

async function proxy(options: { upstreamTls?: 'disable' | 'require'; tls?: 'required' | 'allowed' }): Promise<TestProxy> {
  const p = await startTestProxy({
    config: {
      upstreamHost: '127.0.0.1',
      upstreamPort: port,
      upstreamTls: options.upstreamTls ?? 'disable',
      tlsMode: options.tls ?? 'required',
      tlsContext: createSecureContext({ cert: readFileSync(join(dir, 'proxy-cert.pem')), key: readFileSync(join(dir, 'proxy-key.pem')) }),
    },
  });
  proxies.push(p);
  return p;
}

const connect = (p: number, user: string, password: string, ssl: boolean) =>
  new Client({ host: '127.0.0.1', port: p, user, password, database: 'postgres', ssl: ssl ? { rejectUnauthorized: false } : false });

it.each([
  ['SCRAM-SHA-256', 'scram_user', 'scram-pass'],
  ['MD5', 'md5_user', 'md5-pass'],
  ['cleartext', 'pw_user', 'pw-pass'],
])('relays %s authentication over TLS from the client', async (_label, user, password) => {
  const p = await proxy({});
  const client = connect(p.port, user, password, true);
  await client.connect();
  expect((await client.query('SELECT current_user AS u')).rows).toEqual([{ u: user }]);
  await client.end();
  const wrong = connect(p.port, user, 'wrong', true);
  expect(((await wrong.connect().catch((e) => e)) as { code: string }).code).toBe('28P01');
  await waitFor(() => p.records.some((r) => r.type === 'user.login_failed' && r.details.user === user && r.details.tls === true), 5000, 'login_failed');
  expect(p.records.some((r) => r.type === 'user.login_success' && r.details.user === user)).toBe(true);
});

it('refuses a plaintext session when TLS is required', async () => {
  const p = await proxy({});
  const error = (await connect(p.port, 'scram_user', 'scram-pass', false).connect().catch((e) => e)) as { code: string };
  expect(error.code).toBe('28000');
});

it('gives psql (sslmode=require) the same answers through the proxy as directly', async () => {
  const p = await proxy({ tls: 'allowed' });
  const sql = "SELECT current_user, 1 + 1 AS two; SELECT string_agg(x::text, ',') FROM generate_series(1, 5) x;";
  const env = { ...process.env, PGPASSWORD: 'scram-pass' };
  const args = (prt: number) => ['-X', '-h', '127.0.0.1', '-p', String(prt), '-U', 'scram_user', '-d', 'postgres', '-c', sql];
  const direct = await run('psql', args(port), { env: { ...env, PGSSLMODE: 'require' } });
  const through = await run('psql', args(p.port), { env: { ...env, PGSSLMODE: 'require' } });
  expect(through.stdout).toBe(direct.stdout);
});

it('speaks TLS to the server too; SCRAM channel binding is negotiated away', async () => {
  const p = await proxy({ upstreamTls: 'require', tls: 'allowed' });
  // node-postgres over plaintext to the proxy: gs2 header n (no channel binding), TLS from proxy to server.
  const client = connect(p.port, 'scram_user', 'scram-pass', false);
  await client.connect();
  expect((await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows).toEqual([{ ssl: true }]);
  await client.end();
  // libpq with TLS on both legs: channel binding must be disabled on the client (docs/proxy.md#authentication).
  const { stdout } = await run('psql', ['-X', '-tA', '-h', '127.0.0.1', '-p', String(p.port), '-U', 'scram_user', '-d', 'postgres', '-c', 'SELECT 42'], {
    env: { ...process.env, PGPASSWORD: 'scram-pass', PGSSLMODE: 'require', PGCHANNELBINDING: 'disable' },
  });
  expect(stdout.trim()).toBe('42');
});
