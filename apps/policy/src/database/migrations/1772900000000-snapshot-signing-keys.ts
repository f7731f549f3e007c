import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Ed25519 keys that sign policy snapshots on policy.events.v1 (docs/policies.md#signed-snapshots).
 * The private key is sealed with VIGIL_ENCRYPTION_KEYS; retired keys stay so that snapshots they
 * signed still verify. At most one key is active.
 */
export class SnapshotSigningKeys1772900000000 implements MigrationInterface {
  name = 'SnapshotSigningKeys1772900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE policy.snapshot_signing_keys (
        key_id      text        PRIMARY KEY,
        public_key  text        NOT NULL,
        private_key text        NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        retired_at  timestamptz
      )`);
    await runner.query(`CREATE UNIQUE INDEX snapshot_signing_keys_one_active ON policy.snapshot_signing_keys ((true)) WHERE retired_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE policy.snapshot_signing_keys`);
  }
}
