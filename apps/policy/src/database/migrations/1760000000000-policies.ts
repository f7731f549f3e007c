import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Policies1760000000000 implements MigrationInterface {
  name = 'Policies1760000000000';

  async up(runner: QueryRunner): Promise<void> {
    // Read model of the policy streams in policy.event_store (a projection: rebuildable from them).
    // A deleted policy keeps its row (deleted_at set) so its violations stay listable and its id known.
    await runner.query(`
      CREATE TABLE policy.policies (
        id          text        PRIMARY KEY,
        name        text        NOT NULL,
        type        text        NOT NULL,
        enabled     boolean     NOT NULL,
        description text        NOT NULL DEFAULT '',
        databases   text[]      NOT NULL,
        config      jsonb       NOT NULL,
        version     integer     NOT NULL,
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        deleted_at  timestamptz
      )`);
    // Names are unique among live policies; the projection enforces it inside the command's transaction.
    await runner.query(`CREATE UNIQUE INDEX policies_name_live ON policy.policies (name) WHERE deleted_at IS NULL`);
    await runner.query(`CREATE INDEX policies_databases ON policy.policies USING gin (databases)`);
    await runner.query(`CREATE INDEX policies_created ON policy.policies (created_at, id) WHERE deleted_at IS NULL`);
    // Violations are not events of the policy stream: they are facts reported by enforcement.
    await runner.query(`
      CREATE TABLE policy.violations (
        id                 text        PRIMARY KEY,
        policy_id          text        NOT NULL,
        "timestamp"        timestamptz NOT NULL,
        user_name          text,
        database_id        text        NOT NULL,
        source_ip          text,
        query              text,
        matched_conditions text[]      NOT NULL,
        action_taken       text        NOT NULL,
        severity           text        NOT NULL,
        event_id           text        NOT NULL,
        recorded_at        timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX violations_policy_time ON policy.violations (policy_id, "timestamp" DESC, id DESC)`);
    // Kept exact by one atomic upsert per batch (row lock), never by read-modify-write.
    await runner.query(`
      CREATE TABLE policy.violation_stats (
        policy_id         text        PRIMARY KEY,
        violation_count   bigint      NOT NULL,
        last_violation_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE policy.violation_stats`);
    await runner.query(`DROP TABLE policy.violations`);
    await runner.query(`DROP TABLE policy.policies`);
  }
}
