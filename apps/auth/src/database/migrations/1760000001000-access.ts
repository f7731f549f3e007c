import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys, OAuth clients, pending authorization requests and codes; refresh tokens bound to clients. */
export class Access1760000001000 implements MigrationInterface {
  name = 'Access1760000001000';

  async up(runner: QueryRunner): Promise<void> {
    // Keys are stored as a SHA-256 of the whole value (they carry 190 random bits, so a slow hash
    // adds nothing); `prefix` is what a list may show.
    await runner.query(`
      CREATE TABLE auth.api_keys (
        id           text        PRIMARY KEY,
        name         text        NOT NULL,
        prefix       text        NOT NULL,
        key_hash     text        NOT NULL UNIQUE,
        scopes       text[]      NOT NULL,
        created_by   text        NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        expires_at   timestamptz,
        last_used_at timestamptz,
        revoked_at   timestamptz
      )`);
    await runner.query(`
      CREATE TABLE auth.oauth_clients (
        client_id     text        PRIMARY KEY,
        name          text        NOT NULL,
        secret_hash   text        NOT NULL,
        redirect_uris text[]      NOT NULL,
        grant_types   text[]      NOT NULL,
        scopes        text[]      NOT NULL,
        created_by    text        NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
    // A validated authorization request waiting for the user's login and consent.
    await runner.query(`
      CREATE TABLE auth.oauth_requests (
        id             text        PRIMARY KEY,
        client_id      text        NOT NULL REFERENCES auth.oauth_clients (client_id) ON DELETE CASCADE,
        redirect_uri   text        NOT NULL,
        scopes         text[]      NOT NULL,
        state          text,
        code_challenge text        NOT NULL,
        csrf_hash      text        NOT NULL,
        expires_at     timestamptz NOT NULL,
        completed_at   timestamptz
      )`);
    await runner.query(`
      CREATE TABLE auth.authorization_codes (
        code_hash      text        PRIMARY KEY,
        client_id      text        NOT NULL REFERENCES auth.oauth_clients (client_id) ON DELETE CASCADE,
        user_id        text        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        redirect_uri   text        NOT NULL,
        scopes         text[]      NOT NULL,
        code_challenge text        NOT NULL,
        family_id      text        NOT NULL,
        expires_at     timestamptz NOT NULL,
        used_at        timestamptz
      )`);
    await runner.query(`ALTER TABLE auth.refresh_tokens ADD COLUMN client_id text REFERENCES auth.oauth_clients (client_id) ON DELETE CASCADE`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.refresh_tokens DROP COLUMN client_id`);
    await runner.query(`DROP TABLE auth.authorization_codes`);
    await runner.query(`DROP TABLE auth.oauth_requests`);
    await runner.query(`DROP TABLE auth.oauth_clients`);
    await runner.query(`DROP TABLE auth.api_keys`);
  }
}
