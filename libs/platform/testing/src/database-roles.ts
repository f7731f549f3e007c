import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testServerUrl, type TestDatabase } from './database';

/** The services with a schema (SERVICE_SCHEMAS of the database library, which this one may not import: its tests use this one). */
const SERVICE_SCHEMAS = [
  { service: 'auth', schema: 'auth' },
  { service: 'policy', schema: 'policy' },
  { service: 'event-ingest', schema: 'event_ingest' },
  { service: 'delivery', schema: 'delivery' },
] as const;

export type DatabaseService = (typeof SERVICE_SCHEMAS)[number]['service'];

const serviceUrlVariable = (service: string) => `${service.toUpperCase().replace(/-/g, '_')}_DATABASE_URL`;

export interface TestRole {
  role: string;
  url: string;
}

export interface TestRoles {
  owner: TestRole;
  services: Record<DatabaseService, TestRole>;
  /** The variables of the role bootstrap (DATABASE_ADMIN_URL, DATABASE_OWNER_URL, <SERVICE>_DATABASE_URL). */
  env: Record<string, string>;
  /** Drops the roles; call it once the test database is dropped (roles are server-wide). */
  drop(): Promise<void>;
}

/**
 * The distributed deployment's roles for one test database, bootstrapped as the deployment does:
 * `bootstrap` is the database library's `bootstrapRolesFromEnv`, run as the test server's superuser.
 * Roles belong to the whole server, so their names carry a random part: suites running side by
 * side never share one.
 */
export async function createTestRoles(db: TestDatabase, bootstrap: (env: Record<string, string>) => Promise<unknown>): Promise<TestRoles> {
  const tag = randomBytes(4).toString('hex');
  const urlFor = (role: string): TestRole => {
    const u = new URL(db.url);
    u.username = role;
    u.password = randomBytes(12).toString('hex');
    return { role, url: u.toString() };
  };
  const owner = urlFor(`vt_${tag}_owner`);
  const services = Object.fromEntries(SERVICE_SCHEMAS.map(({ service, schema }) => [service, urlFor(`vt_${tag}_${schema}`)])) as Record<DatabaseService, TestRole>;
  const env: Record<string, string> = {
    DATABASE_ADMIN_URL: db.url,
    DATABASE_OWNER_URL: owner.url,
    ...Object.fromEntries(SERVICE_SCHEMAS.map(({ service }) => [serviceUrlVariable(service), services[service].url])),
  };
  await bootstrap(env);
  return {
    owner,
    services,
    env,
    drop: async () => {
      const admin = new Client({ connectionString: testServerUrl() });
      await admin.connect();
      try {
        for (const { role } of [owner, ...Object.values(services)]) await admin.query(`DROP ROLE IF EXISTS "${role}"`);
      } finally {
        await admin.end();
      }
    },
  };
}
