import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The credential lifecycle (docs/access.md, "Credential lifecycle"): disabled users, an absolute
 * lifetime for each login session, OAuth client secrets rotated with an overlap, and signing keys
 * that stay published after retirement until every token they signed has expired.
 */
export class CredentialLifecycle1772700000000 implements MigrationInterface {
  name = 'CredentialLifecycle1772700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.users ADD COLUMN disabled_at timestamptz`);
    // The moment a session (refresh-token family) ends whatever its refreshes: set at login and
    // carried unchanged by every rotation. Existing sessions end when their current token does.
    await runner.query(`ALTER TABLE auth.refresh_tokens ADD COLUMN session_expires_at timestamptz`);
    await runner.query(`UPDATE auth.refresh_tokens SET session_expires_at = expires_at`);
    await runner.query(`ALTER TABLE auth.refresh_tokens ALTER COLUMN session_expires_at SET NOT NULL`);
    // A replica of the previous version, still running during an upgrade, inserts without the
    // column: its sessions get the default absolute lifetime.
    await runner.query(`ALTER TABLE auth.refresh_tokens ALTER COLUMN session_expires_at SET DEFAULT now() + interval '30 days'`);
    await runner.query(`CREATE INDEX refresh_tokens_user ON auth.refresh_tokens (user_id) WHERE revoked_at IS NULL`);
    await runner.query(`ALTER TABLE auth.oauth_clients ADD COLUMN previous_secret_hash text`);
    await runner.query(`ALTER TABLE auth.oauth_clients ADD COLUMN previous_secret_expires_at timestamptz`);
    await runner.query(`ALTER TABLE auth.oauth_clients ADD COLUMN secret_rotated_at timestamptz`);
    // A retired key is published until then (retirement + the longest access-token lifetime).
    await runner.query(`ALTER TABLE auth.signing_keys ADD COLUMN published_until timestamptz`);
    await runner.query(`UPDATE auth.signing_keys SET published_until = retired_at + interval '2 days' WHERE retired_at IS NOT NULL`);
    await runner.query(`CREATE INDEX api_keys_created_by ON auth.api_keys (created_by) WHERE revoked_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.api_keys_created_by`);
    await runner.query(`ALTER TABLE auth.signing_keys DROP COLUMN published_until`);
    await runner.query(`ALTER TABLE auth.oauth_clients DROP COLUMN secret_rotated_at`);
    await runner.query(`ALTER TABLE auth.oauth_clients DROP COLUMN previous_secret_expires_at`);
    await runner.query(`ALTER TABLE auth.oauth_clients DROP COLUMN previous_secret_hash`);
    await runner.query(`DROP INDEX auth.refresh_tokens_user`);
    await runner.query(`ALTER TABLE auth.refresh_tokens DROP COLUMN session_expires_at`);
    await runner.query(`ALTER TABLE auth.users DROP COLUMN disabled_at`);
  }
}
