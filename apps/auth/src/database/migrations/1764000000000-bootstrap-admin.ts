import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marks the account the start-up bootstrap owns (AUDIT_ADMIN_EMAIL): only that account may be
 * made an administrator and have its password set from the configuration.
 */
export class BootstrapAdmin1764000000000 implements MigrationInterface {
  name = 'BootstrapAdmin1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.users ADD COLUMN bootstrap boolean NOT NULL DEFAULT false`);
    // On an existing installation the first account is the bootstrap's: it is created at the first
    // start, before anyone can log in, and only an administrator creates other accounts.
    await runner.query(`UPDATE auth.users SET bootstrap = true WHERE id = (SELECT id FROM auth.users ORDER BY created_at, id LIMIT 1)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE auth.users DROP COLUMN bootstrap`);
  }
}
