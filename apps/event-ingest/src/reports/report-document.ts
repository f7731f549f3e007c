/** The stored, immutable content of a generated report; JSON, CSV, HTML and PDF are renderings of it. */
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
  /**
   * Reserved for the integrity checkpoint of the audit event store that covers this report's
   * events (so a reader can prove they were not changed since). Reports are not tied to
   * checkpoints yet: generation stores null, and documents stored before the field existed lack it.
   * Its shape is defined when reports start naming checkpoints; the renderings show "none" until then.
   */
  integrity_checkpoint?: null;
}

export const ROW_LIMIT = 500;
