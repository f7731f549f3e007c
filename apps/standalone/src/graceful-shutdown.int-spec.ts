import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildService, createTestDatabase, freePort, spawnTs, type TestDatabase, waitFor } from '@vigil/testing';
import { login } from './testing/http';

/**
 * SIGTERM to the running system while clients keep ingesting over HTTP: every request it answered
 * 202 is stored; the others were refused or cut, never acknowledged and dropped.
 */
describe('the system stopped with SIGTERM under HTTP load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-sigterm-'));
  let db: TestDatabase;
  let launcher: ChildService | undefined;

  afterAll(async () => {
    await launcher?.kill();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged record', async () => {
    db = await createTestDatabase();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      DATABASE_URL: db.url, KAFKA_BROKERS: '', VIGIL_DATA_DIR: dataDir, PORT: String(port), SHUTDOWN_DRAIN_MS: '300',
      METRICS_PORT: '0',
      AUDIT_ADMIN_EMAIL: 'admin@example.com', AUDIT_ADMIN_PASSWORD: 'sigterm-password', LOG_LEVEL: 'warn',
    };
    for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
      env[`${key}_PORT`] = String(await freePort());
      env[`${key}_RPC_PORT`] = String(await freePort());
    }
    launcher = spawnTs('apps/standalone/src/main.ts', env);
    await waitFor(async () => (await fetch(`${base}/health/ready`)).status === 200, 150_000, 'system ready');
    const token = await login(base, 'admin@example.com', 'sigterm-password');

    const acknowledged: string[] = [];
    let refused = 0;
    let running = true;
    const client = async (worker: number) => {
      for (let i = 0; running && i < 2000; i++) {
        try {
          const response = await fetch(`${base}/v1/events/ingest`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ events: Array.from({ length: 20 }, (_, j) => ({ type: 'database.query', database_id: 'db_sigterm', details: { user: `w${worker}`, query: `SELECT ${i * 20 + j}` } })) }),
          });
          if (response.status === 202) acknowledged.push(...((await response.json()) as { ids: string[] }).ids);
          else refused++;
        } catch {
          refused++;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const clients = Array.from({ length: 4 }, (_, w) => client(w));
    await waitFor(() => acknowledged.length >= 400, 60_000, 'load under way');
    expect(await launcher.stop()).toBe(0);
    running = false;
    await Promise.all(clients);

    const ids = acknowledged;
    const found = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM event_ingest.events WHERE id = ANY($1::text[])`, [ids]);
    process.stdout.write(`graceful-shutdown: ${ids.length} records acknowledged, ${refused} requests refused or cut\n`);
    expect(found[0]!.n).toBe(ids.length);
    expect(new Set(ids).size).toBe(ids.length);
    // Up to 150 s to start from TypeScript sources and 60 s to build the load leave too little of five
    // minutes for the drain on a busy machine (it timed out under load while passing alone in 95 s).
  }, 480_000);
});
