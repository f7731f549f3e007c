import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, waitFor } from '@vigil/testing';
import { login } from './testing/http';

const ROOT = resolve(__dirname, '../../..');

interface Launcher {
  /** What it printed so far, without colours or CRs. */
  output(): string;
  stop(): Promise<number | null>;
}

/** `npm start`'s launcher with its stdout on a real pseudo-terminal (util-linux `script`) or a pipe. */
function launch(stdout: 'terminal' | 'pipe', env: Record<string, string>): Launcher {
  const node = [process.execPath, '-r', '@swc-node/register', resolve(ROOT, 'apps/standalone/src/main.ts')];
  const [command, args] = stdout === 'terminal' ? ['script', ['-qfec', node.join(' '), '/dev/null']] : [node[0]!, node.slice(1)];
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return {
    // eslint-disable-next-line no-control-regex
    output: () => out.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, ''),
    // `script` passes SIGTERM on to the launcher.
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The banner `npm start` ends its start with: the addresses and the data folder every time, and the
 * generated administrator credentials on the first start only (here on an external PostgreSQL, which
 * the launcher treats like its embedded one).
 */
describe('the start-up banner of the standalone launcher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-banner-'));
  let db: TestDatabase;
  let launcher: Launcher | undefined;

  afterAll(async () => {
    await launcher?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function environment(): Promise<Record<string, string>> {
    const env: Record<string, string> = {
      DATABASE_URL: db.url, KAFKA_BROKERS: '', VIGIL_DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1',
      METRICS_PORT: '0',
      AUDIT_ADMIN_EMAIL: 'first@example.com', AUDIT_ADMIN_PASSWORD: '', LOG_LEVEL: 'info', LOG_FORMAT: 'auto', DATABASE_POOL_SIZE: '4',
    };
    for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
      env[`${key}_PORT`] = '0';
      env[`${key}_RPC_PORT`] = String(await freePort());
    }
    return env;
  }

  it('shows the generated administrator credentials on the first start only', async () => {
    db = await createTestDatabase();

    const firstEnv = await environment();
    launcher = launch('terminal', firstEnv);
    const first = launcher;
    await waitFor(() => /^ {2}Password .*\n\n/m.test(first.output()), 120_000, 'first banner').catch((error) => {
      throw new Error(`${error.message}\n${first.output().slice(-3000)}`);
    });
    const base = `http://127.0.0.1:${firstEnv.PORT}`;
    const banner = first.output().slice(first.output().indexOf('  Vigil is running'));
    expect(banner).toContain(`  API            ${base}\n`);
    expect(banner).toContain(`  API docs       ${base}/v1/docs\n`);
    expect(banner).toContain(`  OpenAPI        ${base}/v1/openapi.json\n`);
    expect(banner).toContain(`  Data folder    ${dataDir}\n`);
    expect(banner).toContain('  Administrator  first@example.com\n');
    const password = /^ {2}Password +(\S+) {3}\(shown once; set AUDIT_ADMIN_PASSWORD to choose it\)$/m.exec(banner)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // The banner is the one place it appears, after every log line of the start.
    expect(first.output().split(password!).length - 1).toBe(1);
    expect(first.output().trimStart().startsWith('{')).toBe(false);
    await login(base, 'first@example.com', password!);
    expect(await first.stop()).toBe(0);

    const secondEnv = await environment();
    launcher = launch('pipe', secondEnv);
    const second = launcher;
    const entries = () => second.output().split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as Record<string, unknown>);
    const ready = await waitFor(() => entries().find((entry) => entry.banner === true), 120_000, 'second banner').catch((error) => {
      throw new Error(`${error.message}\n${second.output().slice(-3000)}`);
    });
    const secondBase = `http://127.0.0.1:${secondEnv.PORT}`;
    expect(ready).toEqual(
      expect.objectContaining({ level: 'info', service: 'standalone', msg: 'Vigil is running', api_url: secondBase, docs_url: `${secondBase}/v1/docs`, openapi_url: `${secondBase}/v1/openapi.json`, data_dir: dataDir }),
    );
    expect(Object.keys(ready).filter((key) => key.startsWith('administrator'))).toEqual([]);
    expect(second.output()).not.toContain(password);
    // The first start's password still logs in.
    await login(secondBase, 'first@example.com', password!);
    expect(await second.stop()).toBe(0);
  }, 240_000);
});
