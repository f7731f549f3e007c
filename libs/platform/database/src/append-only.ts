import type { MigrationInterface } from 'typeorm';
import { quoteIdent, sqlMigration } from './data-source';

/** Name of the row trigger that marks a table append-only (grantRuntimeRole gives such tables SELECT and INSERT only). */
export const APPEND_ONLY_ROW_TRIGGER = 'append_only_rows';
export const APPEND_ONLY_TRUNCATE_TRIGGER = 'append_only_truncate';

/**
 * The transaction-local setting a SECURITY DEFINER maintenance function sets (set_config(..., true))
 * to delete rows of one append-only table, e.g. moving late events out of a default partition.
 * Only a role that holds DELETE on the table gets as far as the trigger: the owner, which could drop
 * the trigger anyway, and superusers. Runtime roles never hold it.
 */
export const APPEND_ONLY_BYPASS_SETTING = 'vigil.append_only_delete';

/**
 * The schema's two helper functions, created or replaced:
 * - `append_only_refuse()`: the trigger function; refuses UPDATE, DELETE and TRUNCATE whoever runs them.
 * - `append_only_protect(regclass)`: puts the triggers on a table (and on each of its partitions:
 *   PostgreSQL clones row triggers to partitions, present and future, but not TRUNCATE triggers,
 *   so whatever creates a partition later calls this on it) and takes UPDATE, DELETE and TRUNCATE
 *   away from every role but the owner. Only the owner may run it.
 */
export function appendOnlyFunctions(schema: string): string[] {
  const s = quoteIdent(schema);
  return [
    `
      CREATE OR REPLACE FUNCTION ${s}.append_only_refuse() RETURNS trigger
      LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
      BEGIN
        IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW'
           AND current_setting('${APPEND_ONLY_BYPASS_SETTING}', true) = quote_ident(TG_TABLE_SCHEMA) || '.' || quote_ident(TG_TABLE_NAME) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION '%.% is append-only: stored rows are immutable (% refused)', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP
          USING ERRCODE = 'insufficient_privilege';
      END $fn$`,
    `
      CREATE OR REPLACE FUNCTION ${s}.append_only_protect(target regclass) RETURNS void
      LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
      DECLARE
        rel regclass;
        grantee_name text;
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = target AND tgname = '${APPEND_ONLY_ROW_TRIGGER}') THEN
          EXECUTE format('CREATE TRIGGER ${APPEND_ONLY_ROW_TRIGGER} BEFORE UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION ${s}.append_only_refuse()', target);
        END IF;
        FOR rel IN
          SELECT target UNION SELECT relid FROM pg_partition_tree(target) WHERE relid IS NOT NULL
        LOOP
          IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = rel AND tgname = '${APPEND_ONLY_TRUNCATE_TRIGGER}') THEN
            EXECUTE format('CREATE TRIGGER ${APPEND_ONLY_TRUNCATE_TRIGGER} BEFORE TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION ${s}.append_only_refuse()', rel);
          END IF;
          EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM PUBLIC', rel);
          FOR grantee_name IN
            SELECT DISTINCT a.rolname FROM pg_class c, aclexplode(c.relacl) x JOIN pg_roles a ON a.oid = x.grantee
            WHERE c.oid = rel AND x.grantee <> c.relowner AND x.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
          LOOP
            EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM %I', rel, grantee_name);
          END LOOP;
        END LOOP;
      END $fn$`,
    `REVOKE ALL ON FUNCTION ${s}.append_only_protect(regclass) FROM PUBLIC`,
  ];
}

/**
 * Makes a table append-only for everyone, its owner included: UPDATE, DELETE and TRUNCATE are
 * refused by triggers (on a partitioned table, on every partition too), and no role but the owner
 * keeps those privileges. Append-only tables (event stores, logs that must stay verifiable) apply it
 * in a migration:
 *
 *   sqlMigration('AppendOnlyMyLog', <timestamp>, appendOnlyTable('my_schema', 'my_log'), [])
 *
 * A superuser can still disable the triggers (`session_replication_role = replica`, `ALTER TABLE
 * ... DISABLE TRIGGER`), and the owner can drop them: the triggers stop accidents and every other
 * role; detecting a change by those two is the integrity log's job (docs/operations.md#database-roles).
 */
export function appendOnlyTable(schema: string, table: string): string[] {
  const target = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  return [...appendOnlyFunctions(schema), `SELECT ${quoteIdent(schema)}.append_only_protect('${target}'::regclass)`];
}

/** {@link appendOnlyTable} as a migration of its own, named `AppendOnly<timestamp>`. */
export function appendOnlyMigration(schema: string, table: string, timestamp: number): new () => MigrationInterface {
  const target = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  return sqlMigration('AppendOnly', timestamp, appendOnlyTable(schema, table), [
    `DROP TRIGGER IF EXISTS ${APPEND_ONLY_ROW_TRIGGER} ON ${target}`,
    `DROP TRIGGER IF EXISTS ${APPEND_ONLY_TRUNCATE_TRIGGER} ON ${target}`,
  ]);
}
