import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { EventSource } from 'eventsource';
import { Client } from 'pg';
import type { RunningService } from '@vigil/platform';
import { createTestDatabase, startWebhookReceiver, type TestDatabase, testServerUrl, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './testing/http';
import { startProxyBehind } from './testing/proxy';
import { startTestSystem, type TestSystem } from './testing/test-system';

/**
 * Secrets in SQL sent through the PostgreSQL audit proxy (a role password, a pgcrypto key) never
 * leave the proxy: against a real PostgreSQL, with the whole system behind the proxy, the secret is
 * in neither the stored event, nor the webhook delivery, nor the SSE stream, while the statements
 * themselves ran with it.
 */
let system: TestSystem;
let proxy: RunningService;
let target: TestDatabase;
let receiver: WebhookReceiver;
let spillDir: string;
let proxyPort: number;
let token: string;
let stream: EventSource | undefined;
const role = `vigil_redact_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  system = await startTestSystem({ bus: 'memory', env: { DELIVERY_ALLOW_INSECURE_TARGETS: 'true' } });
  receiver = await startWebhookReceiver();
  target = await createTestDatabase();
  ({ service: proxy, port: proxyPort, spillDir } = await startProxyBehind(system, target, 'db_redact', {
    // An operator pattern on top of the built-in rules.
    PROXY_REDACT_PATTERNS: '["api_token=(\\\\w+)"]',
  }));
  token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
}, 120_000);

afterAll(async () => {
  stream?.close();
  await proxy?.stop();
  await receiver?.close();
  await system?.close();
  await target?.drop();
  const admin = new Client({ connectionString: testServerUrl() });
  await admin.connect();
  await admin.query(`DROP ROLE IF EXISTS ${role}`).finally(() => admin.end());
  rmSync(spillDir, { recursive: true, force: true });
});

function url(): string {
  const u = new URL(testServerUrl());
  u.host = `127.0.0.1:${proxyPort}`;
  u.pathname = `/${target.name}`;
  return u.toString();
}

it('keeps role passwords, pgcrypto keys and configured patterns out of stored events, webhooks and the SSE stream', async () => {
  const hook = await http(system.gatewayUrl, 'POST', '/v1/webhooks', { token, body: { url: `${receiver.url}/redact`, events: ['database.query'] } });
  expect(hook.status).toBe(201);

  const streamed: string[] = [];
  stream = new EventSource(`${system.gatewayUrl}/v1/events/stream?database_id=db_redact`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
  });
  stream.addEventListener('database.query', (e) => streamed.push(e.data));
  await new Promise<void>((resolve, reject) => {
    stream!.onopen = () => resolve();
    stream!.onerror = (e) => reject(new Error(`stream failed: ${e.message ?? e.code}`));
  });

  const secrets = ['S3cret-known', 'S3cret-create', 'K3y-known', 'tok3nvalue'];
  const statements = [
    `CREATE ROLE ${role} LOGIN ENCRYPTED PASSWORD 'S3cret-create'`,
    `ALTER ROLE ${role} PASSWORD 'S3cret-known'`,
    "SELECT 'api_token=tok3nvalue' AS setting",
  ];
  // pgcrypto is a contrib extension: when the server lacks it, only that statement is left out.
  const direct = new Client({ connectionString: target.url });
  await direct.connect();
  const pgcrypto = await direct.query('CREATE EXTENSION IF NOT EXISTS pgcrypto').then(
    () => true,
    (error: Error) => {
      process.stderr.write(`pgcrypto statement left out: the server cannot create the extension (${error.message})\n`);
      return false;
    },
  );
  await direct.end();
  if (pgcrypto) statements.push("SELECT pgp_sym_decrypt(pgp_sym_encrypt('payload', 'K3y-known'), 'K3y-known') AS plain");

  const client = new Client({ connectionString: url() });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
    // The statements ran with the real secrets.
    if (pgcrypto) expect((await client.query("SELECT pgp_sym_decrypt(pgp_sym_encrypt('x', 'K3y-known'), 'K3y-known') AS plain")).rows[0].plain).toBe('x');
  } finally {
    await client.end();
  }
  const marker = `ROLE ${role} PASSWORD`;
  const expectedQueries = [
    `CREATE ROLE ${role} LOGIN ENCRYPTED PASSWORD '***'`,
    `ALTER ROLE ${role} PASSWORD '***'`,
    "SELECT 'api_token=***' AS setting",
    ...(pgcrypto ? ["SELECT pgp_sym_decrypt(pgp_sym_encrypt('payload', '***'), '***') AS plain"] : []),
  ];

  // Stored events (through the API and in the table itself).
  const events = await waitFor(async () => {
    const page = await http(system.gatewayUrl, 'GET', '/v1/events?database_id=db_redact&type=database.query&limit=100', { token });
    const list = (page.body.events ?? []) as { details: { query?: string } }[];
    const queries = list.map((e) => e.details.query ?? '');
    return expectedQueries.every((q) => queries.includes(q)) ? list : undefined;
  }, 15_000, 'the redacted records in the events API');
  expect(events.some((e) => e.details.query?.includes(marker))).toBe(true);
  const stored = await system.db.query<{ details: unknown }>(`SELECT details FROM event_ingest.events WHERE database_id = 'db_redact'`);
  expect(stored.length).toBeGreaterThanOrEqual(expectedQueries.length);

  // Webhook deliveries and the stream carry the same records.
  await waitFor(() => expectedQueries.every((q) => receiver.requests.some((r) => r.body.includes(JSON.stringify(q).slice(1, -1)))), 15_000, 'the webhook deliveries');
  await waitFor(() => expectedQueries.every((q) => streamed.some((d) => d.includes(JSON.stringify(q).slice(1, -1)))), 15_000, 'the SSE events');

  const everywhere = [JSON.stringify(events), JSON.stringify(stored), ...receiver.requests.map((r) => r.body), ...streamed].join('\n');
  for (const secret of secrets) expect(everywhere).not.toContain(secret);
}, 60_000);
