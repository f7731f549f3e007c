import { Injectable } from '@nestjs/common';
import type { AlertReport } from '@vigil/contracts';
import type { EntityManager } from 'typeorm';
import { toCheckpoint } from '../integrity/tree.repository';
import { fillAlertsSection } from './alerts-section';
import type { Cell, ReportCheckpoint, ReportDocument, ReportSection } from './report-document';
import { ROW_LIMIT } from './report-document';
import { PRIVILEGED_OPS, relevantFilter, type ReportDefinition, type SectionDefinition } from './report-definitions';

export interface ReportScope {
  report_id: string;
  schedule_id: string | null;
  period_start: Date;
  period_end: Date;
  /** Empty: every database. */
  databases: string[];
}

const EVENTS = 'event_ingest.events';

/**
 * Computes a report from stored audit events (docs/reports.md#generation) with one scan of the
 * period's daily partitions: it groups the events by database, type, severity and, for the events
 * some section needs, by user, statement kind, source address (failed logins) and policy
 * (violations), into a small temporary table that every section then aggregates. The newest
 * events a "list" section shows come from indexes (type + time; the partial index of privileged
 * statements), newest first, without reading the period again. The alerts section comes from the
 * delivery service's figures, read before the snapshot (`alerts`; docs/reports.md#alerts).
 */
@Injectable()
export class ReportGenerator {
  async generate(
    manager: EntityManager,
    definition: ReportDefinition,
    scope: ReportScope,
    names: Map<string, string>,
    progress: (percent: number) => void,
    alerts?: AlertReport,
  ): Promise<ReportDocument> {
    const dbs = scope.databases.length ? scope.databases : null;
    const relevant = relevantFilter(definition);
    const isRelevant = `(type = ANY($4::text[]) OR (type = 'database.query' AND operation = ANY($5::text[])))`;
    await manager.query(`DROP TABLE IF EXISTS report_groups`);
    await manager.query(
      `CREATE TEMP TABLE report_groups ON COMMIT DROP AS
       SELECT database_id, type, severity,
              CASE WHEN ${isRelevant} THEN user_name END AS user_name,
              CASE WHEN type = 'database.query' AND operation = ANY($5::text[]) THEN operation END AS operation,
              CASE WHEN type = 'user.login_failed' THEN source_ip END AS source_ip,
              CASE WHEN type = 'policy.violation' THEN policy_id END AS policy_id,
              count(*)::bigint AS n, min("timestamp") AS first_at, max("timestamp") AS last_at
       FROM ${EVENTS}
       WHERE "timestamp" >= $1 AND "timestamp" < $2 AND ($3::text[] IS NULL OR database_id = ANY($3::text[]))
       GROUP BY 1, 2, 3, 4, 5, 6, 7`,
      [scope.period_start, scope.period_end, dbs, relevant.types, relevant.operations],
    );
    progress(60);
    const totals: { database_id: string; type: string; severity: string; count: string; first_at: Date; last_at: Date }[] = await manager.query(
      `SELECT database_id, type, severity, sum(n) AS count, min(first_at) AS first_at, max(last_at) AS last_at FROM report_groups GROUP BY 1, 2, 3`,
    );

    const integrityCheckpoint = await this.integrityCheckpoint(manager);
    const sections: ReportSection[] = [];
    for (const section of definition.sections) sections.push(await this.section(manager, section, scope, totals, names, alerts));
    sections.push(await this.retentionSection(manager));
    progress(90);

    const byType = new Map<string, { type: string; severity: string; count: number }>();
    for (const t of totals) {
      const key = `${t.type}|${t.severity}`;
      const entry = byType.get(key) ?? { type: t.type, severity: t.severity, count: 0 };
      entry.count += Number(t.count);
      byType.set(key, entry);
    }
    const summary: Record<string, number> = {
      total_events: totals.reduce((n, t) => n + Number(t.count), 0),
      databases_with_events: new Set(totals.map((t) => t.database_id)).size,
    };
    for (const s of sections) if (s.available && s.id !== 'retention') summary[s.id] = s.metrics.events ?? s.metrics.violations ?? s.metrics.attempts ?? s.metrics.alerts ?? 0;
    const scopeIds = scope.databases.length ? scope.databases : [...new Set(totals.map((t) => t.database_id))].sort();
    return {
      report_id: scope.report_id,
      type: definition.type,
      title: definition.title,
      framework: definition.framework,
      generated_at: new Date().toISOString(),
      period: { start: scope.period_start.toISOString(), end: scope.period_end.toISOString() },
      scope: { all_databases: !scope.databases.length, databases: scopeIds.map((id) => ({ id, name: names.get(id) ?? null })) },
      schedule_id: scope.schedule_id,
      summary,
      events_by_type: [...byType.values()].sort((a, b) => a.type.localeCompare(b.type) || a.severity.localeCompare(b.severity)),
      sections,
      integrity_checkpoint: integrityCheckpoint,
    };
  }

  /**
   * The newest checkpoint and the log's size, both read in the report's snapshot: the events the
   * report counted are exactly those of positions below `log_size` (the sequence hands positions out
   * in commit order), so a reader can prove them against this checkpoint or a later one.
   */
  private async integrityCheckpoint(manager: EntityManager): Promise<ReportCheckpoint | null> {
    const [row]: { log_size: string; tree_size: string | null; root_hash: Buffer; timestamp: Date; key_id: string; signature: string }[] = await manager.query(
      `SELECT s.last_seq::text AS log_size, c.tree_size::text AS tree_size, c.root_hash, c."timestamp", c.key_id, c.signature
       FROM event_ingest.event_sequence s
       LEFT JOIN LATERAL (SELECT * FROM event_ingest.integrity_checkpoints k ORDER BY k.tree_size DESC LIMIT 1) c ON true`,
    );
    if (!row?.tree_size) return null;
    // As the integrity API serves it (toCheckpoint), plus the log's size.
    return { ...toCheckpoint({ ...row, tree_size: row.tree_size }), log_size: Number(row.log_size) };
  }

  /**
   * What retention removed from the verifiable event log (docs/integrity.md#retention): each run of
   * leaves whose events were dropped, when and under which setting. Their leaf hashes stay in the
   * tree, so the events still stored keep verifying.
   */
  private async retentionSection(manager: EntityManager): Promise<ReportSection> {
    const rows: { partition_name: string; range_start: Date; range_end: Date; first_index: string; last_index: string; events: string; dropped_at: Date; setting: string }[] =
      await manager.query(
        `SELECT partition_name, range_start, range_end, first_index::text, last_index::text, events::text, dropped_at, setting
         FROM event_ingest.integrity_retained_gaps g ORDER BY g.first_index`,
      );
    const iso = (d: Date) => (Number.isFinite(d.getTime()) ? d.toISOString() : 'any earlier time');
    return {
      id: 'retention',
      title: 'Events dropped by retention',
      controls: ['Audit record retention and integrity (PCI DSS 10.5.1, 10.3.4)'],
      description:
        'Stored events removed by the retention setting, as ranges of their positions in the verifiable event log (leaf index = sequence - 1). ' +
        'Their leaf hashes and the signed checkpoints are kept, so the events still stored verify.',
      available: true,
      metrics: { events: rows.reduce((n, r) => n + Number(r.events), 0), ranges: rows.length },
      columns: ['Partition', 'Event time from', 'Event time to', 'First leaf', 'Last leaf', 'Events', 'Dropped at', 'Setting'],
      rows: rows.slice(0, ROW_LIMIT).map((r) => [r.partition_name, iso(r.range_start), iso(r.range_end), Number(r.first_index), Number(r.last_index), Number(r.events), r.dropped_at.toISOString(), r.setting]),
      truncated: rows.length > ROW_LIMIT,
    };
  }

  private async section(
    manager: EntityManager,
    section: SectionDefinition,
    scope: ReportScope,
    totals: { database_id: string; count: string; first_at: Date; last_at: Date }[],
    names: Map<string, string>,
    alerts: AlertReport | undefined,
  ): Promise<ReportSection> {
    const out: ReportSection = {
      id: section.id,
      title: section.title,
      controls: section.controls,
      description: section.description,
      available: true,
      metrics: {},
      columns: [],
      rows: [],
      truncated: false,
    };
    const match = `(type = ANY($1::text[]) OR (type = 'database.query' AND operation = ANY($2::text[])))`;
    const params = [section.filter.types ?? [], section.filter.operations ?? []];
    const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
    switch (section.kind) {
      case 'alerts':
        // The worker never generates without the figures (it fails the report instead); a caller that does gets the gap said plainly.
        return alerts ? fillAlertsSection(out, alerts, names) : { ...out, available: false, note: 'Alert figures were not supplied to this generation.' };
      case 'coverage': {
        const byDb = new Map<string, { events: number; first: Date; last: Date }>();
        for (const t of totals) {
          const e = byDb.get(t.database_id) ?? { events: 0, first: t.first_at, last: t.last_at };
          e.events += Number(t.count);
          if (t.first_at < e.first) e.first = t.first_at;
          if (t.last_at > e.last) e.last = t.last_at;
          byDb.set(t.database_id, e);
        }
        const rows = [...byDb.entries()].sort((a, b) => a[0].localeCompare(b[0]));
        out.metrics = { databases: rows.length, events: rows.reduce((n, [, e]) => n + e.events, 0) };
        out.columns = ['database_id', 'database_name', 'events', 'first_event_at', 'last_event_at'];
        out.rows = rows.slice(0, ROW_LIMIT).map(([id, e]) => [id, names.get(id) ?? null, e.events, iso(e.first), iso(e.last)]);
        out.truncated = rows.length > ROW_LIMIT;
        return out;
      }
      case 'by_user': {
        const [m] = await manager.query(
          `SELECT COALESCE(sum(n), 0)::bigint AS events, count(DISTINCT user_name)::bigint AS users FROM report_groups WHERE ${match}`,
          params,
        );
        out.metrics = { events: Number(m.events), users: Number(m.users) };
        out.columns = ['user', 'events', 'databases', 'first_at', 'last_at'];
        const rows: { user_name: string | null; events: string; databases: string; first_at: Date; last_at: Date }[] = await manager.query(
          `SELECT user_name, sum(n) AS events, count(DISTINCT database_id) AS databases, min(first_at) AS first_at, max(last_at) AS last_at
           FROM report_groups WHERE ${match} GROUP BY user_name ORDER BY sum(n) DESC, user_name NULLS LAST LIMIT ${ROW_LIMIT + 1}`,
          params,
        );
        out.rows = rows.slice(0, ROW_LIMIT).map((r) => [r.user_name, Number(r.events), Number(r.databases), iso(r.first_at), iso(r.last_at)]);
        out.truncated = rows.length > ROW_LIMIT;
        return out;
      }
      case 'by_user_ip': {
        const [m] = await manager.query(
          `SELECT COALESCE(sum(n), 0)::bigint AS attempts, count(DISTINCT user_name)::bigint AS users, count(DISTINCT source_ip)::bigint AS source_ips
           FROM report_groups WHERE ${match}`,
          params,
        );
        out.metrics = { attempts: Number(m.attempts), users: Number(m.users), source_ips: Number(m.source_ips) };
        out.columns = ['user', 'source_ip', 'attempts', 'databases', 'last_attempt_at'];
        const rows: { user_name: string | null; source_ip: string | null; attempts: string; databases: string; last_at: Date }[] = await manager.query(
          `SELECT user_name, source_ip, sum(n) AS attempts, count(DISTINCT database_id) AS databases, max(last_at) AS last_at
           FROM report_groups WHERE ${match} GROUP BY user_name, source_ip ORDER BY sum(n) DESC, user_name NULLS LAST, source_ip NULLS LAST LIMIT ${ROW_LIMIT + 1}`,
          params,
        );
        out.rows = rows.slice(0, ROW_LIMIT).map((r) => [r.user_name, r.source_ip, Number(r.attempts), Number(r.databases), iso(r.last_at)]);
        out.truncated = rows.length > ROW_LIMIT;
        return out;
      }
      case 'list': {
        const [m] = await manager.query(`SELECT COALESCE(sum(n), 0)::bigint AS events, count(DISTINCT user_name)::bigint AS users FROM report_groups WHERE ${match}`, params);
        out.metrics = { events: Number(m.events), users: Number(m.users) };
        out.columns = ['timestamp', 'event_id', 'database_id', 'user', 'source_ip', 'type', 'operation', 'query'];
        type Row = { timestamp: Date; id: string; database_id: string; user_name: string | null; source_ip: string | null; type: string; operation: string | null; query: string | null };
        // Each part is read newest first from an index and stops at the row limit.
        const select = `SELECT "timestamp", id, database_id, user_name, source_ip, type, operation, left(details->>'query', 300) AS query FROM ${EVENTS}
          WHERE "timestamp" >= $1 AND "timestamp" < $2 AND ($3::text[] IS NULL OR database_id = ANY($3::text[]))`;
        const base = [scope.period_start, scope.period_end, scope.databases.length ? scope.databases : null];
        const rows: Row[] = [];
        for (const type of section.filter.types ?? []) {
          rows.push(...((await manager.query(`${select} AND type = $4 ORDER BY "timestamp" DESC, id DESC LIMIT ${ROW_LIMIT + 1}`, [...base, type])) as Row[]));
        }
        if (section.filter.operations?.length) {
          // PRIVILEGED_OPS is the partial index's predicate: given the values (node-postgres's unnamed
          // statements get custom plans), the planner proves it and reads that index newest first.
          rows.push(
            ...((await manager.query(
              `${select} AND type = 'database.query' AND operation = ANY($4::text[]) AND operation = ANY($5::text[])
               ORDER BY "timestamp" DESC, id DESC LIMIT ${ROW_LIMIT + 1}`,
              [...base, PRIVILEGED_OPS, section.filter.operations],
            )) as Row[]),
          );
        }
        rows.sort((x, y) => y.timestamp.getTime() - x.timestamp.getTime() || (x.id < y.id ? 1 : -1));
        out.rows = rows.slice(0, ROW_LIMIT).map((r): Cell[] => [iso(r.timestamp), r.id, r.database_id, r.user_name, r.source_ip, r.type, r.operation, r.query]);
        out.truncated = rows.length > ROW_LIMIT;
        return out;
      }
      case 'admin_actions': {
        // Newest first, each type read from the (type, timestamp) index; the report's database scope
        // does not apply: these are actions on Vigil itself.
        type Row = { timestamp: Date; id: string; type: string; details: { actor?: { kind?: string; id?: string | null }; source_ip?: string | null; target?: { type?: string; id?: string | null } } };
        const rows: Row[] = [];
        for (const type of section.filter.types ?? []) {
          rows.push(
            ...((await manager.query(
              `SELECT "timestamp", id, type, details FROM ${EVENTS} WHERE "timestamp" >= $1 AND "timestamp" < $2 AND type = $3
               ORDER BY "timestamp" DESC, id DESC LIMIT ${ROW_LIMIT + 1}`,
              [scope.period_start, scope.period_end, type],
            )) as Row[]),
          );
        }
        const [m] = await manager.query(
          `SELECT count(*)::bigint AS events, count(DISTINCT details->'actor')::bigint AS actors FROM ${EVENTS}
           WHERE "timestamp" >= $1 AND "timestamp" < $2 AND type = ANY($3::text[])`,
          [scope.period_start, scope.period_end, section.filter.types ?? []],
        );
        out.metrics = { events: Number(m.events), actors: Number(m.actors) };
        out.columns = ['timestamp', 'event_id', 'type', 'actor_kind', 'actor_id', 'source_ip', 'target_type', 'target_id'];
        rows.sort((x, y) => y.timestamp.getTime() - x.timestamp.getTime() || (x.id < y.id ? 1 : -1));
        out.rows = rows
          .slice(0, ROW_LIMIT)
          .map((r): Cell[] => [iso(r.timestamp), r.id, r.type, r.details.actor?.kind ?? null, r.details.actor?.id ?? null, r.details.source_ip ?? null, r.details.target?.type ?? null, r.details.target?.id ?? null]);
        out.truncated = rows.length > ROW_LIMIT;
        return out;
      }
      case 'by_type': {
        const rows: { type: string; severity: string; events: string; users: string; last_at: Date }[] = await manager.query(
          `SELECT type, severity, sum(n) AS events, count(DISTINCT user_name) AS users, max(last_at) AS last_at
           FROM report_groups WHERE ${match} GROUP BY type, severity ORDER BY type, severity`,
          params,
        );
        out.metrics = { events: rows.reduce((n, r) => n + Number(r.events), 0) };
        for (const r of rows) out.metrics[r.type] = (out.metrics[r.type] ?? 0) + Number(r.events);
        out.columns = ['type', 'severity', 'events', 'users', 'last_at'];
        out.rows = rows.map((r) => [r.type, r.severity, Number(r.events), Number(r.users), iso(r.last_at)]);
        return out;
      }
      case 'by_policy': {
        const rows: { policy_id: string | null; severity: string; violations: string; users: string; last_at: Date }[] = await manager.query(
          `SELECT policy_id, severity, sum(n) AS violations, count(DISTINCT user_name) AS users, max(last_at) AS last_at
           FROM report_groups WHERE ${match} GROUP BY policy_id, severity ORDER BY sum(n) DESC, policy_id LIMIT ${ROW_LIMIT + 1}`,
          params,
        );
        const [m] = await manager.query(`SELECT COALESCE(sum(n), 0)::bigint AS violations, count(DISTINCT policy_id)::bigint AS policies FROM report_groups WHERE ${match}`, params);
        out.metrics = { violations: Number(m.violations), policies: Number(m.policies) };
        out.columns = ['policy_id', 'severity', 'violations', 'users', 'last_at'];
        out.rows = rows.slice(0, ROW_LIMIT).map((r) => [r.policy_id, r.severity, Number(r.violations), Number(r.users), iso(r.last_at)]);
        out.truncated = rows.length > ROW_LIMIT;
        return out;
      }
    }
  }
}
