import { Type, type Static } from '@sinclair/typebox';
import { createEnvelopeValidator } from '../envelope';

/** Compliance frameworks a report can be generated for (docs/reports.md#report-types). */
export const ReportTypes = ['pci_dss', 'sox', 'hipaa', 'gdpr'] as const;
export type ReportType = (typeof ReportTypes)[number];

/** Every format a report can be downloaded in; a request that names none gets all of them. */
export const ReportFormats = ['json', 'csv', 'html', 'pdf'] as const;
export type ReportFormat = (typeof ReportFormats)[number];

export const ReportStatuses = ['queued', 'running', 'completed', 'failed'] as const;
export type ReportStatus = (typeof ReportStatuses)[number];

export const ReportListLimits = { defaultPerPage: 20, maxPerPage: 100 } as const;
/** Longest period one report may cover. */
export const REPORT_MAX_PERIOD_DAYS = 400;

export interface ReportResponse {
  id: string;
  type: ReportType;
  title: string;
  status: ReportStatus;
  /** 0..100, moves while the report is generated in the background. */
  progress: number;
  period_start: string;
  period_end: string;
  /** Empty: every database. */
  databases: string[];
  formats: ReportFormat[];
  schedule_id: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  error: string | null;
  summary: Record<string, number> | null;
  /** Download addresses by format, once completed. */
  links: Record<string, string>;
}

export interface CreateReportRequest {
  type: ReportType;
  period_start: string;
  period_end: string;
  databases?: string[];
  formats?: ReportFormat[];
}

export interface ListReportsRequest {
  type?: ReportType;
  status?: ReportStatus;
  schedule_id?: string;
  page: number;
  per_page: number;
}

export interface ReportPage {
  data: ReportResponse[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

export interface ReportContentRequest {
  id: string;
  format: ReportFormat;
}

export interface ReportContentResponse {
  content_type: string;
  filename: string;
  /** The document: text as is, or the bytes of a binary format (PDF) in base64 (`encoding`). */
  body: string;
  encoding: 'utf8' | 'base64';
}

export interface ReportScheduleResponse {
  id: string;
  name: string;
  type: ReportType;
  cron: string;
  timezone: string;
  /** Each run covers the `period_days` days before its slot. */
  period_days: number;
  databases: string[];
  formats: ReportFormat[];
  enabled: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_report_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface CreateReportScheduleRequest {
  name: string;
  type: ReportType;
  cron: string;
  timezone?: string;
  period_days?: number;
  databases?: string[];
  formats?: ReportFormat[];
  enabled?: boolean;
}

export interface UpdateReportScheduleRequest {
  id: string;
  changes: Partial<CreateReportScheduleRequest>;
}

export interface ReportSchedulePage {
  data: ReportScheduleResponse[];
  pagination: { total: number; page: number; per_page: number; has_more: boolean };
}

export interface ReportTypeDescription {
  type: ReportType;
  title: string;
  framework: string;
  sections: { id: string; title: string; controls: string[]; description: string }[];
}

export const REPORT_GENERATED = 'report.generated';

/** Payload on `report.events.v1` (key: report id; producer: event-ingest, outbox; consumer: delivery webhooks). */
export const ReportGeneratedSchema = Type.Object({
  report_id: Type.String({ pattern: '^rpt_' }),
  report_type: Type.String(),
  title: Type.String(),
  schedule_id: Type.Union([Type.String(), Type.Null()]),
  period_start: Type.String({ format: 'date-time' }),
  period_end: Type.String({ format: 'date-time' }),
  databases: Type.Array(Type.String()),
  formats: Type.Array(Type.String()),
  summary: Type.Record(Type.String(), Type.Number()),
  generated_at: Type.String({ format: 'date-time' }),
  links: Type.Record(Type.String(), Type.String()),
});
export type ReportGenerated = Static<typeof ReportGeneratedSchema>;
export const reportGeneratedValidator = createEnvelopeValidator(ReportGeneratedSchema);
