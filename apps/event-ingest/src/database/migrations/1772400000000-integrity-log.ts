import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The verifiable log of stored events (docs/integrity.md#storage):
 * - `events.leaf_hash`: the event's RFC 9162 leaf hash, computed by the transaction that stores it
 *   (before it takes the sequence lock). Null for events stored before this migration, and with
 *   INTEGRITY_LOG off: the tree builder computes those from the row.
 * - `integrity_tree`: how far the tree builder got (`tree_size` leaves, leaf index = seq - 1) and
 *   the leaf hashes of the incomplete last block of 256 leaves.
 * - `integrity_leaf_blocks`: every complete block of 256 leaf hashes (8 KiB each), append-only.
 *   Retention never drops them, so the events still stored keep verifying.
 * - `integrity_nodes`: every complete subtree hash at level 8 (one block) and above, append-only.
 *   An inclusion proof reads one block and at most ~2·log2(n) nodes.
 * - `integrity_keys`: Ed25519 signing keys, private keys sealed with VIGIL_ENCRYPTION_KEYS.
 * - `integrity_checkpoints`: signed tree heads, append-only; each is also stored as an
 *   `audit.checkpoint` event (`event_id`).
 * - `integrity_retained_gaps`: leaf ranges whose events retention dropped, with when and why.
 * - `integrity_verifications`: server-side verification jobs and their progress.
 */
export class IntegrityLog1772400000000 implements MigrationInterface {
  name = 'IntegrityLog1772400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE event_ingest.events ADD COLUMN leaf_hash bytea`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_tree (
        singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
        tree_size  bigint      NOT NULL,
        tail       bytea       NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (length(tail) = (tree_size % 256) * 32)
      )`);
    await runner.query(`INSERT INTO event_ingest.integrity_tree (tree_size, tail) VALUES (0, '\\x')`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_leaf_blocks (
        block  bigint PRIMARY KEY CHECK (block >= 0),
        hashes bytea  NOT NULL CHECK (length(hashes) = 8192)
      )`);
    // Hashes do not compress: store them out of line without trying.
    await runner.query(`ALTER TABLE event_ingest.integrity_leaf_blocks ALTER COLUMN hashes SET STORAGE EXTERNAL`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_nodes (
        level smallint NOT NULL CHECK (level >= 8 AND level < 64),
        idx   bigint   NOT NULL CHECK (idx >= 0),
        hash  bytea    NOT NULL CHECK (length(hash) = 32),
        PRIMARY KEY (level, idx)
      )`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_keys (
        key_id      text        PRIMARY KEY,
        algorithm   text        NOT NULL DEFAULT 'Ed25519',
        public_key  text        NOT NULL,
        private_key text        NOT NULL,
        valid_from  timestamptz NOT NULL,
        valid_until timestamptz,
        reason      text        NOT NULL
      )`);
    await runner.query(`CREATE UNIQUE INDEX integrity_keys_one_active ON event_ingest.integrity_keys ((true)) WHERE valid_until IS NULL`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_checkpoints (
        tree_size  bigint      PRIMARY KEY CHECK (tree_size >= 0),
        root_hash  bytea       NOT NULL CHECK (length(root_hash) = 32),
        "timestamp" timestamptz NOT NULL,
        key_id     text        NOT NULL REFERENCES event_ingest.integrity_keys (key_id),
        signature  text        NOT NULL,
        event_id   text        NOT NULL,
        event_seq  bigint      NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_retained_gaps (
        first_index    bigint      NOT NULL,
        last_index     bigint      NOT NULL,
        events         bigint      NOT NULL,
        partition_name text        NOT NULL,
        range_start    timestamptz NOT NULL,
        range_end      timestamptz NOT NULL,
        setting        text        NOT NULL,
        dropped_at     timestamptz NOT NULL DEFAULT now(),
        CHECK (first_index <= last_index)
      )`);
    await runner.query(`CREATE INDEX integrity_retained_gaps_range ON event_ingest.integrity_retained_gaps (first_index, last_index)`);
    await runner.query(`
      CREATE TABLE event_ingest.integrity_verifications (
        id            text        PRIMARY KEY,
        status        text        NOT NULL CHECK (status IN ('running', 'passed', 'failed')),
        tree_size     bigint      NOT NULL,
        from_index    bigint      NOT NULL,
        to_index      bigint      NOT NULL,
        checked       bigint      NOT NULL DEFAULT 0,
        total         bigint      NOT NULL,
        first_failure jsonb,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        finished_at   timestamptz,
        lease_until   timestamptz
      )`);
    await runner.query(`CREATE INDEX integrity_verifications_running ON event_ingest.integrity_verifications (created_at) WHERE status = 'running'`);
    // Append-only tables refuse changes (the tree state, keys' validity and job progress change by design).
    await runner.query(`
      CREATE FUNCTION event_ingest.integrity_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of ['integrity_leaf_blocks', 'integrity_nodes', 'integrity_checkpoints', 'integrity_retained_gaps']) {
      await runner.query(`
        CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON event_ingest.${table}
        FOR EACH ROW EXECUTE FUNCTION event_ingest.integrity_append_only()`);
      await runner.query(`
        CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON event_ingest.${table}
        FOR EACH STATEMENT EXECUTE FUNCTION event_ingest.integrity_append_only()`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['integrity_verifications', 'integrity_retained_gaps', 'integrity_checkpoints', 'integrity_keys', 'integrity_nodes', 'integrity_leaf_blocks', 'integrity_tree']) {
      await runner.query(`DROP TABLE event_ingest.${table}`);
    }
    await runner.query(`DROP FUNCTION event_ingest.integrity_append_only()`);
    await runner.query(`ALTER TABLE event_ingest.events DROP COLUMN leaf_hash`);
  }
}
