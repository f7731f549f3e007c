import { bootstrapRolesFromEnv, migrateService, SERVICE_SCHEMAS, type ServiceDatabase } from '@vigil/database';
import { startService } from '@vigil/platform';
import { authDatabase, authService } from '@vigil/service/auth';
import { deliveryDatabase } from '@vigil/service/delivery';
import { eventIngestDatabase } from '@vigil/service/event-ingest';
import { policyDatabase } from '@vigil/service/policy';
import { createTestDatabase, createTestRoles, freePort, type TestDatabase, type TestRoles, testRpcCredentials } from '@vigil/testing';
import { Client } from 'pg';

const DATABASES: ServiceDatabase[] = [authDatabase, policyDatabase, eventIngestDatabase, deliveryDatabase];

async function asRole<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The roles of the distributed deployment (docs/operations.md#database-roles) on a real PostgreSQL. */
describe('database roles', () => {
  let db: TestDatabase;
  let roles: TestRoles;

  beforeAll(async () => {
    db = await createTestDatabase();
    roles = await createTestRoles(db, bootstrapRolesFromEnv);
    for (const database of DATABASES) await migrateService(database, roles.owner.url, {});
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
    await roles?.drop();
  });

  it("keeps each service's role out of every other service's schema", async () => {
    for (const { service, schema } of SERVICE_SCHEMAS) {
      await asRole(roles.services[service].url, async (client) => {
        await expect(client.query(`SELECT count(*) FROM ${schema}.migrations`)).resolves.toBeDefined();
        for (const other of SERVICE_SCHEMAS.filter((s) => s.schema !== schema)) {
          await expect(client.query(`SELECT 1 FROM ${other.schema}.migrations LIMIT 1`)).rejects.toThrow(`permission denied for schema ${other.schema}`);
        }
        // Nothing of its own schema's structure either.
        await expect(client.query(`CREATE TABLE ${schema}.intruder (a int)`)).rejects.toThrow(`permission denied for schema ${schema}`);
        await expect(client.query(`DELETE FROM ${schema}.migrations`)).rejects.toThrow('permission denied for table migrations');
      });
    }
  });

  it('refuses to migrate as a runtime role, naming the owner URL it needs', async () => {
    await expect(migrateService(authDatabase, roles.services.auth.url, {})).rejects.toThrow(/a runtime role, which cannot run migrations: give the migrate command the owner role's URL/);
  });

  it('gives the runtime role of the policy service SELECT and INSERT only on its event store', async () => {
    const [grants] = await db.query<{ privileges: string[] }>(
      `SELECT array_agg(privilege_type::text ORDER BY privilege_type) AS privileges FROM information_schema.role_table_grants
       WHERE table_schema = 'policy' AND table_name = 'event_store' AND grantee = $1`,
      [roles.services.policy.role],
    );
    expect(grants!.privileges).toEqual(['INSERT', 'SELECT']);
  });

  it('lets every runtime role only read its writer fence (migrations raise it)', async () => {
    for (const { schema, role } of [
      { schema: 'auth', role: roles.services.auth.role },
      { schema: 'policy', role: roles.services.policy.role },
      { schema: 'event_ingest', role: roles.services['event-ingest'].role },
      { schema: 'delivery', role: roles.services.delivery.role },
    ]) {
      const [grants] = await db.query<{ privileges: string[] }>(
        `SELECT array_agg(privilege_type::text ORDER BY privilege_type) AS privileges FROM information_schema.role_table_grants
         WHERE table_schema = $1 AND table_name = 'writer_fence' AND grantee = $2`,
        [schema, role],
      );
      expect(grants!.privileges).toEqual(['SELECT']);
    }
  });

  const start = (env: Record<string, string>) =>
    startService(authService, {
      KAFKA_BROKERS: '',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      RPC_HOST: '127.0.0.1',
      RPC_PORT: '0',
      VIGIL_ENCRYPTION_KEYS: `${'A'.repeat(43)}=`,
      AUDIT_ADMIN_EMAIL: 'admin@example.com',
      AUDIT_ADMIN_PASSWORD: 'long-and-uncommon-password',
      ...env,
    }, { rpcCredentials: testRpcCredentials('auth') });

  it.each([
    ['the owner role', () => roles.owner.url, /connects as the PostgreSQL role "vt_\w+_owner", which owns the schema auth/],
    ['a superuser', () => db.url, /connects as the PostgreSQL role "postgres", which is a superuser/],
  ])('refuses to start a service as %s unless DATABASE_ALLOW_PRIVILEGED_ROLE=true', async (_who, url, message) => {
    await expect(start({ DATABASE_URL: url(), MIGRATE_ON_START: 'false' })).rejects.toMatchObject({ name: 'StartRefused', message: expect.stringMatching(message) });
  });

  it('refuses MIGRATE_ON_START with a runtime role, and starts with it once the migrations ran', async () => {
    const url = roles.services.auth.url;
    await expect(start({ DATABASE_URL: url, MIGRATE_ON_START: 'true' })).rejects.toThrow(/runtime role and cannot run migrations/);
    const running = await start({ DATABASE_URL: url, MIGRATE_ON_START: 'false', PORT: String(await freePort()) });
    await running.stop();
  });

  it('refuses a runtime role on a schema whose migrations have not run', async () => {
    const fresh = await createTestDatabase();
    const freshRoles = await createTestRoles(fresh, bootstrapRolesFromEnv);
    try {
      await expect(start({ DATABASE_URL: freshRoles.services.auth.url, MIGRATE_ON_START: 'false' })).rejects.toThrow(/the schema auth has not been migrated/);
    } finally {
      await fresh.drop();
      await freshRoles.drop();
    }
  });

  it('hands an install that ran as one role over to the owner role, and rotates a password when run again', async () => {
    const single = await createTestDatabase();
    let singleRoles: TestRoles | undefined;
    try {
      // Migrated as the server's superuser, as before roles existed.
      await migrateService(authDatabase, single.url, {});
      singleRoles = await createTestRoles(single, bootstrapRolesFromEnv);
      const owners = await single.query<{ owner: string }>(
        `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'auth'::regnamespace
         UNION SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'auth'`,
      );
      expect(owners).toEqual([{ owner: singleRoles.owner.role }]);
      await migrateService(authDatabase, singleRoles.owner.url, {});
      await asRole(singleRoles.services.auth.url, (client) => client.query('SELECT count(*) FROM auth.users'));

      const before = await single.query<{ rolpassword: string }>(`SELECT rolpassword FROM pg_authid WHERE rolname = $1`, [singleRoles.services.auth.role]);
      const rotated = new URL(singleRoles.services.auth.url);
      rotated.password = 'a-new-password';
      await bootstrapRolesFromEnv({ ...singleRoles.env, AUTH_DATABASE_URL: rotated.toString() });
      const after = await single.query<{ rolpassword: string }>(`SELECT rolpassword FROM pg_authid WHERE rolname = $1`, [singleRoles.services.auth.role]);
      expect(after[0]!.rolpassword).toMatch(/^SCRAM-SHA-256\$/);
      expect(after[0]!.rolpassword).not.toBe(before[0]!.rolpassword);
    } finally {
      await single.drop();
      await singleRoles?.drop();
    }
  });

  it('runs the migrate step of several replicas at once (each grants, none fails)', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => migrateService(eventIngestDatabase, roles.owner.url, {})));
    expect(results.map((r) => r.granted)).toEqual(Array.from({ length: 4 }, () => [roles.services['event-ingest'].role]));
  });

  it('refuses a bootstrap that would give two services one role', async () => {
    await expect(bootstrapRolesFromEnv({ ...roles.env, POLICY_DATABASE_URL: roles.env.AUTH_DATABASE_URL! })).rejects.toThrow(/each role must be distinct/);
  });
});
