import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildService, freePort, spawnTs, waitFor } from '@vigil/testing';
import { http, login } from './testing/http';
import { thinSliceScenarios } from './testing/thin-slice';

/**
 * What `npm start` runs, as its own process: embedded PostgreSQL (no DATABASE_URL), the in-process
 * bus (no KAFKA_BROKERS), stopped with SIGTERM and started again on the same data folder.
 */
describe('standalone mode: the launcher process on embedded PostgreSQL and the in-process bus', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-standalone-'));
  const adminPassword = 'standalone-admin-password';
  let env: Record<string, string>;
  let launcher: ChildService;
  let gatewayUrl = '';

  async function start() {
    launcher = spawnTs('apps/standalone/src/main.ts', env);
    await waitFor(
      async () => {
        if (launcher.process.exitCode !== null) throw new Error(`launcher exited with ${launcher.process.exitCode}`);
        return (await fetch(`${gatewayUrl}/health/ready`)).status === 200;
      },
      90_000,
      'standalone system ready',
    ).catch((error) => {
      throw new Error(`${error.message}\n${launcher.output().slice(-3000)}`);
    });
  }

  beforeAll(async () => {
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    env = { VIGIL_DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(await freePort()), AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: adminPassword, LOG_LEVEL: 'warn', DATABASE_URL: '', KAFKA_BROKERS: '' };
    for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
      env[`${key}_PORT`] = String(await freePort());
      env[`${key}_RPC_PORT`] = String(await freePort());
      env[`${key}_METRICS_PORT`] = String(await freePort());
    }
    env.METRICS_PORT = String(await freePort());
    await start();
  }, 120_000);

  afterAll(async () => {
    await launcher?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  thinSliceScenarios(() => ({ gatewayUrl, adminPassword }));

  it('serves Prometheus metrics on their own ports, one per service, and not on the API port', async () => {
    expect((await fetch(`${gatewayUrl}/metrics`)).status).toBe(404);
    const gateway = await fetch(`http://127.0.0.1:${env.METRICS_PORT}/metrics`);
    expect(gateway.status).toBe(200);
    expect(gateway.headers.get('content-type')).toContain('text/plain');
    expect(await gateway.text()).toMatch(/^vigil_ready\{service="gateway"\} 1$/m);
    const ingest = await (await fetch(`http://127.0.0.1:${env.EVENT_INGEST_METRICS_PORT}/metrics`)).text();
    expect(ingest).toMatch(/^vigil_ready\{service="event-ingest"\} 1$/m);
    // Nothing else answers there: no API, no health, no console.
    expect((await fetch(`http://127.0.0.1:${env.METRICS_PORT}/v1/events`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${env.METRICS_PORT}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('stops gracefully on SIGTERM and keeps its data across a restart', async () => {
    const token = await login(gatewayUrl, 'admin@example.com', adminPassword);
    const ingested = await http(gatewayUrl, 'POST', '/v1/events/ingest', { token, body: { events: [{ type: 'database.connection', database_id: 'db_restart' }] } });
    const [id] = ingested.body.ids;

    expect(await launcher.stop()).toBe(0);
    await start();

    const again = await login(gatewayUrl, 'admin@example.com', adminPassword);
    const event = await http(gatewayUrl, 'GET', `/v1/events/${id}`, { token: again });
    expect(event.status).toBe(200);
    expect(event.body.database_id).toBe('db_restart');
  }, 120_000);
});
