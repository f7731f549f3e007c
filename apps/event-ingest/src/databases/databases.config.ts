import { env } from '@vigil/platform';

/** Variables of the databases registry and its monitoring (docs/reports.md#connection-events). */
export const databasesConfigSpec = {
  /** A connected database that sends no audit event for this long is declared disconnected. */
  DATABASE_SILENCE_SECONDS: env.int({ min: 1, max: 604_800, default: 900 }),
  /** How often each instance looks for silent databases (one instance at a time, advisory lock). */
  DATABASE_MONITOR_INTERVAL_MS: env.int({ min: 50, max: 3_600_000, default: 30_000 }),
};
