import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { verify } from '@octokit/webhooks-methods';
import { reencryptService, type ReencryptResult, type SecretsStatus, type ServiceDatabase } from '@vigil/database';
import { SecretBox, secretContext, type SealedColumn } from '@vigil/platform';
import { authDatabase } from '@vigil/service/auth';
import { deliveryDatabase } from '@vigil/service/delivery';
import { eventIngestDatabase } from '@vigil/service/event-ingest';
import { policyDatabase } from '@vigil/service/policy';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@vigil/testing';
import { http, login } from './testing/http';
import { startTestSystem, type TestSystem } from './testing/test-system';

const DATABASES: ServiceDatabase[] = [authDatabase, policyDatabase, eventIngestDatabase, deliveryDatabase];
const COLUMNS: SealedColumn[] = DATABASES.flatMap((d) => [...(d.secrets?.columns ?? [])]);
const OLD = SecretBox.generateKey();
const NEW = SecretBox.generateKey();
const OLD_ID = SecretBox.keyId(Buffer.from(OLD, 'base64'));
const NEW_ID = SecretBox.keyId(Buffer.from(NEW, 'base64'));

/** A value as Vigil sealed it before associated data existed (format v1: no AAD). */
function sealV1(keyBase64: string, plaintext: string): string {
  const key = Buffer.from(keyBase64, 'base64');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', SecretBox.keyId(key), iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/**
 * Secrets at rest (docs/operations.md#secrets-at-rest) on the whole system and the real
 * PostgreSQL: each sealed value opens only in the row and column it was sealed for; values sealed
 * before that (format v1) still open; `reencrypt-secrets` moves every value to the newest key in
 * format v2, after which the old key can leave VIGIL_ENCRYPTION_KEYS; a second run changes nothing.
 */
describe('secrets at rest', () => {
  let first: TestSystem;
  let system: TestSystem;
  let receiver: WebhookReceiver;
  let token: string;
  const api = (method: string, path: string, body?: unknown) => http(system.gatewayUrl, method, path, { token, body });
  const sealed = async (column: SealedColumn, id: string): Promise<string> => {
    const [row] = await system.db.query<{ value: string }>(`SELECT ${column.column} AS value FROM ${column.table} WHERE ${column.id} = $1`, [id]);
    return row!.value;
  };
  const setSealed = (column: SealedColumn, id: string, value: string) => system.db.query(`UPDATE ${column.table} SET ${column.column} = $2 WHERE ${column.id} = $1`, [id, value]);
  /** Every sealed value by column and row. */
  const everySealed = async (): Promise<Record<string, string>> => {
    const all: Record<string, string> = {};
    for (const column of COLUMNS) {
      const rows = await system.db.query<{ id: string; value: string }>(`SELECT ${column.id} AS id, ${column.column} AS value FROM ${column.table} WHERE ${column.column} IS NOT NULL`);
      for (const { id, value } of rows) all[secretContext(column, id)] = value;
    }
    return all;
  };
  /** A test delivery to the subscription, once its one attempt is recorded. */
  const testDelivery = async (webhookId: string) => {
    const started = await api('POST', `/v1/webhooks/${webhookId}/test`, { event_type: 'security.threat_detected' });
    expect(started.status).toBe(202);
    return waitFor(
      async () => {
        const got = await api('GET', `/v1/webhooks/${webhookId}/deliveries/${started.body.delivery_id}`);
        return got.body.status === 'pending' || got.body.status === 'in_flight' ? undefined : got.body;
      },
      20_000,
      `the test delivery to ${webhookId}`,
    );
  };
  const expectSignedWith = async (path: string, secret: string) => {
    const [request] = receiver.on(path).slice(-1);
    const timestamp = String(request!.headers['x-service-timestamp']);
    expect(await verify(secret, `${timestamp}.${request!.body}`, String(request!.headers['x-service-signature']))).toBe(true);
  };

  const WEBHOOK = deliveryDatabase.secrets!.columns.find((c) => c.table === 'delivery.webhooks')!;
  const DESTINATION = deliveryDatabase.secrets!.columns.find((c) => c.table === 'delivery.alert_destinations')!;
  const secretA = 'secret-of-subscription-a-0123';
  const secretB = 'secret-of-subscription-b-4567';
  let hookA: string;
  let hookB: string;
  let destination: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    first = await startTestSystem({ bus: 'memory', roles: true, env: { VIGIL_ENCRYPTION_KEYS: OLD, DELIVERY_ALLOW_INSECURE_TARGETS: 'true' } });
    system = first;
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    const create = async (path: string, secret: string) => {
      const response = await api('POST', '/v1/webhooks', { url: `${receiver.url}${path}`, events: ['security.*'], secret });
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    hookA = await create('/a', secretA);
    hookB = await create('/b', secretB);
    const dest = await api('POST', '/v1/alert-destinations', {
      name: 'sealed bearer',
      url: `${receiver.url}/dest`,
      auth_type: 'bearer',
      auth_token: 'destination-bearer-token',
      retry_attempts: 0,
    });
    expect(dest.status).toBe(201);
    destination = dest.body.id;
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await system?.close();
    if (system !== first) await first?.roles?.drop();
  });

  it('seals for the row: a secret swapped between two subscriptions does not open, nothing is sent, and the attempt names the row', async () => {
    const [a, b] = [await sealed(WEBHOOK, hookA), await sealed(WEBHOOK, hookB)];
    expect(SecretBox.header(a)).toEqual({ format: 'v2', keyId: OLD_ID });
    await setSealed(WEBHOOK, hookA, b);
    await setSealed(WEBHOOK, hookB, a);
    const refused = await testDelivery(hookA);
    expect(refused.status).toBe('failed');
    expect(refused.attempts[0].error).toBe(`not sent: the secret in delivery.webhooks.secret_sealed:${hookA} does not open: it was sealed for another row or column, or altered`);
    expect(JSON.stringify(refused)).not.toContain(secretB);
    expect(receiver.on('/a')).toHaveLength(0);

    await setSealed(WEBHOOK, hookA, a);
    await setSealed(WEBHOOK, hookB, b);
    expect((await testDelivery(hookA)).status).toBe('succeeded');
    await expectSignedWith('/a', secretA);
  }, 60_000);

  it('seals for the column: a webhook secret copied into an alert destination does not open there, no request is made and an update is refused', async () => {
    const own = await sealed(DESTINATION, destination);
    await setSealed(DESTINATION, destination, await sealed(WEBHOOK, hookA));
    const refused = await api('POST', '/v1/alerts/test', { destination_id: destination });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ success: false, status_code: null });
    expect(refused.body.error).toContain(`the secret in delivery.alert_destinations.secrets_sealed:${destination} does not open`);
    expect(receiver.on('/dest')).toHaveLength(0);
    // An update merges with the stored secrets: refused (a problem document), nothing changed.
    const patched = await api('PATCH', `/v1/alert-destinations/${destination}`, { rate_limit: 10 });
    expect(patched.status).toBe(409);
    expect(patched.body).toMatchObject({ code: 'alert_destination_secrets_unreadable', status: 409 });
    expect((await api('GET', `/v1/alert-destinations/${destination}`)).body.rate_limit).toBe(60);

    await setSealed(DESTINATION, destination, own);
    expect((await api('POST', '/v1/alerts/test', { destination_id: destination })).body.success).toBe(true);
    expect(receiver.on('/dest').slice(-1)[0]!.headers.authorization).toBe('Bearer destination-bearer-token');
  }, 60_000);

  it('declares every column that holds sealed values', async () => {
    const columns = await system.db.query<{ table_schema: string; table_name: string; column_name: string }>(
      `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
       WHERE c.table_schema IN ('auth', 'policy', 'event_ingest', 'delivery') AND c.data_type = 'text'`,
    );
    const found = new Set<string>();
    for (const c of columns) {
      const [hit] = await system.db.query(`SELECT 1 FROM ${c.table_schema}.${c.table_name} WHERE "${c.column_name}" ~ '^v[12][.][0-9a-f]{12}[.]' LIMIT 1`);
      if (hit) found.add(`${c.table_schema}.${c.table_name}.${c.column_name}`);
    }
    expect([...found].sort()).toEqual(COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
  }, 60_000);

  it('still opens values sealed in format v1, after a restart with a new key in front of the old one', async () => {
    // Every value rewritten as Vigil stored it before associated data: format v1, the old key.
    const old = new SecretBox([OLD]);
    for (const [context, value] of Object.entries(await everySealed())) {
      const column = COLUMNS.find((c) => context.startsWith(`${c.table}.${c.column}:`))!;
      await setSealed(column, context.slice(`${column.table}.${column.column}:`.length), sealV1(OLD, old.open(value, context)));
    }
    await system.stop();
    // No roles this time: the runtime roles of the first start stay and the command below uses them.
    system = await startTestSystem({ bus: 'memory', restartOf: first, env: { VIGIL_ENCRYPTION_KEYS: `${NEW},${OLD}`, DELIVERY_ALLOW_INSECURE_TARGETS: 'true' } });
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    expect(Object.values(await everySealed()).every((v) => v.startsWith(`v1.${OLD_ID}.`))).toBe(true);
    expect((await testDelivery(hookB)).status).toBe('succeeded');
    await expectSignedWith('/b', secretB);
    expect((await api('POST', '/v1/alerts/test', { destination_id: destination })).body.success).toBe(true);
  }, 180_000);

  it('reencrypt-secrets, as each service runtime role while the services run, moves every value to the newest key in format v2 and records each', async () => {
    const before = await everySealed();
    const results: Record<string, ReencryptResult> = {};
    for (const database of DATABASES) {
      const url = first.roles!.services[database.service as keyof NonNullable<TestSystem['roles']>['services']].url;
      results[database.service] = (await reencryptService(database, url, [NEW, OLD])) as ReencryptResult;
    }
    const runs = Object.values(results).flatMap((r) => r.runs);
    // Each column reports its counts; every value was v1 under the old key.
    const values = Object.keys(before);
    expect(runs.reduce((n, r) => n + r.resealed, 0)).toBe(values.length);
    expect(runs.reduce((n, r) => n + r.upgraded, 0)).toBe(values.length);
    expect(runs.find((r) => r.column === 'delivery.webhooks.secret_sealed')).toEqual({ column: 'delivery.webhooks.secret_sealed', resealed: 2, upgraded: 2, failed: [] });
    for (const result of Object.values(results)) {
      expect(result.done).toBe(true);
      expect(result.keys).toEqual([
        { key_id: NEW_ID, current: true, values: result.columns.reduce((n, c) => n + c.values, 0) },
        { key_id: OLD_ID, current: false, values: 0 },
      ]);
    }
    const after = await everySealed();
    expect(Object.keys(after).sort()).toEqual(values.sort());
    expect(Object.values(after).every((v) => v.startsWith(`v2.${NEW_ID}.`))).toBe(true);
    const [webhookRow] = await system.db.query<{ secret_key_id: string }>(`SELECT secret_key_id FROM delivery.webhooks WHERE id = $1`, [hookA]);
    expect(webhookRow!.secret_key_id).toBe(NEW_ID);

    // One vigil.secret.reencrypted event per value, through each service's outbox, with no value in it.
    const events = await waitFor(
      async () => {
        const rows = await system.db.query<{ details: { actor: unknown; target: { type: string; id: string }; changes: unknown } }>(
          `SELECT details FROM event_ingest.events WHERE type = 'vigil.secret.reencrypted'`,
        );
        return rows.length >= values.length ? rows : undefined;
      },
      20_000,
      'the vigil.secret.reencrypted events',
    );
    expect(events).toHaveLength(values.length);
    const webhookEvent = events.find((e) => e.details.target.type === 'webhook' && e.details.target.id === hookA)!;
    expect(webhookEvent.details).toMatchObject({
      actor: { kind: 'system', id: 'reencrypt-secrets' },
      service: 'delivery',
      changes: { before: { key_id: OLD_ID, format: 'v1' }, after: { key_id: NEW_ID, format: 'v2' } },
    });
    expect(new Set(events.map((e) => e.details.target.type))).toEqual(new Set(['signing_key', 'snapshot_signing_key', 'integrity_key', 'webhook', 'alert_destination']));
    expect(JSON.stringify(events)).not.toContain(before[secretContext(WEBHOOK, hookA)]!.split('.')[4]);
  }, 60_000);

  it('then the old key leaves VIGIL_ENCRYPTION_KEYS: every service starts and every secret opens; a second run (npm run secrets:reencrypt) changes nothing', async () => {
    const before = await everySealed();
    await system.stop();
    system = await startTestSystem({ bus: 'memory', restartOf: first, env: { VIGIL_ENCRYPTION_KEYS: NEW, DELIVERY_ALLOW_INSECURE_TARGETS: 'true' } });
    // Signing keys of auth, policy and event-ingest open at start (a start fails closed otherwise).
    token = await login(system.gatewayUrl, 'admin@example.com', system.adminPassword);
    expect((await testDelivery(hookA)).status).toBe('succeeded');
    await expectSignedWith('/a', secretA);
    expect((await api('POST', '/v1/alerts/test', { destination_id: destination })).body.success).toBe(true);
    expect(receiver.on('/dest').slice(-1)[0]!.headers.authorization).toBe('Bearer destination-bearer-token');

    const run = async (script: string) => {
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', script], {
        env: { ...process.env, DATABASE_URL: system.db.url, VIGIL_ENCRYPTION_KEYS: NEW },
        maxBuffer: 10 * 1024 * 1024,
      });
      return JSON.parse(stdout) as Record<string, ReencryptResult & SecretsStatus>;
    };
    const again = await run('secrets:reencrypt');
    expect(Object.keys(again)).toEqual(['auth', 'policy', 'event-ingest', 'delivery']);
    for (const result of Object.values(again)) {
      expect(result.runs.every((r) => r.resealed === 0 && r.failed.length === 0)).toBe(true);
      expect(result.done).toBe(true);
    }
    expect(await everySealed()).toEqual(before);
    const check = await run('secrets:check');
    expect(check.delivery!.columns.find((c) => c.column === 'delivery.webhooks.secret_sealed')).toMatchObject({ values: 2, by_key: { [NEW_ID]: 2 }, legacy_format: 0, pending: 0, unreadable: [] });
  }, 240_000);

  it('the check fails (exit 1) and names the row when a value does not open or still needs the old key', async () => {
    await setSealed(WEBHOOK, hookB, await sealed(WEBHOOK, hookA));
    const failed = await promisify(execFile)('npm', ['run', '--silent', 'secrets:check'], {
      env: { ...process.env, DATABASE_URL: system.db.url, VIGIL_ENCRYPTION_KEYS: NEW },
      maxBuffer: 10 * 1024 * 1024,
    }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    const status = JSON.parse(failed!.stdout) as Record<string, SecretsStatus>;
    expect(status.delivery!.done).toBe(false);
    expect(status.delivery!.columns[0]!.unreadable).toEqual([{ id: hookB, reason: 'wrong_place_or_altered', key_id: NEW_ID }]);
    expect(failed!.stdout).not.toContain(secretA);
  }, 120_000);
});
