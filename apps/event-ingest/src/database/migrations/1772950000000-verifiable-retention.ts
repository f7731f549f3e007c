import { APPEND_ONLY_BYPASS_SETTING } from '@vigil/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const LOCK = `hashtext('vigil:events-partitions')`;
const DEFAULT_PARTITION = 'event_ingest.events_default';

/**
 * Retention that keeps the event log verifiable (docs/integrity.md#retention), inside the narrowly
 * granted functions the runtime role calls (docs/operations.md#database-roles):
 * - nothing is dropped before the Merkle tree has taken it (its leaf hash is then kept in
 *   integrity_leaf_blocks, which retention never touches): a day partition holding a sequence past
 *   the tree's size is kept for the next round, and only the default partition's rows the tree has
 *   taken are purged. This holds whether or not INTEGRITY_LOG is on: the caller cannot choose.
 * - the leaf ranges dropped are recorded in integrity_retained_gaps, with when and under which
 *   setting (`EVENTS_RETENTION_DAYS=<n>`, from the argument the floor has checked), so that
 *   verification counts them as dropped by retention and reports name them.
 * Same signatures as before: the grants stay.
 */
export class VerifiableRetention1772950000000 implements MigrationInterface {
  name = 'VerifiableRetention1772950000000';

  async up(runner: QueryRunner): Promise<void> {
    // Runs of consecutive sequences among the given ones, as leaf ranges (index = seq - 1).
    await runner.query(`
      CREATE FUNCTION event_ingest.record_retained_gaps(p_seqs bigint[], p_partition text, p_from timestamptz, p_to timestamptz, p_setting text)
      RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $fn$
        INSERT INTO event_ingest.integrity_retained_gaps (first_index, last_index, events, partition_name, range_start, range_end, setting)
        SELECT min(seq) - 1, max(seq) - 1, count(*), p_partition, p_from, p_to, p_setting
        FROM (SELECT seq, seq - row_number() OVER (ORDER BY seq) AS run FROM unnest(p_seqs) AS s(seq)) runs
        GROUP BY run
      $fn$`);
    await runner.query(`REVOKE ALL ON FUNCTION event_ingest.record_retained_gaps(bigint[], text, timestamptz, timestamptz, text) FROM PUBLIC`);

    await runner.query(`
      CREATE OR REPLACE FUNCTION event_ingest.drop_expired_event_partition(p_partition text, p_retention_days integer) RETURNS boolean
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        cutoff timestamptz := event_ingest.retention_cutoff(p_retention_days);
        part_day date;
        range_start timestamptz;
        range_end timestamptz;
        taken bigint;
        pending boolean;
        seqs bigint[];
      BEGIN
        IF p_partition IS NULL OR p_partition !~ '^events_p[0-9]{8}$' THEN
          RAISE EXCEPTION '% is not a day partition of event_ingest.events', p_partition USING ERRCODE = 'invalid_parameter_value';
        END IF;
        part_day := to_date(substr(p_partition, 9), 'YYYYMMDD');
        IF to_char(part_day, 'YYYYMMDD') <> substr(p_partition, 9) THEN
          RAISE EXCEPTION '% is not a day partition of event_ingest.events', p_partition USING ERRCODE = 'invalid_parameter_value';
        END IF;
        range_start := part_day::timestamp AT TIME ZONE 'UTC';
        range_end := (part_day + 1)::timestamp AT TIME ZONE 'UTC';
        IF range_end > cutoff THEN
          RAISE EXCEPTION 'partition % is not older than the retention of % days: refused', p_partition, p_retention_days
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        PERFORM pg_advisory_xact_lock(${LOCK});
        IF NOT EXISTS (
          SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'event_ingest.events'::regclass AND c.relname = p_partition
            AND c.relnamespace = 'event_ingest'::regnamespace
        ) THEN
          RETURN false;
        END IF;
        -- No writer adds to the day while its leaves are counted and it is dropped.
        EXECUTE format('LOCK TABLE event_ingest.%I IN ACCESS EXCLUSIVE MODE', p_partition);
        SELECT tree_size INTO taken FROM event_ingest.integrity_tree;
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM event_ingest.%I WHERE seq > $1)', p_partition) INTO pending USING taken;
        IF pending THEN
          RETURN false;
        END IF;
        EXECUTE format('SELECT coalesce(array_agg(seq), ''{}'') FROM event_ingest.%I', p_partition) INTO seqs;
        PERFORM event_ingest.record_retained_gaps(seqs, p_partition, range_start, range_end, format('EVENTS_RETENTION_DAYS=%s', p_retention_days));
        EXECUTE format('DROP TABLE event_ingest.%I', p_partition);
        DELETE FROM event_ingest.event_counts WHERE hour >= range_start AND hour < range_end;
        INSERT INTO event_ingest.partition_log (partition_name, action, range_start, range_end)
        VALUES (p_partition, 'dropped', range_start, range_end);
        RETURN true;
      END $fn$`);

    await runner.query(`
      CREATE OR REPLACE FUNCTION event_ingest.purge_expired_default_events(p_retention_days integer) RETURNS bigint
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        cutoff timestamptz := event_ingest.retention_cutoff(p_retention_days);
        taken bigint;
        seqs bigint[];
        gone bigint;
      BEGIN
        PERFORM pg_advisory_xact_lock(${LOCK});
        SELECT tree_size INTO taken FROM event_ingest.integrity_tree;
        SELECT coalesce(array_agg(seq), '{}') INTO seqs FROM ${DEFAULT_PARTITION} WHERE "timestamp" < cutoff AND seq <= taken;
        PERFORM event_ingest.record_retained_gaps(seqs, 'events_default', '-infinity'::timestamptz, cutoff, format('EVENTS_RETENTION_DAYS=%s', p_retention_days));
        PERFORM set_config('${APPEND_ONLY_BYPASS_SETTING}', '${DEFAULT_PARTITION}', true);
        DELETE FROM ${DEFAULT_PARTITION} WHERE "timestamp" < cutoff AND seq <= taken;
        GET DIAGNOSTICS gone = ROW_COUNT;
        PERFORM set_config('${APPEND_ONLY_BYPASS_SETTING}', '', true);
        DELETE FROM event_ingest.event_counts WHERE hour < cutoff;
        RETURN gone;
      END $fn$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION event_ingest.record_retained_gaps(bigint[], text, timestamptz, timestamptz, text)`);
    // The functions of LeastPrivilege1772600000000 come back with a re-run of that migration's up.
  }
}
