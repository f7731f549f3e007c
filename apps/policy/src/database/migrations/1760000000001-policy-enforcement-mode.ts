import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shadow mode per policy (docs/policies.md#shadow-mode). Policies created before the field existed
 * have no mode in their events and are enforced, which the default gives their rows; a rebuild of
 * the projection yields the same.
 */
export class PolicyEnforcementMode1760000000001 implements MigrationInterface {
  name = 'PolicyEnforcementMode1760000000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE policy.policies
        ADD COLUMN enforcement_mode text NOT NULL DEFAULT 'enforce'
        CONSTRAINT policies_enforcement_mode CHECK (enforcement_mode IN ('enforce', 'shadow'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE policy.policies DROP COLUMN enforcement_mode`);
  }
}
