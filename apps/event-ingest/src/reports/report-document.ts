/** The stored, immutable content of a generated report; JSON, CSV and HTML are renderings of it. */
export type Cell = string | number | null;

export interface ReportSection {
  id: string;
  title: string;
  controls: string[];
  description: string;
  /** False when the data the section needs is not available to this installation; `note` says why. */
  available: boolean;
  note?: string;
  metrics: Record<string, number>;
  columns: string[];
  rows: Cell[][];
  /** True when `rows` holds only the first ROW_LIMIT rows; `metrics` always cover everything. */
  truncated: boolean;
}

export interface ReportDocument {
  report_id: string;
  type: string;
  title: string;
  framework: string;
  generated_at: string;
  period: { start: string; end: string };
  scope: { all_databases: boolean; databases: { id: string; name: string | null }[] };
  schedule_id: string | null;
  summary: Record<string, number>;
  events_by_type: { type: string; severity: string; count: number }[];
  sections: ReportSection[];
}

export const ROW_LIMIT = 500;
