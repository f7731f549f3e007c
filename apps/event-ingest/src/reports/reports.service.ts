import { Inject, Injectable } from '@nestjs/common';
import {
  type CreateReportRequest,
  type CreateReportScheduleRequest,
  type ListReportsRequest,
  REPORT_MAX_PERIOD_DAYS,
  type ReportContentRequest,
  ReportFormats,
  type ReportFormat,
  type ReportContentResponse,
  type ReportPage,
  type ReportResponse,
  type ReportScheduleResponse,
  type ReportSchedulePage,
  type ReportTypeDescription,
  type UpdateReportScheduleRequest,
} from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { AuditTrail } from '@vigil/messaging';
import { CONFIG, DomainException } from '@vigil/platform';
import { inSnapshot } from '@vigil/database';
import { DataSource } from 'typeorm';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { describeReportTypes, ReportDefinitions } from './report-definitions';
import { pdfResponse, renderReport } from './report-renderers';
import { type ReportRow, ReportsRepository, type ScheduleRow } from './reports.repository';
import { ReportsWorker } from './reports.worker';
import { nextSlot, scheduleErrors } from './schedule-time';

export enum ReportsErrorCode {
  NotFound = 'report_not_found',
  NotReady = 'report_not_ready',
  InvalidPeriod = 'invalid_report_period',
  FormatNotRequested = 'report_format_not_requested',
  ScheduleNotFound = 'report_schedule_not_found',
  ScheduleNameTaken = 'report_schedule_name_taken',
  InvalidSchedule = 'invalid_report_schedule',
}

const DAY_MS = 86_400_000;

export function reportLinks(baseUrl: string, row: Pick<ReportRow, 'id' | 'status' | 'formats'>): Record<string, string> {
  const base = `${baseUrl.replace(/\/+$/, '')}/v1/reports/${row.id}`;
  const links: Record<string, string> = { self: base };
  if (row.status === 'completed') for (const f of row.formats) links[f] = `${base}/download?format=${f}`;
  return links;
}

/** On-demand and scheduled compliance reports (docs/reports.md). */
@Injectable()
export class ReportsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ReportsRepository) private readonly repository: ReportsRepository,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(ReportsWorker) private readonly worker: ReportsWorker,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  types(): ReportTypeDescription[] {
    return describeReportTypes();
  }

  toResponse(row: ReportRow): ReportResponse {
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    return {
      id: row.id,
      type: row.type,
      title: ReportDefinitions[row.type].title,
      status: row.status,
      progress: row.progress,
      period_start: row.period_start.toISOString(),
      period_end: row.period_end.toISOString(),
      databases: row.databases,
      formats: row.formats,
      schedule_id: row.schedule_id,
      created_at: row.created_at.toISOString(),
      started_at: iso(row.started_at),
      completed_at: iso(row.completed_at),
      error: row.error,
      summary: row.summary,
      links: reportLinks(this.config.REPORTS_PUBLIC_URL, row),
    };
  }

  /** Queues a report; a worker generates it in the background (progress on the resource). */
  async create(request: CreateReportRequest): Promise<ReportResponse> {
    const start = new Date(request.period_start);
    const end = new Date(request.period_end);
    if (!(start < end)) throw new DomainException(422, ReportsErrorCode.InvalidPeriod, 'period_start must be before period_end.', [{ field: 'period_end', message: 'must be after period_start' }]);
    if (end.getTime() - start.getTime() > REPORT_MAX_PERIOD_DAYS * DAY_MS) {
      throw new DomainException(422, ReportsErrorCode.InvalidPeriod, `A report covers at most ${REPORT_MAX_PERIOD_DAYS} days.`, [{ field: 'period_start', message: `at most ${REPORT_MAX_PERIOD_DAYS} days before period_end` }]);
    }
    const row = await this.dataSource.transaction(async (manager) => {
      const inserted = await this.repository.insert(manager, {
        id: newId('report'),
        type: request.type,
        period_start: start,
        period_end: end,
        databases: [...new Set(request.databases ?? [])].sort(),
        formats: [...new Set<ReportFormat>(request.formats ?? ReportFormats)],
        schedule_id: null,
        slot: null,
      });
      await this.audit.record(manager, { type: 'vigil.report.requested', target: { type: 'report', id: inserted!.id }, after: reportView(inserted!) });
      return inserted;
    });
    this.worker.kick();
    return this.toResponse(row!);
  }

  async get(id: string): Promise<ReportResponse> {
    const row = await this.repository.find(this.dataSource.manager, id);
    if (!row) throw DomainException.notFound('report', id, ReportsErrorCode.NotFound);
    return this.toResponse(row);
  }

  async list(query: ListReportsRequest): Promise<ReportPage> {
    const { rows, total } = await inSnapshot(this.dataSource, (manager) => this.repository.list(manager, query));
    return { data: rows.map((r) => this.toResponse(r)), pagination: { total, page: query.page, per_page: query.per_page, has_more: query.page * query.per_page < total } };
  }

  async delete(id: string): Promise<{ deleted: boolean; id: string }> {
    await this.dataSource.transaction(async (manager) => {
      const existing = await this.repository.find(manager, id);
      if (!existing || !(await this.repository.delete(manager, id))) throw DomainException.notFound('report', id, ReportsErrorCode.NotFound);
      await this.audit.record(manager, { type: 'vigil.report.deleted', target: { type: 'report', id }, before: reportView(existing) });
    });
    return { deleted: true, id };
  }

  async content({ id, format }: ReportContentRequest): Promise<ReportContentResponse> {
    const row = await this.repository.find(this.dataSource.manager, id);
    if (!row) throw DomainException.notFound('report', id, ReportsErrorCode.NotFound);
    if (row.status !== 'completed') throw new DomainException(409, ReportsErrorCode.NotReady, `The report is ${row.status}; download it once completed.`);
    if (!row.formats.includes(format)) throw new DomainException(404, ReportsErrorCode.FormatNotRequested, `The report was requested in ${row.formats.join(', ')}, not ${format}.`);
    if (format === 'pdf') {
      // Rendered when the report was generated; a report completed by an older version has none yet.
      const pdf = await this.repository.pdf(this.dataSource.manager, id);
      if (pdf) return { ...pdfResponse(row.id, row.type), body: pdf.toString('base64') };
    }
    const document = await this.repository.document(this.dataSource.manager, id);
    return await renderReport(document!, format);
  }

  // Schedules

  private scheduleResponse(row: ScheduleRow): ReportScheduleResponse {
    const iso = (d: Date | null) => (d ? d.toISOString() : null);
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      cron: row.cron,
      timezone: row.timezone,
      period_days: row.period_days,
      databases: row.databases,
      formats: row.formats,
      enabled: row.enabled,
      next_run_at: iso(row.next_run_at),
      last_run_at: iso(row.last_run_at),
      last_report_id: row.last_report_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  private checkSchedule(cron: string | undefined, timezone: string | undefined) {
    const errors = scheduleErrors(cron, timezone);
    if (errors.length) throw new DomainException(422, ReportsErrorCode.InvalidSchedule, 'The schedule is invalid.', errors);
  }

  createSchedule(request: CreateReportScheduleRequest): Promise<ReportScheduleResponse> {
    const timezone = request.timezone ?? 'UTC';
    this.checkSchedule(request.cron, timezone);
    return this.dataSource.transaction(async (manager) => {
      const id = newId('reportSchedule');
      if (await this.repository.scheduleNameTaken(manager, request.name, id)) {
        throw new DomainException(409, ReportsErrorCode.ScheduleNameTaken, `A report schedule named "${request.name}" exists.`);
      }
      const enabled = request.enabled ?? true;
      const row = await this.repository.insertSchedule(manager, {
        id,
        name: request.name,
        type: request.type,
        cron: request.cron,
        timezone,
        period_days: request.period_days ?? 30,
        databases: [...new Set(request.databases ?? [])].sort(),
        formats: [...new Set<ReportFormat>(request.formats ?? ReportFormats)],
        enabled,
        next_run_at: enabled ? nextSlot(request.cron, timezone, new Date()) : null,
      });
      await this.audit.record(manager, { type: 'vigil.report_schedule.created', target: { type: 'report_schedule', id }, after: scheduleView(row) });
      return this.scheduleResponse(row);
    });
  }

  async getSchedule(id: string): Promise<ReportScheduleResponse> {
    const row = await this.repository.findSchedule(this.dataSource.manager, id);
    if (!row) throw DomainException.notFound('report schedule', id, ReportsErrorCode.ScheduleNotFound);
    return this.scheduleResponse(row);
  }

  async listSchedules(page: number, perPage: number): Promise<ReportSchedulePage> {
    const { rows, total } = await inSnapshot(this.dataSource, (manager) => this.repository.listSchedules(manager, page, perPage));
    return { data: rows.map((r) => this.scheduleResponse(r)), pagination: { total, page, per_page: perPage, has_more: page * perPage < total } };
  }

  updateSchedule({ id, changes }: UpdateReportScheduleRequest): Promise<ReportScheduleResponse> {
    this.checkSchedule(changes.cron, changes.timezone);
    return this.dataSource.transaction(async (manager) => {
      const row = await this.repository.findSchedule(manager, id, true);
      if (!row) throw DomainException.notFound('report schedule', id, ReportsErrorCode.ScheduleNotFound);
      if (changes.name !== undefined && (await this.repository.scheduleNameTaken(manager, changes.name, id))) {
        throw new DomainException(409, ReportsErrorCode.ScheduleNameTaken, `A report schedule named "${changes.name}" exists.`);
      }
      const next: ScheduleRow = {
        ...row,
        name: changes.name ?? row.name,
        type: changes.type ?? row.type,
        cron: changes.cron ?? row.cron,
        timezone: changes.timezone ?? row.timezone,
        period_days: changes.period_days ?? row.period_days,
        databases: changes.databases ? [...new Set(changes.databases)].sort() : row.databases,
        formats: changes.formats ? [...new Set(changes.formats)] : row.formats,
        enabled: changes.enabled ?? row.enabled,
      };
      const timingChanged = next.cron !== row.cron || next.timezone !== row.timezone || next.enabled !== row.enabled;
      if (timingChanged) next.next_run_at = next.enabled ? nextSlot(next.cron, next.timezone, new Date()) : null;
      const updated = await this.repository.updateSchedule(manager, next);
      await this.audit.record(manager, { type: 'vigil.report_schedule.updated', target: { type: 'report_schedule', id }, before: scheduleView(row), after: scheduleView(updated) });
      return this.scheduleResponse(updated);
    });
  }

  async deleteSchedule(id: string): Promise<{ deleted: boolean; id: string }> {
    await this.dataSource.transaction(async (manager) => {
      const existing = await this.repository.findSchedule(manager, id, true);
      if (!existing || !(await this.repository.deleteSchedule(manager, id))) throw DomainException.notFound('report schedule', id, ReportsErrorCode.ScheduleNotFound);
      await this.audit.record(manager, { type: 'vigil.report_schedule.deleted', target: { type: 'report_schedule', id }, before: scheduleView(existing) });
    });
    return { deleted: true, id };
  }
}

/** What an administrative record shows of a report request. */
function reportView(row: ReportRow): Record<string, unknown> {
  return { type: row.type, period_start: row.period_start.toISOString(), period_end: row.period_end.toISOString(), databases: row.databases, formats: row.formats, status: row.status };
}

/** What an administrative record shows of a schedule (its run bookkeeping left out). */
function scheduleView(row: ScheduleRow): Record<string, unknown> {
  const { name, type, cron, timezone, period_days, databases, formats, enabled } = row;
  return { name, type, cron, timezone, period_days, databases, formats, enabled };
}
