import type { Checkpoint } from '@vigil/contracts';

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
   * The newest signed checkpoint of the verifiable event log in the snapshot the report was computed
   * from, and the log's size in that snapshot (docs/reports.md#integrity-checkpoint). Null when the
   * log had no checkpoint yet; absent from documents stored before reports named checkpoints.
   */
  integrity_checkpoint?: ReportCheckpoint | null;
}

/**
 * A checkpoint as the integrity API serves it, plus `log_size`: every event the report counted is
 * the leaf of a position below it (leaf index = sequence - 1). When `log_size` exceeds
 * `tree_size`, the newest `log_size - tree_size` positions are covered by later checkpoints.
 */
export interface ReportCheckpoint extends Checkpoint {
  log_size: number;
}

export const ROW_LIMIT = 500;
