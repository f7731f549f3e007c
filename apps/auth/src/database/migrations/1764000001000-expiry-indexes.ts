import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Lets the purge of expired grants find them without reading whole tables. */
export class ExpiryIndexes1764000001000 implements MigrationInterface {
  name = 'ExpiryIndexes1764000001000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX refresh_tokens_expires_at ON auth.refresh_tokens (expires_at)`);
    await runner.query(`CREATE INDEX authorization_codes_expires_at ON auth.authorization_codes (expires_at)`);
    await runner.query(`CREATE INDEX oauth_requests_expires_at ON auth.oauth_requests (expires_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX auth.oauth_requests_expires_at`);
    await runner.query(`DROP INDEX auth.authorization_codes_expires_at`);
    await runner.query(`DROP INDEX auth.refresh_tokens_expires_at`);
  }
}
