import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, testKafka } from '@vigil/testing';
import { type RunningSystem, startSystem } from '../standalone';

export interface TestSystem extends RunningSystem {
  db: TestDatabase;
  kafka?: { brokers: string[]; prefix: string };
  adminPassword: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole system for an end-to-end test: the in-process bus or a real broker (own topic prefix),
 * a fresh database on the test server, and free ports throughout, in this process. (The embedded
 * PostgreSQL of `npm start` is tested through a real launcher process: standalone.int-spec.ts.)
 */
export async function startTestSystem(options: { bus: 'memory' | 'kafka'; env?: Record<string, string> }): Promise<TestSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-e2e-'));
  const db = await createTestDatabase();
  const kafka = options.bus === 'kafka' ? testKafka() : undefined;
  const adminPassword = 'e2e-admin-password';
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    VIGIL_DATA_DIR: dataDir,
    AUDIT_ADMIN_EMAIL: 'admin@example.com',
    AUDIT_ADMIN_PASSWORD: adminPassword,
    OUTBOX_POLL_MS: '50',
    // Several systems run at once under jest: keep each within a share of PostgreSQL's connections.
    DATABASE_POOL_SIZE: '8',
    PORT: String(await freePort()),
  };
  for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
    env[`${key}_PORT`] = String(await freePort());
    env[`${key}_RPC_PORT`] = String(await freePort());
  }
  env.DATABASE_URL = db.url;
  if (kafka) {
    env.KAFKA_BROKERS = kafka.brokers.join(',');
    env.KAFKA_TOPIC_PREFIX = kafka.prefix;
  }
  // Free ports are found before they are bound and suites run side by side: if another suite
  // took one in between, start again on new ports (a failed start stops what it had started).
  let system: RunningSystem;
  for (let attempt = 1; ; attempt++) {
    try {
      system = await startSystem({ ...env, ...options.env });
      break;
    } catch (error) {
      if ((error as { code?: string })?.code !== 'EADDRINUSE' || attempt >= 5) throw error;
      env.PORT = String(await freePort());
      for (const key of ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY']) {
        env[`${key}_PORT`] = String(await freePort());
        env[`${key}_RPC_PORT`] = String(await freePort());
      }
    }
  }
  return {
    ...system,
    db,
    kafka,
    adminPassword,
    dataDir,
    close: async () => {
      await system.stop();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
