import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrapRolesFromEnv, migrateService, serviceUrlVariable } from '@vigil/database';
import { authDatabase } from '@vigil/service/auth';
import { deliveryDatabase } from '@vigil/service/delivery';
import { eventIngestDatabase } from '@vigil/service/event-ingest';
import { policyDatabase } from '@vigil/service/policy';
import { createTestDatabase, createTestRoles, freePort, type TestDatabase, type TestKafka, testKafka, type TestRoles, testRpcAuthority } from '@vigil/testing';
import { type RunningSystem, startSystem } from '../standalone';

export interface TestSystem extends RunningSystem {
  db: TestDatabase;
  /** With `roles`: the deployment's roles, each service connected as its own. */
  roles?: TestRoles;
  kafka?: TestKafka;
  adminPassword: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The whole system for an end-to-end test: the in-process bus or a real broker (own topic prefix),
 * a fresh database on the test server, and free ports throughout, in this process. (The embedded
 * PostgreSQL of `npm start` is tested through a real launcher process: standalone.int-spec.ts.)
 */
export async function startTestSystem(options: {
  bus: 'memory' | 'kafka';
  env?: Record<string, string>;
  /** A restart: the database and data folder (its encryption key) of an earlier, stopped system. */
  restartOf?: Pick<TestSystem, 'db' | 'dataDir'>;
  /**
   * As the distributed deployment runs: roles bootstrapped, migrations run as the owner role, and
   * each service connected as its own runtime role (`<SERVICE>_DATABASE_URL`), refusing any other.
   */
  roles?: boolean;
}): Promise<TestSystem> {
  const dataDir = options.restartOf?.dataDir ?? mkdtempSync(join(tmpdir(), 'vigil-e2e-'));
  const db = options.restartOf?.db ?? (await createTestDatabase());
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
    // HTTP ports are picked when bound (the gateway's is read back from its socket); RPC ports must be
    // known before any service starts, since every service is given every RPC address.
    PORT: '0',
  };
  const internal = ['AUTH', 'POLICY', 'EVENT_INGEST', 'DELIVERY'];
  for (const key of internal) env[`${key}_PORT`] = '0';
  const pickRpcPorts = async () => {
    for (const key of internal) env[`${key}_RPC_PORT`] = String(await freePort());
  };
  await pickRpcPorts();
  env.DATABASE_URL = db.url;
  let roles: TestRoles | undefined;
  if (options.roles) {
    roles = await createTestRoles(db, bootstrapRolesFromEnv);
    for (const database of [authDatabase, policyDatabase, eventIngestDatabase, deliveryDatabase]) {
      await migrateService(database, roles.owner.url, { ...env, ...options.env });
      env[serviceUrlVariable(database.service)] = roles.services[database.service as keyof TestRoles['services']].url;
    }
    env.MIGRATE_ON_START = 'false';
    env.DATABASE_ALLOW_PRIVILEGED_ROLE = 'false';
  }
  if (kafka) {
    env.KAFKA_BROKERS = kafka.brokers.join(',');
    env.KAFKA_TOPIC_PREFIX = kafka.prefix;
    Object.assign(env, kafka.env);
  }
  // Free RPC ports are found before they are bound and suites run side by side: if another suite
  // took one in between, start again on new ones (a failed start closes what it had started).
  let system: RunningSystem;
  for (let attempt = 1; ; attempt++) {
    try {
      system = await startSystem({ ...env, ...options.env }, { rpcAuthority: testRpcAuthority() });
      break;
    } catch (error) {
      if ((error as { code?: string })?.code !== 'EADDRINUSE' || attempt >= 5) throw error;
      await pickRpcPorts();
    }
  }
  return {
    ...system,
    db,
    roles,
    kafka,
    adminPassword,
    dataDir,
    close: async () => {
      await system.stop();
      await db.drop();
      await roles?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
