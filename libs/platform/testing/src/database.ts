import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The server tests create their databases on (tools/test-runner.mjs sets it). */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabase {
  url: string;
  name: string;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh database per test file, so files run in parallel without seeing each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `vigil_t_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString(),
    name,
    query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
    drop: async () => {
      await client.end();
      const cleanup = new Client({ connectionString: testServerUrl() });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
