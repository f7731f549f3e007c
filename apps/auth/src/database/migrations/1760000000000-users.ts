import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Users1760000000000 implements MigrationInterface {
  name = 'Users1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE auth.users (
        id            text        PRIMARY KEY,
        email         text        NOT NULL,
        password_hash text        NOT NULL,
        scopes        text[]      NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX users_email ON auth.users (lower(email))`);
    // Private keys are stored sealed (AES-256-GCM), never in clear.
    await runner.query(`
      CREATE TABLE auth.signing_keys (
        kid             text        PRIMARY KEY,
        alg             text        NOT NULL,
        private_key     text        NOT NULL,
        public_jwk      jsonb       NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        retired_at      timestamptz
      )`);
    // Only a hash of each refresh token is kept. family_id links a token to the ones it rotated
    // into, so reuse of a rotated token can revoke the whole chain.
    await runner.query(`
      CREATE TABLE auth.refresh_tokens (
        id          text        PRIMARY KEY,
        token_hash  text        NOT NULL UNIQUE,
        user_id     text        NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
        family_id   text        NOT NULL,
        scopes      text[]      NOT NULL,
        expires_at  timestamptz NOT NULL,
        used_at     timestamptz,
        revoked_at  timestamptz,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX refresh_tokens_family ON auth.refresh_tokens (family_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE auth.refresh_tokens`);
    await runner.query(`DROP TABLE auth.signing_keys`);
    await runner.query(`DROP TABLE auth.users`);
  }
}
