import { waitFor } from '@vigil/testing';
import { startTestSystem, type TestSystem } from './testing/test-system';

/** Auth deletes expired authorization requests, codes and refresh tokens on a schedule, and nothing else. */
describe('purge of expired grants', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await startTestSystem({ bus: 'memory', env: { AUTH_PURGE_INTERVAL_SECONDS: '1' } });
  }, 120_000);

  afterAll(async () => {
    await system?.close();
  });

  it('deletes expired rows in batches (more than one batch here) and keeps live ones', async () => {
    const db = system.db;
    const [{ id: userId }] = (await db.query<{ id: string }>(`SELECT id FROM auth.users LIMIT 1`)) as [{ id: string }];
    const client = `cli_purge_${Date.now()}`;
    await db.query(
      `INSERT INTO auth.oauth_clients (client_id, name, secret_hash, redirect_uris, grant_types, scopes, created_by)
       VALUES ($1, 'purge test', 'x', ARRAY['https://app.example/cb'], ARRAY['authorization_code'], ARRAY['read:logs'], $2)`,
      [client, userId],
    );
    // Everything goes in with one statement, so the purge (every second here) sees all of it or none of it; the
    // inserted counts come from the statement itself, since the purge may run the moment it commits.
    const [inserted] = await db.query<{ requests: number; codes: number; tokens: number }>(
      `WITH requests AS (
         INSERT INTO auth.oauth_requests (id, client_id, redirect_uri, scopes, code_challenge, csrf_hash, expires_at)
         VALUES ('req_expired_' || $2, $2, 'https://app.example/cb', ARRAY['read:logs'], 'c', 'h', now() - interval '1 minute'),
                ('req_live_' || $2, $2, 'https://app.example/cb', ARRAY['read:logs'], 'c', 'h', now() + interval '10 minutes')
         RETURNING expires_at),
       codes AS (
         INSERT INTO auth.authorization_codes (code_hash, client_id, user_id, redirect_uri, scopes, code_challenge, family_id, expires_at)
         VALUES ('code_expired_' || $2, $2, $1, 'https://app.example/cb', ARRAY['read:logs'], 'c', 'fam', now() - interval '1 minute'),
                ('code_live_' || $2, $2, $1, 'https://app.example/cb', ARRAY['read:logs'], 'c', 'fam', now() + interval '10 minutes')
         RETURNING expires_at),
       -- 2100 expired refresh tokens (three batches of at most 1000) beside one live, used one.
       tokens AS (
         INSERT INTO auth.refresh_tokens (id, token_hash, user_id, family_id, scopes, expires_at, used_at)
         SELECT 'rt_expired_' || i, 'hash_expired_' || i || $2, $1, 'fam', ARRAY['read:logs'], now() - interval '1 second', NULL
         FROM generate_series(1, 2100) AS i
         UNION ALL
         SELECT 'rt_live_' || $2, 'hash_live_' || $2, $1, 'fam', ARRAY['read:logs'], now() + interval '1 day', now()
         RETURNING expires_at)
       SELECT (SELECT count(*)::int FROM requests WHERE expires_at < now()) AS requests,
              (SELECT count(*)::int FROM codes WHERE expires_at < now()) AS codes,
              (SELECT count(*)::int FROM tokens WHERE expires_at < now()) AS tokens`,
      [userId, client],
    );
    expect(inserted).toEqual({ requests: 1, codes: 1, tokens: 2100 });

    const left = async () => {
      const [row] = await db.query<{ requests: number; codes: number; tokens: number }>(
        `SELECT (SELECT count(*)::int FROM auth.oauth_requests WHERE expires_at < now()) AS requests,
                (SELECT count(*)::int FROM auth.authorization_codes WHERE expires_at < now()) AS codes,
                (SELECT count(*)::int FROM auth.refresh_tokens WHERE expires_at < now()) AS tokens`,
      );
      return row!;
    };
    await waitFor(async () => Object.values(await left()).every((n) => n === 0), 15_000, 'expired grants purged');

    expect(await db.query(`SELECT id FROM auth.oauth_requests WHERE client_id = $1`, [client])).toEqual([{ id: `req_live_${client}` }]);
    expect(await db.query(`SELECT code_hash FROM auth.authorization_codes WHERE client_id = $1`, [client])).toEqual([{ code_hash: `code_live_${client}` }]);
    expect(await db.query(`SELECT id FROM auth.refresh_tokens WHERE family_id = 'fam'`)).toEqual([{ id: `rt_live_${client}` }]);
  }, 60_000);
});
