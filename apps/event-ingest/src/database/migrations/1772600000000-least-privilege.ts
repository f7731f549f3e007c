import { APPEND_ONLY_BYPASS_SETTING, appendOnlyTable } from '@vigil/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const LOCK = `hashtext('vigil:events-partitions')`;
/** The only table the maintenance functions may delete rows of (moving late rows, purging expired ones). */
const DEFAULT_PARTITION = 'event_ingest.events_default';

/**
 * Least privilege for the event store (docs/operations.md#database-roles):
 * - event_ingest.events is append-only for every role, its owner included: UPDATE, DELETE and
 *   TRUNCATE are refused by triggers on the table and each partition (the earlier UPDATE-only
 *   `events_immutable` trigger is replaced).
 * - Partition maintenance and retention, the only changes events ever see, run through three
 *   SECURITY DEFINER functions owned by the owner role, with a pinned search_path and validated
 *   arguments; the runtime role may call them and nothing else of the kind. Retention can drop
 *   only days older than both the retention the caller asks for and `retention_floor.days`, which
 *   only the owner writes (from EVENTS_RETENTION_DAYS when migrations run): a stolen runtime
 *   credential cannot shorten retention.
 */
export class LeastPrivilege1772600000000 implements MigrationInterface {
  name = 'LeastPrivilege1772600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TRIGGER IF EXISTS events_immutable ON event_ingest.events`);
    await runner.query(`DROP FUNCTION IF EXISTS event_ingest.events_immutable()`);
    for (const statement of appendOnlyTable('event_ingest', 'events')) await runner.query(statement);

    // NULL: retention is off (EVENTS_RETENTION_DAYS=0), nothing may be dropped. 1 until the owner
    // writes the configured value: what the functions allowed callers before the floor existed.
    await runner.query(`
      CREATE TABLE event_ingest.retention_floor (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        days      integer CHECK (days >= 1)
      )`);
    await runner.query(`INSERT INTO event_ingest.retention_floor (days) VALUES (1)`);

    // The oldest instant retention keeps, for a caller's retention in days; refuses a retention
    // below the floor (or any, when the floor is NULL) with a message that names both.
    await runner.query(`
      CREATE FUNCTION event_ingest.retention_cutoff(p_retention_days integer) RETURNS timestamptz
      LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        floor_days integer;
      BEGIN
        SELECT days INTO floor_days FROM event_ingest.retention_floor;
        IF floor_days IS NULL THEN
          RAISE EXCEPTION 'event retention is off in this database (event_ingest.retention_floor.days is NULL): nothing is dropped'
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF p_retention_days IS NULL OR p_retention_days < floor_days THEN
          RAISE EXCEPTION 'a retention of % days is below the floor of % days set by the database owner', p_retention_days, floor_days
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN (date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => p_retention_days)) AT TIME ZONE 'UTC';
      END $fn$`);

    // Creates one day's partition; rows of that day waiting in the default partition move into it
    // in the same transaction (PostgreSQL refuses to attach a range the default holds). Returns
    // how many rows moved, or NULL when the partition existed.
    await runner.query(`
      CREATE FUNCTION event_ingest.create_event_partition(p_day date) RETURNS integer
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        part_name text := 'events_p' || to_char(p_day, 'YYYYMMDD');
        part regclass;
        range_start timestamptz := p_day::timestamp AT TIME ZONE 'UTC';
        range_end timestamptz := (p_day + 1)::timestamp AT TIME ZONE 'UTC';
        moved integer := 0;
      BEGIN
        IF p_day IS NULL OR p_day < date '2000-01-01' OR p_day > date '9999-01-01' THEN
          RAISE EXCEPTION 'no partition for the day %', p_day USING ERRCODE = 'invalid_parameter_value';
        END IF;
        PERFORM pg_advisory_xact_lock(${LOCK});
        IF to_regclass('event_ingest.' || part_name) IS NOT NULL THEN
          RETURN NULL;
        END IF;
        IF EXISTS (SELECT 1 FROM ${DEFAULT_PARTITION} WHERE "timestamp" >= range_start AND "timestamp" < range_end) THEN
          LOCK TABLE ${DEFAULT_PARTITION} IN SHARE ROW EXCLUSIVE MODE;
          EXECUTE format('CREATE TABLE event_ingest.%I (LIKE event_ingest.events)', part_name);
          PERFORM set_config('${APPEND_ONLY_BYPASS_SETTING}', '${DEFAULT_PARTITION}', true);
          EXECUTE format(
            'WITH moved AS (DELETE FROM ${DEFAULT_PARTITION} WHERE "timestamp" >= $1 AND "timestamp" < $2 RETURNING *)
             INSERT INTO event_ingest.%I SELECT * FROM moved', part_name) USING range_start, range_end;
          GET DIAGNOSTICS moved = ROW_COUNT;
          PERFORM set_config('${APPEND_ONLY_BYPASS_SETTING}', '', true);
          EXECUTE format('ALTER TABLE event_ingest.events ATTACH PARTITION event_ingest.%I FOR VALUES FROM (%L) TO (%L)', part_name, range_start, range_end);
        ELSE
          EXECUTE format('CREATE TABLE event_ingest.%I PARTITION OF event_ingest.events FOR VALUES FROM (%L) TO (%L)', part_name, range_start, range_end);
        END IF;
        part := to_regclass('event_ingest.' || part_name);
        PERFORM event_ingest.append_only_protect(part);
        INSERT INTO event_ingest.partition_log (partition_name, action, range_start, range_end, rows_moved)
        VALUES (part_name, 'created', range_start, range_end, moved);
        RETURN moved;
      END $fn$`);

    // Drops one day's partition whole, and that day's hourly counts with it (counts never outlive
    // their events), if the whole day is older than the retention asked for, which may not be
    // below the floor. Returns false when the partition is already gone.
    await runner.query(`
      CREATE FUNCTION event_ingest.drop_expired_event_partition(p_partition text, p_retention_days integer) RETURNS boolean
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        cutoff timestamptz := event_ingest.retention_cutoff(p_retention_days);
        part_day date;
        range_start timestamptz;
        range_end timestamptz;
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
        EXECUTE format('DROP TABLE event_ingest.%I', p_partition);
        -- After the DROP, which waits for writers to the day to commit: none of their counts are left behind.
        DELETE FROM event_ingest.event_counts WHERE hour >= range_start AND hour < range_end;
        INSERT INTO event_ingest.partition_log (partition_name, action, range_start, range_end)
        VALUES (p_partition, 'dropped', range_start, range_end);
        RETURN true;
      END $fn$`);

    // Rows older than the retention that never got a partition of their own, and every hourly
    // count before the cut-off, in one transaction. Returns how many rows went.
    await runner.query(`
      CREATE FUNCTION event_ingest.purge_expired_default_events(p_retention_days integer) RETURNS bigint
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        cutoff timestamptz := event_ingest.retention_cutoff(p_retention_days);
        gone bigint;
      BEGIN
        PERFORM set_config('${APPEND_ONLY_BYPASS_SETTING}', '${DEFAULT_PARTITION}', true);
        DELETE FROM ${DEFAULT_PARTITION} WHERE "timestamp" < cutoff;
        GET DIAGNOSTICS gone = ROW_COUNT;
        PERFORM set_config('${APPEND_ONLY_BYPASS_SETTING}', '', true);
        DELETE FROM event_ingest.event_counts WHERE hour < cutoff;
        RETURN gone;
      END $fn$`);

    // The days waiting in the default partition, for the runtime role, which reads no partition directly.
    await runner.query(`
      CREATE FUNCTION event_ingest.days_in_default_partition(p_limit integer) RETURNS SETOF timestamptz
      LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
        SELECT DISTINCT date_trunc('day', "timestamp", 'UTC') FROM ${DEFAULT_PARTITION} ORDER BY 1 DESC LIMIT least(greatest(p_limit, 0), 1000)
      $fn$`);

    for (const fn of [
      'retention_cutoff(integer)',
      'create_event_partition(date)',
      'drop_expired_event_partition(text, integer)',
      'purge_expired_default_events(integer)',
      'days_in_default_partition(integer)',
      'append_only_refuse()',
    ]) {
      await runner.query(`REVOKE ALL ON FUNCTION event_ingest.${fn} FROM PUBLIC`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const fn of [
      'days_in_default_partition(integer)',
      'purge_expired_default_events(integer)',
      'drop_expired_event_partition(text, integer)',
      'create_event_partition(date)',
      'retention_cutoff(integer)',
    ]) {
      await runner.query(`DROP FUNCTION event_ingest.${fn}`);
    }
    await runner.query(`DROP TABLE event_ingest.retention_floor`);
    await runner.query(`
      DO $do$ DECLARE rel regclass; BEGIN
        FOR rel IN SELECT relid FROM pg_partition_tree('event_ingest.events') LOOP
          EXECUTE format('DROP TRIGGER IF EXISTS append_only_truncate ON %s', rel);
        END LOOP;
      END $do$`);
    await runner.query(`DROP TRIGGER append_only_rows ON event_ingest.events`);
    await runner.query(`
      CREATE FUNCTION event_ingest.events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit events are immutable'; END $$`);
    await runner.query(`
      CREATE TRIGGER events_immutable BEFORE UPDATE ON event_ingest.events
      FOR EACH ROW EXECUTE FUNCTION event_ingest.events_immutable()`);
  }
}
