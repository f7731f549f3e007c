import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ChildService, createTestDatabase, freePort, type TestDatabase, testServerUrl, spawnTs, waitFor } from '@vigil/testing';
import { Client } from 'pg';
import { apiKey } from './testing/access';
import { http, login } from './testing/http';

/** A stored event as these checks read it. */
type Violation = { type: string; details: { query?: string } };

const ROOT = resolve(__dirname, '../../..');
const POLICIES = 'docs/examples/proxy-trial-policies.yaml';
const SSN = '078-05-1120';

/**
 * The README's "Try the PostgreSQL proxy", step by step, as a person runs it: the launcher started
 * with PROXY_UPSTREAM also starts the audit proxy on the in-process bus (no Kafka); the example
 * policy file applied with the CLI; psql's statements through the proxy; the events in the API.
 */
describe('npm start with PROXY_UPSTREAM: the audit proxy in the standalone process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-proxy-trial-'));
  const adminPassword = 'proxy-trial-admin-password';
  let vigilDb: TestDatabase;
  let shop: TestDatabase;
  let launcher: ChildService;
  let gatewayUrl = '';
  let proxyPort = 0;

  beforeAll(async () => {
    vigilDb = await createTestDatabase();
    shop = await createTestDatabase();
    await shop.query(`CREATE TABLE customers (id int PRIMARY KEY, name text, ssn text)`);
    await shop.query(`INSERT INTO customers VALUES (1, 'Ada', $1)`, [SSN]);
    const port = await freePort();
    proxyPort = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    const upstream = new URL(testServerUrl());
    const env: Record<string, string> = {
      VIGIL_DATA_DIR: dataDir,
      DATABASE_URL: vigilDb.url,
      KAFKA_BROKERS: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      AUDIT_ADMIN_EMAIL: 'admin@example.com',
      AUDIT_ADMIN_PASSWORD: adminPassword,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      PROXY_UPSTREAM: `${upstream.hostname}:${upstream.port || 5432}`,
      PROXY_LISTEN_PORT: String(proxyPort),
      PG_PROXY_PORT: '0',
      // The README's database is named "shop" (id db_shop); this one has a generated name.
      PROXY_DATABASE_IDS: `${shop.name}:db_shop`,
    };
    for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
      env[`${key}_PORT`] = '0';
      env[`${key}_RPC_PORT`] = String(await freePort());
    }
    launcher = spawnTs('apps/standalone/src/main.ts', env);
    await waitFor(
      async () => {
        if (launcher.process.exitCode !== null) throw new Error(`launcher exited with ${launcher.process.exitCode}`);
        return (await fetch(`${gatewayUrl}/health/ready`).catch(() => null))?.status === 200 && launcher.output().includes('"pg_proxy"');
      },
      120_000,
      'standalone system with its proxy ready',
    ).catch((error) => {
      throw new Error(`${error.message}\n${launcher.output().slice(-3000)}`);
    });
  }, 180_000);

  afterAll(async () => {
    await launcher?.stop();
    await shop?.drop();
    await vigilDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const psql = async () => {
    const url = new URL(shop.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxyPort);
    const client = new Client({ connectionString: url.toString(), application_name: 'psql' });
    await client.connect();
    return client;
  };

  it('announces the proxy in the start banner with where clients connect and the server behind it', () => {
    const banner = launcher.output().split('\n').find((line) => line.includes('"pg_proxy"'));
    expect(JSON.parse(banner!).pg_proxy).toBe(`127.0.0.1:${proxyPort} -> ${new URL(testServerUrl()).hostname}:${new URL(testServerUrl()).port || 5432}`);
  });

  it('masks and blocks as the example policies say, and the API shows the events: no Kafka involved', async () => {
    const token = await login(gatewayUrl, 'admin@example.com', adminPassword);
    const { key } = await apiKey(gatewayUrl, token, ['admin']);
    const cli = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(process.execPath, [join(ROOT, 'apps/cli/bin/vigil.mjs'), 'policies', 'apply', '-f', POLICIES, '--output', 'json'], {
        cwd: ROOT,
        env: { ...process.env, VIGIL_URL: gatewayUrl, VIGIL_API_KEY: key, VIGIL_CONFIG_DIR: join(dataDir, 'cli') },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('close', (code) => done({ code, out }));
    });
    expect(cli).toMatchObject({ code: 0 });

    const client = await psql();
    try {
      // The policies reach the proxy through the in-process bus: wait until both are in force.
      const rows = await waitFor(
        async () => {
          const result = await client.query('SELECT id, name, ssn FROM customers');
          return result.rows[0].ssn === SSN ? undefined : result.rows;
        },
        15_000,
        'masking in force',
      );
      expect(rows).toEqual([{ id: 1, name: 'Ada', ssn: '*******1120' }]);
      // Each policy arrives on its own: wait for the block with a DROP that harms nothing if it passes.
      await waitFor(
        async () =>
          client.query('DROP TABLE IF EXISTS vigil_trial_probe').then(
            () => undefined,
            (error: Error) => {
              if (/DROP and TRUNCATE are forbidden/.test(error.message)) return true;
              throw error;
            },
          ),
        15_000,
        'blocking in force',
      );
      await expect(client.query('DROP TABLE customers')).rejects.toThrow(/DROP and TRUNCATE are forbidden on the shop database/);
    } finally {
      await client.end();
    }
    expect(await shop.query(`SELECT count(*)::int AS n FROM customers`)).toEqual([{ n: 1 }]);

    const events = await waitFor(
      async () => {
        const listed = await http(gatewayUrl, 'GET', '/v1/events?database_id=db_shop&limit=100', { token });
        const types = new Set<string>(listed.body.events.map((e: { type: string }) => e.type));
        // The probe's DROP above is refused and recorded too: wait for the refusal of the real one.
        const refused = listed.body.events.some((e: Violation) => e.type === 'policy.violation' && /^DROP TABLE customers/.test(e.details.query ?? ''));
        return refused && types.has('data.sensitive_access') ? listed.body.events : undefined;
      },
      20_000,
      'the proxy records stored',
    );
    const violation = events.find((e: Violation) => e.type === 'policy.violation' && !/vigil_trial_probe/.test(e.details.query ?? ''));
    expect(violation.details.query).toMatch(/^DROP TABLE customers/);
    // The secret never reaches the trail either.
    expect(JSON.stringify(events)).not.toContain(SSN);
    const databases = await http(gatewayUrl, 'GET', '/v1/databases?per_page=100', { token });
    expect(databases.body.data.map((d: { id: string }) => d.id)).toContain('db_shop');
  });
});
