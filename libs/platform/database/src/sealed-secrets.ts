import { type SealedColumn, type SealedHeader, SecretBox, secretContext, SecretOpenError, type SecretOpenFailure } from '@vigil/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { quoteIdent } from './data-source';

/** One value re-sealed: where, and the format and key before and after (never the value). */
export interface SecretResealed {
  column: SealedColumn;
  id: string;
  before: SealedHeader;
  after: SealedHeader;
}

/** Records a re-sealed value in the transaction that rewrote it (the service's administrative audit trail). */
export type RecordResealed = (manager: EntityManager, change: SecretResealed) => Promise<void>;

/** A value that did not open: left as it is, named by row, never shown. */
export interface UnreadableSecret {
  id: string;
  reason: SecretOpenFailure;
  key_id: string | null;
}

/** What one sealed column holds, by key and format. */
export interface SealedColumnStatus {
  /** `<schema>.<table>.<column>` */
  column: string;
  /** Rows with a value (null values are not secrets). */
  values: number;
  /** Values per key id, both formats. */
  by_key: Record<string, number>;
  /** Values still in format v1 (no associated data). */
  legacy_format: number;
  /** Values not yet in format v2 under the current key (what reencrypt-secrets would rewrite). */
  pending: number;
  /** Values that do not open with the configured keys in their place. */
  unreadable: UnreadableSecret[];
}

export interface SealedColumnRun {
  column: string;
  /** Values rewritten under the current key in format v2. */
  resealed: number;
  /** Of those, values that were in format v1. */
  upgraded: number;
  /** Values that did not open (left unchanged; the run then ends with an error). */
  failed: UnreadableSecret[];
}

export interface SecretsStatus {
  current_key: string;
  columns: SealedColumnStatus[];
  /**
   * Every configured key and how many values of this service use it. An older key with no values
   * in any service (each service's command reports its own schema) can leave VIGIL_ENCRYPTION_KEYS.
   */
  keys: { key_id: string; current: boolean; values: number }[];
  /** Key ids values name that are not configured (those values cannot be opened). */
  unknown_keys: string[];
  /** Every value is v2 under the current key and opens: the older keys are no longer needed here. */
  done: boolean;
}

export interface ReencryptResult extends SecretsStatus {
  runs: SealedColumnRun[];
}

function qualified(column: SealedColumn): { table: string; column: string; id: string; keyIdColumn?: string } {
  const [schema, table, ...rest] = column.table.split('.');
  if (!schema || !table || rest.length) throw new Error(`a sealed column's table is schema-qualified: ${column.table}`);
  return {
    table: `${quoteIdent(schema)}.${quoteIdent(table)}`,
    column: quoteIdent(column.column),
    id: quoteIdent(column.id),
    ...(column.keyIdColumn ? { keyIdColumn: quoteIdent(column.keyIdColumn) } : {}),
  };
}

async function requireTable(dataSource: DataSource | EntityManager, column: SealedColumn): Promise<void> {
  const [row]: { present: boolean }[] = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [column.table]);
  if (!row?.present) throw new Error(`the table ${column.table} does not exist: run the migrate command of this version first`);
}

function label(column: SealedColumn): string {
  return `${column.table}.${column.column}`;
}

/** Reads every value of the columns and opens each in its place: what is under which key, and what does not open. Writes nothing. */
export async function secretsStatus(dataSource: DataSource, columns: readonly SealedColumn[], box: SecretBox): Promise<SecretsStatus> {
  const statuses: SealedColumnStatus[] = [];
  const perKey = new Map<string, number>(box.keyIds.map((id) => [id, 0]));
  const unknown = new Set<string>();
  for (const column of columns) {
    await requireTable(dataSource, column);
    const q = qualified(column);
    const rows: { id: string; value: string }[] = await dataSource.query(
      `SELECT ${q.id}::text AS id, ${q.column} AS value FROM ${q.table} WHERE ${q.column} IS NOT NULL ORDER BY 1`,
    );
    const status: SealedColumnStatus = { column: label(column), values: rows.length, by_key: {}, legacy_format: 0, pending: 0, unreadable: [] };
    for (const { id, value } of rows) {
      const header = SecretBox.header(value);
      if (header) {
        status.by_key[header.keyId] = (status.by_key[header.keyId] ?? 0) + 1;
        if (perKey.has(header.keyId)) perKey.set(header.keyId, perKey.get(header.keyId)! + 1);
        else unknown.add(header.keyId);
        if (header.format === 'v1') status.legacy_format++;
      }
      if (!box.isCurrent(value)) status.pending++;
      const failure = tryOpen(box, value, secretContext(column, id));
      if (failure) status.unreadable.push({ id, ...failure });
    }
    statuses.push(status);
  }
  return {
    current_key: box.currentKeyId,
    columns: statuses,
    keys: box.keyIds.map((id) => ({ key_id: id, current: id === box.currentKeyId, values: perKey.get(id)! })),
    unknown_keys: [...unknown].sort(),
    done: statuses.every((s) => s.pending === 0 && s.unreadable.length === 0),
  };
}

function tryOpen(box: SecretBox, value: string, context: string): { reason: SecretOpenFailure; key_id: string | null } | null {
  try {
    box.open(value, context);
    return null;
  } catch (error) {
    if (error instanceof SecretOpenError) return { reason: error.reason, key_id: error.keyId };
    throw error;
  }
}

/**
 * Rewrites every value of the columns that is not yet in format v2 under the current key: each
 * row in its own transaction, read with FOR UPDATE so a service writing the same row waits for it
 * (or it for the service), opened in its place, sealed again under the current key for the same
 * place, and recorded with `record` in that transaction. Values already current are not touched,
 * so a second run changes nothing. A value that does not open is left as it is and reported.
 * Returns what it did and the status afterwards.
 */
export async function reencryptSecrets(
  dataSource: DataSource,
  columns: readonly SealedColumn[],
  box: SecretBox,
  record?: RecordResealed,
): Promise<ReencryptResult> {
  const runs: SealedColumnRun[] = [];
  for (const column of columns) {
    await requireTable(dataSource, column);
    const q = qualified(column);
    const run: SealedColumnRun = { column: label(column), resealed: 0, upgraded: 0, failed: [] };
    const candidates: { id: string }[] = await dataSource.query(
      `SELECT ${q.id}::text AS id FROM ${q.table} WHERE ${q.column} IS NOT NULL AND ${q.column} NOT LIKE $1 ORDER BY 1`,
      [`v2.${box.currentKeyId}.%`],
    );
    for (const { id } of candidates) {
      const outcome = await dataSource.transaction(async (manager) => {
        const [row]: { value: string | null }[] = await manager.query(
          `SELECT ${q.column} AS value FROM ${q.table} WHERE ${q.id} = $1 FOR UPDATE`,
          [id],
        );
        // Deleted, emptied or re-sealed by the service since the list was read: nothing to do.
        if (!row?.value || box.isCurrent(row.value)) return null;
        const context = secretContext(column, id);
        let plaintext: string;
        try {
          plaintext = box.open(row.value, context);
        } catch (error) {
          if (error instanceof SecretOpenError) return { kind: 'failed' as const, failure: { id, reason: error.reason, key_id: error.keyId } };
          throw error;
        }
        const before = SecretBox.header(row.value)!;
        const sealed = box.seal(plaintext, context);
        await manager.query(
          `UPDATE ${q.table} SET ${q.column} = $2${q.keyIdColumn ? `, ${q.keyIdColumn} = $3` : ''} WHERE ${q.id} = $1`,
          q.keyIdColumn ? [id, sealed, box.currentKeyId] : [id, sealed],
        );
        const after: SealedHeader = { format: 'v2', keyId: box.currentKeyId };
        await record?.(manager, { column, id, before, after });
        return { kind: 'resealed' as const, before };
      });
      if (!outcome) continue;
      if (outcome.kind === 'failed') {
        run.failed.push(outcome.failure);
        continue;
      }
      run.resealed++;
      if (outcome.before.format === 'v1') run.upgraded++;
    }
    runs.push(run);
  }
  return { runs, ...(await secretsStatus(dataSource, columns, box)) };
}
