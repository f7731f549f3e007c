import { Injectable } from '@nestjs/common';
import type { ListReportsRequest, ReportFormat, ReportStatus, ReportType } from '@vigil/contracts';
import type { EntityManager } from 'typeorm';
import type { ReportDocument } from './report-document';

export interface ReportRow {
  id: string;
  type: ReportType;
  status: ReportStatus;
  progress: number;
  period_start: Date;
  period_end: Date;
  databases: string[];
  formats: ReportFormat[];
  schedule_id: string | null;
  slot: Date | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  error: string | null;
  summary: Record<string, number> | null;
  attempts: number;
}

export interface ScheduleRow {
  id: string;
  name: string;
  type: ReportType;
  cron: string;
  timezone: string;
  period_days: number;
  databases: string[];
  formats: ReportFormat[];
  enabled: boolean;
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_report_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewReport {
  id: string;
  type: ReportType;
  period_start: Date;
  period_end: Date;
  databases: string[];
  formats: ReportFormat[];
  schedule_id: string | null;
  slot: Date | null;
}

const R = 'event_ingest.reports';

/** TypeORM answers UPDATE/DELETE ... RETURNING as [rows, affected]; INSERT and SELECT as rows. */
export function returned<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}
const S = 'event_ingest.report_schedules';
const REPORT_COLUMNS = `id, type, status, progress, period_start, period_end, databases, formats, schedule_id, slot, created_at, started_at,
  completed_at, error, summary, attempts`;

/** SQL of reports and report schedules; no rules here. */
@Injectable()
export class ReportsRepository {
  /** Inserts a report; for a schedule slot that has one already, inserts nothing and returns undefined. */
  async insert(manager: EntityManager, r: NewReport): Promise<ReportRow | undefined> {
    const rows: ReportRow[] = await manager.query(
      `INSERT INTO ${R} (id, type, status, period_start, period_end, databases, formats, schedule_id, slot)
       VALUES ($1, $2, 'queued', $3, $4, $5, $6, $7, $8) ON CONFLICT (schedule_id, slot) DO NOTHING RETURNING ${REPORT_COLUMNS}`,
      [r.id, r.type, r.period_start, r.period_end, r.databases, r.formats, r.schedule_id, r.slot],
    );
    return rows[0];
  }

  async find(manager: EntityManager, id: string): Promise<ReportRow | undefined> {
    const rows: ReportRow[] = await manager.query(`SELECT ${REPORT_COLUMNS} FROM ${R} WHERE id = $1`, [id]);
    return rows[0];
  }

  async document(manager: EntityManager, id: string): Promise<ReportDocument | undefined> {
    const rows: { document: ReportDocument | null }[] = await manager.query(`SELECT document FROM ${R} WHERE id = $1`, [id]);
    return rows[0]?.document ?? undefined;
  }

  async list(manager: EntityManager, q: ListReportsRequest): Promise<{ rows: ReportRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of [['type', q.type], ['status', q.status], ['schedule_id', q.schedule_id]] as const) {
      if (value === undefined) continue;
      params.push(value);
      where.push(`${column} = $${params.length}`);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = (await manager.query(`SELECT count(*)::int AS total FROM ${R} ${filter}`, params)) as { total: number }[];
    const rows: ReportRow[] = await manager.query(
      `SELECT ${REPORT_COLUMNS} FROM ${R} ${filter} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.per_page, (q.page - 1) * q.per_page],
    );
    return { rows, total };
  }

  async delete(manager: EntityManager, id: string): Promise<boolean> {
    return returned(await manager.query(`DELETE FROM ${R} WHERE id = $1 RETURNING id`, [id])).length > 0;
  }

  /**
   * Claims the oldest queued report, or a running one whose lease ran out (its generator died),
   * for `leaseMs`. SKIP LOCKED: instances claim different reports.
   */
  async claim(manager: EntityManager, leaseMs: number): Promise<ReportRow | undefined> {
    const rows = returned<ReportRow>(await manager.query(
      `UPDATE ${R} SET status = 'running', progress = 5, started_at = now(), attempts = attempts + 1,
              lease_until = now() + make_interval(secs => $1::double precision / 1000)
       WHERE id = (
         SELECT id FROM ${R} WHERE status = 'queued' OR (status = 'running' AND lease_until < now())
         ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING ${REPORT_COLUMNS}`,
      [leaseMs],
    ));
    return rows[0];
  }

  async setProgress(manager: EntityManager, id: string, progress: number): Promise<void> {
    await manager.query(`UPDATE ${R} SET progress = $2 WHERE id = $1 AND status = 'running'`, [id, progress]);
  }

  /** The stored PDF rendering; undefined when there is none (not requested, or completed by an older version). */
  async pdf(manager: EntityManager, id: string): Promise<Buffer | undefined> {
    const rows: { pdf: Buffer | null }[] = await manager.query(`SELECT pdf FROM ${R} WHERE id = $1`, [id]);
    return rows[0]?.pdf ?? undefined;
  }

  async complete(manager: EntityManager, id: string, document: ReportDocument, pdf: Buffer | null): Promise<boolean> {
    const rows = returned(await manager.query(
      `UPDATE ${R} SET status = 'completed', progress = 100, completed_at = now(), lease_until = NULL, document = $2, summary = $3, pdf = $4, error = NULL
       WHERE id = $1 AND status = 'running' RETURNING id`,
      [id, JSON.stringify(document), JSON.stringify(document.summary), pdf],
    ));
    return rows.length > 0;
  }

  async fail(manager: EntityManager, id: string, error: string): Promise<void> {
    await manager.query(`UPDATE ${R} SET status = 'failed', completed_at = now(), lease_until = NULL, error = $2 WHERE id = $1`, [id, error]);
  }

  // Schedules

  async insertSchedule(manager: EntityManager, s: Omit<ScheduleRow, 'created_at' | 'updated_at' | 'last_run_at' | 'last_report_id'>): Promise<ScheduleRow> {
    const rows: ScheduleRow[] = await manager.query(
      `INSERT INTO ${S} (id, name, type, cron, timezone, period_days, databases, formats, enabled, next_run_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
      [s.id, s.name, s.type, s.cron, s.timezone, s.period_days, s.databases, s.formats, s.enabled, s.next_run_at],
    );
    return rows[0]!;
  }

  async findSchedule(manager: EntityManager, id: string, lock = false): Promise<ScheduleRow | undefined> {
    const rows: ScheduleRow[] = await manager.query(`SELECT * FROM ${S} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0];
  }

  async scheduleNameTaken(manager: EntityManager, name: string, exceptId: string): Promise<boolean> {
    return ((await manager.query(`SELECT 1 FROM ${S} WHERE lower(name) = lower($1) AND id <> $2`, [name, exceptId])) as unknown[]).length > 0;
  }

  async updateSchedule(manager: EntityManager, s: ScheduleRow): Promise<ScheduleRow> {
    const rows = returned<ScheduleRow>(await manager.query(
      `UPDATE ${S} SET name = $2, type = $3, cron = $4, timezone = $5, period_days = $6, databases = $7, formats = $8, enabled = $9,
              next_run_at = $10, updated_at = now() WHERE id = $1 RETURNING *`,
      [s.id, s.name, s.type, s.cron, s.timezone, s.period_days, s.databases, s.formats, s.enabled, s.next_run_at],
    ));
    return rows[0]!;
  }

  async deleteSchedule(manager: EntityManager, id: string): Promise<boolean> {
    return returned(await manager.query(`DELETE FROM ${S} WHERE id = $1 RETURNING id`, [id])).length > 0;
  }

  async listSchedules(manager: EntityManager, page: number, perPage: number): Promise<{ rows: ScheduleRow[]; total: number }> {
    const [{ total }] = (await manager.query(`SELECT count(*)::int AS total FROM ${S}`)) as { total: number }[];
    const rows: ScheduleRow[] = await manager.query(`SELECT * FROM ${S} ORDER BY lower(name), id LIMIT $1 OFFSET $2`, [perPage, (page - 1) * perPage]);
    return { rows, total };
  }

  /** Due schedules, locked so that another instance skips them until this transaction ends. */
  async claimDueSchedules(manager: EntityManager, now: Date, limit: number): Promise<ScheduleRow[]> {
    return manager.query(`SELECT * FROM ${S} WHERE enabled AND next_run_at <= $1 ORDER BY next_run_at FOR UPDATE SKIP LOCKED LIMIT $2`, [now, limit]);
  }

  async advanceSchedule(manager: EntityManager, id: string, ranAt: Date, reportId: string | null, next: Date | null): Promise<void> {
    await manager.query(
      `UPDATE ${S} SET last_run_at = $2, last_report_id = COALESCE($3, last_report_id), next_run_at = $4 WHERE id = $1`,
      [id, ranAt, reportId, next],
    );
  }
}
