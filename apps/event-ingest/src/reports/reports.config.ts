import { env } from '@vigil/platform';

/** Variables of compliance reports (docs/reports.md). */
export const reportsConfigSpec = {
  /** Base address of the public API, used in report links (report.generated, report resources). */
  REPORTS_PUBLIC_URL: env.string({ default: 'http://localhost:3000' }),
  /** How often each instance looks for due schedules and queued reports. */
  REPORTS_POLL_MS: env.int({ min: 50, max: 600_000, default: 5000 }),
  /** A report whose generator stopped (crash) is taken over after this long. */
  REPORTS_LEASE_MS: env.int({ min: 1000, max: 3_600_000, default: 600_000 }),
  /** Where the delivery service answers RPC: report generation reads the alert figures from it (docs/reports.md#alerts). */
  DELIVERY_RPC_ADDRESS: env.address({ default: '127.0.0.1:4004' }),
  /**
   * How long a report keeps retrying an unreachable delivery service before it fails (at most half
   * of REPORTS_LEASE_MS is used). A report is never completed without its alerts section.
   */
  REPORTS_ALERTS_RETRY_MS: env.int({ min: 0, max: 1_800_000, default: 60_000 }),
  /** Longest a report's statements may run. */
  REPORTS_STATEMENT_TIMEOUT_MS: env.int({ min: 1000, max: 3_600_000, default: 600_000 }),
};
