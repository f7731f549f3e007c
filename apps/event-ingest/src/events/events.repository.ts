import { Inject, Injectable } from '@nestjs/common';
import type {
  AggregateBucket,
  AggregateGroupField,
  AggregateMetric,
  AuditEvent,
  EventFilters,
  IngestedBy,
  EventListItem,
  SequencedEvent,
} from '@vigil/contracts';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inSnapshot } from '@vigil/database';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource, type EntityManager } from 'typeorm';
import { applyFilters, type ListCursor, Where } from './event-query';

/** An audit event as stored: the published shape plus its place in the commit order. */
export interface StoredEvent extends AuditEvent {
  seq: string;
  operation: string | null;
  correlation_id: string | null;
  /** RFC 9162 leaf hash (docs/integrity.md#storage); computed before the sequence is taken. */
  leaf_hash?: Buffer | null;
}

/**
 * An event as the audit.events.v1 relay publishes it: in sequence order, with its correlation id
 * and the trace context of the request that stored it (with tracing on).
 */
export type RelayableEvent = SequencedEvent & { correlationId: string | null; trace?: Record<string, string> | null };

export interface EventRow {
  seq: string;
  id: string;
  type: AuditEvent['type'];
  severity: AuditEvent['severity'];
  database_id: string;
  timestamp: Date;
  processed_at: Date;
  producer_id: string | null;
  policy_id: string | null;
  rule_id: string | null;
  risk_score: number;
  details: AuditEvent['details'];
  correlation_id: string | null;
  trace_context?: Record<string, string> | null;
  escaped: boolean;
  ingested_by: IngestedBy | null;
}

export const FULL = `seq::text AS seq, id, type, severity, database_id, "timestamp", processed_at, producer_id, policy_id, rule_id,
  risk_score, details, correlation_id, escaped, ingested_by`;
const LIST = `id, type, severity, database_id, "timestamp", details, escaped`;

export function toEvent(row: EventRow): AuditEvent {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    database_id: row.database_id,
    timestamp: row.timestamp.toISOString(),
    processed_at: row.processed_at.toISOString(),
    details: row.details,
    context: { policy_id: row.policy_id, rule_id: row.rule_id, risk_score: row.risk_score },
    producer_id: row.producer_id,
    ingested_by: row.ingested_by ?? null,
    ...(row.escaped ? { escaped: true } : {}),
  };
}

/** The published shape of a stored event: exactly the fields `toEvent` reads back from the table. */
export function publishedEvent(event: StoredEvent): AuditEvent {
  return {
    id: event.id,
    type: event.type,
    severity: event.severity,
    database_id: event.database_id,
    timestamp: event.timestamp,
    processed_at: event.processed_at,
    details: event.details,
    context: event.context,
    producer_id: event.producer_id,
    ingested_by: event.ingested_by ?? null,
    ...(event.escaped ? { escaped: true } : {}),
  };
}

function toListItem(row: Pick<EventRow, 'id' | 'type' | 'severity' | 'database_id' | 'timestamp' | 'details' | 'escaped'>): EventListItem {
  const item: EventListItem = { id: row.id, type: row.type, severity: row.severity, database_id: row.database_id, timestamp: row.timestamp.toISOString(), details: row.details };
  return row.escaped ? { ...item, escaped: true } : item;
}

const GROUP_COLUMNS: Record<AggregateGroupField, string> = {
  database_id: 'database_id',
  // Grouped by id (index-only, no read of details), named from the registry afterwards (EventsService).
  database_name: 'database_id',
  type: 'type',
  severity: 'severity',
  user: 'user_name',
  source_ip: 'source_ip',
  operation: 'operation',
};

const METRIC_SQL: Record<AggregateMetric, string> = {
  count: 'count(*)::bigint',
  unique_users: 'count(DISTINCT user_name)::bigint',
  unique_source_ips: 'count(DISTINCT source_ip)::bigint',
  max_risk_score: 'max(risk_score)::int',
  avg_risk_score: 'round(avg(risk_score), 2)::float8',
};

const BUCKET_SQL: Record<AggregateBucket, string> = {
  minute: `date_trunc('minute', "timestamp", 'UTC')`,
  hour: `date_trunc('hour', "timestamp", 'UTC')`,
  day: `date_trunc('day', "timestamp", 'UTC')`,
};

/**
 * What a request may put into SQL text: only entries of the fixed tables above, looked up as own
 * properties (never `__proto__` or `constructor`), and whole numbers in range. Everything else is
 * a bind parameter. The RPC boundary already refuses such values (RpcPayloadSchemas); this keeps
 * a later caller from getting them into the text.
 */
function fixed<K extends string>(table: Record<K, string>, key: string, what: string): string {
  if (!Object.hasOwn(table, key)) throw new Error(`not a known ${what}: ${JSON.stringify(key).slice(0, 80)}`);
  return table[key as K];
}

function sqlInt(value: number, what: string, max = 1_000_000_000): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new Error(`${what} is not a whole number from 0 to ${max}: ${String(value).slice(0, 40)}`);
  return value;
}

export interface AggregateRow {
  keys: (string | null)[];
  bucket: Date | null;
  metrics: Record<string, number | string | null>;
  total: boolean;
}

const HOUR_MS = 3_600_000;
/**
 * Events stored after a listing's snapshot that a total reads at most (matching or not) to subtract
 * the newer matches; past it the total is estimated rather than counted.
 */
const RECENT_READ_LIMIT = 50_000;
const COUNTED_GROUPS: readonly AggregateGroupField[] = ['database_id', 'database_name', 'type', 'severity'];

/**
 * For a count-only aggregate over what the hourly counts keep (database, type, severity, hour or
 * day buckets), a source that reads whole hours from `event_counts` and only the partial hours at
 * the range's edges from the events table; its rows carry `n`, the number of events they stand
 * for. Null when the request needs the events themselves.
 */
export function hourlyCountsSource(
  where: Where,
  options: { filters: EventFilters; groupBy: AggregateGroupField[]; bucket?: AggregateBucket; metrics: AggregateMetric[] },
): string | null {
  const f = options.filters;
  if (!options.metrics.every((m) => m === 'count')) return null;
  if (!options.groupBy.every((g) => COUNTED_GROUPS.includes(g))) return null;
  if (options.bucket && options.bucket !== 'hour' && options.bucket !== 'day') return null;
  if (f.users?.length || f.source_ips?.length || f.operations?.length || f.query_contains || !f.start) return null;
  const start = Date.parse(f.start);
  const end = f.end ? Date.parse(f.end) : null;
  const firstWhole = Math.ceil(start / HOUR_MS) * HOUR_MS;
  const endWhole = end === null ? null : Math.floor(end / HOUR_MS) * HOUR_MS;
  if (endWhole !== null && endWhole <= firstWhole) return null; // no whole hour inside: count events
  const rest = new Where(where.params);
  applyFilters(rest, { ...f, start: undefined, end: undefined });
  const also = rest.clauses.map((c) => ` AND ${c}`).join('');
  const p = (ms: number) => `${where.param(new Date(ms).toISOString())}::timestamptz`;
  const fromCounts = `hour >= ${p(firstWhole)}${endWhole === null ? '' : ` AND hour < ${p(endWhole)}`}`;
  const edges = [`("timestamp" >= ${p(start)} AND "timestamp" < ${p(firstWhole)})`];
  if (end !== null && endWhole !== null && endWhole < end) edges.push(`("timestamp" >= ${p(endWhole)} AND "timestamp" < ${p(end)})`);
  return `(SELECT database_id, type, severity, hour AS "timestamp", events AS n FROM event_ingest.event_counts WHERE ${fromCounts}${also}
    UNION ALL
    SELECT database_id, type, severity, "timestamp", 1 AS n FROM event_ingest.events WHERE (${edges.join(' OR ')})${also}) AS counted`;
}

/** A text field in COPY's text format: backslash, tab, newline and carriage return escaped. */
export function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : value;
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A nullable field: `\N` for null or undefined, anything else as text. */
function copyValue(value: unknown): string {
  return value === null || value === undefined ? '\\N' : copyText(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Database access for stored audit events; no business rules. */
@Injectable()
export class EventsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Hands out `count` sequences and returns the first. The row stays locked until the caller's
   * transaction ends, so sequences commit in order and a rollback leaves no hole: call it as
   * late in the transaction as possible.
   */
  async reserveSequence(manager: EntityManager, count: number): Promise<bigint> {
    const [row]: { last_seq: string }[] = await manager.query(
      `WITH taken AS (UPDATE event_ingest.event_sequence SET last_seq = last_seq + $1 RETURNING last_seq) SELECT last_seq::text FROM taken`,
      [count],
    );
    return BigInt(row!.last_seq) - BigInt(count) + 1n;
  }

  /**
   * One COPY per batch, inside the caller's transaction: PostgreSQL's cheapest way in (no SQL
   * parse per row, no JSON to take apart), the same path the benchmark's baseline takes. Rows
   * are written in COPY's text format (docs/events.md#write-path-and-ordering).
   */
  async insertMany(manager: EntityManager, events: StoredEvent[], trace?: Record<string, string>): Promise<void> {
    if (!events.length) return;
    const traceValue = copyValue(trace ?? null);
    let text = '';
    for (const e of events) {
      text +=
        `${e.seq}\t${copyText(e.id)}\t${copyText(e.type)}\t${copyText(e.severity)}\t${copyText(e.database_id)}\t${e.timestamp}\t${e.processed_at}\t` +
        `${copyValue(e.details.user)}\t${copyValue(e.details.source_ip)}\t${copyValue(e.details.session_id)}\t${copyValue(e.producer_id)}\t` +
        `${copyValue(e.context.policy_id)}\t${copyValue(e.context.rule_id)}\t${e.context.risk_score}\t${copyText(JSON.stringify(e.details))}\t` +
        `${copyValue(e.operation)}\t${copyValue(e.correlation_id)}\t${traceValue}\t${e.escaped ? 't' : 'f'}\t${copyValue(e.ingested_by)}\t${e.leaf_hash ? `\\\\x${e.leaf_hash.toString('hex')}` : '\\N'}\n`;
    }
    const client = (manager.queryRunner as unknown as { databaseConnection: PoolClient }).databaseConnection;
    const stream = client.query(
      copyFrom(`COPY event_ingest.events (seq, id, type, severity, database_id, "timestamp", processed_at, user_name, source_ip,
         session_id, producer_id, policy_id, rule_id, risk_score, details, operation, correlation_id, trace_context, escaped, ingested_by, leaf_hash) FROM STDIN`),
    );
    await pipeline(Readable.from([text]), stream);
  }

  /**
   * Adds a batch to the hourly counts, in the transaction that stores it. Keys are upserted in
   * key order, so two batches never wait on each other's rows in opposite orders.
   */
  async addCounts(manager: EntityManager, events: Pick<StoredEvent, 'timestamp' | 'database_id' | 'type' | 'severity'>[]): Promise<void> {
    const counts = new Map<string, { hour: string | number; database_id: string; type: string; severity: string; events: number }>();
    for (const e of events) {
      const hour = Math.floor(Date.parse(e.timestamp) / HOUR_MS) * HOUR_MS;
      const key = `${hour}\u0000${e.database_id}\u0000${e.type}\u0000${e.severity}`;
      const entry = counts.get(key);
      if (entry) entry.events++;
      else counts.set(key, { hour, database_id: e.database_id, type: e.type, severity: e.severity, events: 1 });
    }
    for (const entry of counts.values()) entry.hour = new Date(entry.hour).toISOString();
    if (!counts.size) return;
    await manager.query(
      `INSERT INTO event_ingest.event_counts (hour, database_id, type, severity, events)
       SELECT hour, database_id, type, severity, events
       FROM jsonb_to_recordset($1::jsonb) AS r(hour timestamptz, database_id text, type text, severity text, events bigint)
       ORDER BY hour, database_id, type, severity
       ON CONFLICT (hour, database_id, type, severity) DO UPDATE SET events = event_ingest.event_counts.events + EXCLUDED.events`,
      [JSON.stringify([...counts.values()])],
    );
  }

  /**
   * Records producer ids for new events. Returns, for ids accepted before (now or by a concurrent
   * transaction that committed first), the event id they were stored under. Claims are made in
   * id order so two batches sharing ids cannot deadlock.
   */
  async claimProducerIds(manager: EntityManager, claims: { producerId: string; eventId: string }[]): Promise<Map<string, string>> {
    if (!claims.length) return new Map();
    const sorted = [...claims].sort((a, b) => (a.producerId < b.producerId ? -1 : a.producerId > b.producerId ? 1 : 0));
    const inserted: { producer_id: string }[] = await manager.query(
      `INSERT INTO event_ingest.producer_ids (producer_id, event_id)
       SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING RETURNING producer_id`,
      [sorted.map((c) => c.producerId), sorted.map((c) => c.eventId)],
    );
    const fresh = new Set(inserted.map((r) => r.producer_id));
    const taken = claims.filter((c) => !fresh.has(c.producerId)).map((c) => c.producerId);
    if (!taken.length) return new Map();
    const rows: { producer_id: string; event_id: string }[] = await manager.query(
      `SELECT producer_id, event_id FROM event_ingest.producer_ids WHERE producer_id = ANY($1::text[])`,
      [taken],
    );
    return new Map(rows.map((r) => [r.producer_id, r.event_id]));
  }

  async findById(id: string): Promise<AuditEvent | null> {
    const rows: EventRow[] = await this.dataSource.query(`SELECT ${FULL} FROM event_ingest.events WHERE id = $1 LIMIT 1`, [id]);
    return rows[0] ? toEvent(rows[0]) : null;
  }

  /** Other events of the same session on the same database, newest first. */
  async findSameSession(event: AuditEvent, limit: number): Promise<string[]> {
    if (!event.details.session_id) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM event_ingest.events WHERE session_id = $1 AND database_id = $2 AND id <> $3
       ORDER BY "timestamp" DESC, id DESC LIMIT $4`,
      [event.details.session_id, event.database_id, event.id, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Other events naming the same policy and rule on the same database within an hour either side. */
  async findSameViolation(event: AuditEvent, limit: number): Promise<string[]> {
    if (!event.context.policy_id) return [];
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM event_ingest.events
       WHERE policy_id = $1 AND database_id = $2 AND id <> $3 AND rule_id IS NOT DISTINCT FROM $4
         AND "timestamp" BETWEEN $5::timestamptz - interval '1 hour' AND $5::timestamptz + interval '1 hour'
       ORDER BY "timestamp" DESC, id DESC LIMIT $6`,
      [event.context.policy_id, event.database_id, event.id, event.context.rule_id, event.timestamp, limit],
    );
    return rows.map((r) => r.id);
  }

  /** The newest committed sequence: every event up to it is committed (sequences commit in order). */
  async headSequence(): Promise<string> {
    const [row]: { last_seq: string }[] = await this.dataSource.query(`SELECT last_seq::text FROM event_ingest.event_sequence`);
    return row?.last_seq ?? '0';
  }

  async sequenceOf(id: string): Promise<string | null> {
    const [row]: { seq: string }[] = await this.dataSource.query(`SELECT seq::text FROM event_ingest.events WHERE id = $1 LIMIT 1`, [id]);
    return row?.seq ?? null;
  }

  /** Newest first (timestamp, then id), from a keyset position or an offset. */
  async list(options: { filters: EventFilters; snapshot: string; limit: number; offset: number; after?: ListCursor }): Promise<EventListItem[]> {
    const { filters, after } = options;
    const limit = sqlInt(options.limit, 'limit');
    const offset = sqlInt(options.offset, 'offset');
    const types = filters.types ?? [];
    const branch = (params: unknown[], type: string | undefined, branchLimit: string) => {
      const where = new Where(params);
      if (type !== undefined) where.add(`type = ${where.param(type)}`);
      applyFilters(where, filters, { skipTypes: type !== undefined });
      where.add(`seq <= ${where.param(options.snapshot)}::bigint`);
      if (after) where.add(`("timestamp", id) < (${where.param(after.t)}::timestamptz, ${where.param(after.id)})`);
      return `SELECT ${LIST} FROM event_ingest.events ${where.sql()} ORDER BY "timestamp" DESC, id DESC LIMIT ${branchLimit}`;
    };
    const params: unknown[] = [];
    let sql: string;
    if (types.length > 1) {
      // Several types (a wildcard): each type reads its own (type, "timestamp") index in order and
      // the branches are merged, instead of sorting every matching row.
      const k = `${offset + limit}`;
      sql = `SELECT ${LIST} FROM (${types.map((t) => `(${branch(params, t, k)})`).join(' UNION ALL ')}) u
             ORDER BY "timestamp" DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
    } else {
      sql = `${branch(params, undefined, `${limit} OFFSET ${offset}`)}`;
    }
    const rows: EventRow[] = await this.dataSource.query(sql, params);
    return rows.map(toListItem);
  }

  /**
   * The number of matching events: exact up to `exactUpTo`, beyond that the planner's estimate
   * (counting millions of rows for a page header is not worth seconds).
   *
   * The listing's snapshot is `seq <= snapshot`, but `seq` is in no filter index, so testing it
   * row by row reads a heap page per match. Instead: the matches stored after the snapshot (few:
   * those since the listing began, found through the `seq` index) are subtracted from all matches,
   * which the filter's own index can count without the heap once autovacuum has marked the pages
   * all-visible. Both counts read one snapshot.
   */
  async count(filters: EventFilters, snapshot: string, exactUpTo: number, recentReadLimit = RECENT_READ_LIMIT): Promise<{ total: number; estimated: boolean }> {
    const where = new Where();
    applyFilters(where, filters);
    // The newer events are read through the `seq` index, at most `recentReadLimit` of them whatever
    // the filter (a selective filter during a flood would otherwise read every newer event), and
    // the filter is applied to what was read.
    const newer = new Where([...where.params]);
    const since = newer.param(snapshot);
    const matches = where.clauses.length ? where.clauses.join(' AND ') : 'true';
    const counted = await inSnapshot(this.dataSource, async (manager) => {
      const [after]: { read: number; n: number }[] = await manager.query(
        `SELECT count(*)::int AS read, (count(*) FILTER (WHERE ${matches}))::int AS n
           FROM (SELECT * FROM event_ingest.events WHERE seq > ${since}::bigint LIMIT ${sqlInt(recentReadLimit, 'limit') + 1}) r`,
        newer.params,
      );
      if (after!.read > recentReadLimit) return null; // a flood since the listing began: estimate
      const cap = sqlInt(exactUpTo + 1 + after!.n, 'count cap');
      const [all]: { n: number }[] = await manager.query(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM event_ingest.events ${where.sql()} LIMIT ${cap}) c`,
        where.params,
      );
      return all!.n - after!.n;
    });
    if (counted !== null && counted <= exactUpTo) return { total: counted, estimated: false };
    where.add(`seq <= ${where.param(snapshot)}::bigint`);
    const [plan]: { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[] = await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM event_ingest.events ${where.sql()}`,
      where.params,
    );
    const estimate = Math.round(plan!['QUERY PLAN'][0]!.Plan['Plan Rows']);
    return { total: Math.max(estimate, exactUpTo + 1), estimated: true };
  }

  /** Search: newest first over a bounded time range, keyset-paged. */
  async search(filters: EventFilters, limit: number, after?: { t: string; id: string }): Promise<EventListItem[]> {
    const where = new Where();
    applyFilters(where, filters);
    if (after) where.add(`("timestamp", id) < (${where.param(after.t)}::timestamptz, ${where.param(after.id)})`);
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${LIST} FROM event_ingest.events ${where.sql()} ORDER BY "timestamp" DESC, id DESC LIMIT ${sqlInt(limit, 'limit')}`,
      where.params,
    );
    return rows.map(toListItem);
  }

  /**
   * Groups and metrics in one pass: GROUPING SETS computes the groups and the grand total
   * together. Groups come biggest first; one more than `limit` tells the caller it truncated.
   */
  async aggregate(options: {
    filters: EventFilters;
    groupBy: AggregateGroupField[];
    bucket?: AggregateBucket;
    metrics: AggregateMetric[];
    limit: number;
    /** false: always count the events table (tests compare both ways). */
    useHourlyCounts?: boolean;
  }): Promise<AggregateRow[]> {
    const where = new Where();
    const counted = options.useHourlyCounts === false ? null : hourlyCountsSource(where, options);
    if (!counted) applyFilters(where, options.filters);
    const source = counted ?? `event_ingest.events ${where.sql()}`;
    const expressions = options.groupBy.map((g) => fixed(GROUP_COLUMNS, g, 'group field'));
    if (options.bucket) expressions.push(fixed(BUCKET_SQL, options.bucket, 'bucket'));
    const keys = expressions.map((e, i) => (options.bucket && i === expressions.length - 1 ? `${e} AS b` : `${e} AS k${i}`));
    // The alias is the metric's name, taken from the table's own keys once the lookup succeeded.
    const metrics = options.metrics.map((m) => `${counted ? 'sum(n)::bigint' : fixed(METRIC_SQL, m, 'metric')} AS ${Object.keys(METRIC_SQL).find((k) => k === m)}`);
    const orderMetric = options.metrics.includes('count') ? (counted ? 'sum(n)' : 'count(*)') : '1';
    const groupSql = expressions.length ? `GROUP BY GROUPING SETS ((${expressions.join(', ')}), ())` : '';
    const select = [...keys, ...metrics, expressions.length ? `GROUPING(${expressions.join(', ')}) > 0 AS is_total` : 'true AS is_total'];
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${select.join(', ')} FROM ${source} ${groupSql}
       ORDER BY is_total DESC, ${orderMetric} DESC${options.bucket ? ', b' : ''} LIMIT ${sqlInt(options.limit, 'limit') + 2}`,
      where.params,
    );
    return rows.map((row) => ({
      keys: options.groupBy.map((_, i) => (row[`k${i}`] as string | null) ?? null),
      bucket: options.bucket ? (row.b as Date | null) : null,
      metrics: Object.fromEntries(options.metrics.map((m) => [m, row[m] as number | string | null])),
      total: Boolean(row.is_total),
    }));
  }

  /** Stored events after a sequence, in sequence order (SSE replay and gap filling). */
  async afterSequence(options: { after: string; until?: string; filters: EventFilters; limit: number }): Promise<SequencedEvent[]> {
    const where = new Where();
    where.add(`seq > ${where.param(options.after)}::bigint`);
    if (options.until) where.add(`seq <= ${where.param(options.until)}::bigint`);
    applyFilters(where, options.filters);
    const rows: EventRow[] = await this.dataSource.query(
      // Qualified: a bare `seq` here would sort by the text column of the select list.
      `SELECT ${FULL} FROM event_ingest.events e ${where.sql()} ORDER BY e.seq LIMIT ${sqlInt(options.limit, 'limit')}`,
      where.params,
    );
    return rows.map((row) => ({ seq: row.seq, event: toEvent(row) }));
  }

  /** For the audit.events.v1 relay: the next unpublished events, with their correlation ids. */
  async unpublished(manager: EntityManager, after: string, limit: number): Promise<RelayableEvent[]> {
    const rows: EventRow[] = await manager.query(
      `SELECT ${FULL}, trace_context FROM event_ingest.events e WHERE e.seq > $1::bigint ORDER BY e.seq LIMIT $2`,
      [after, limit],
    );
    return rows.map((row) => ({ seq: row.seq, event: toEvent(row), correlationId: row.correlation_id, trace: row.trace_context ?? null }));
  }
}
