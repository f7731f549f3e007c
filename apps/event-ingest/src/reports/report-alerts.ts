import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { type AlertReport, type AlertReportRequest, RpcPatterns } from '@vigil/contracts';
import { CONFIG, type ConfigOf, DomainException, LOGGER, type Logger, RPC_CREDENTIALS, RpcClient, type RpcCredentials } from '@vigil/platform';
import type { reportsConfigSpec } from './reports.config';

type ReportsConfig = ConfigOf<typeof reportsConfigSpec>;

/** Longest one call may take: the delivery service aggregates the period's alerts in SQL. */
const CALL_TIMEOUT_MS = 30_000;

/** The delivery service could not give the alert figures in time: the report must not be completed without them. */
export class AlertsUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AlertsUnavailableError';
  }
}

/** The instance is stopping: the report is left to its lease (another instance takes it over), not failed. */
export class GenerationInterruptedError extends Error {
  constructor() {
    super('report generation interrupted by shutdown');
    this.name = 'GenerationInterruptedError';
  }
}

/** Retry pauses: 250 ms doubling to 5 s, never past the deadline. Pure. */
export function retryDelayMs(attempt: number, remainingMs: number): number {
  return Math.max(0, Math.min(250 * 2 ** Math.min(attempt - 1, 5), 5_000, remainingMs));
}

/**
 * Reads a report's alert figures from the delivery service over RPC (`delivery.alerts.report`,
 * docs/reports.md#alerts). Alerts live in delivery's schema, which event-ingest does not read.
 *
 * An unreachable or failing delivery service is retried for REPORTS_ALERTS_RETRY_MS (at most half
 * the lease, so no other instance takes the report over meanwhile); then `AlertsUnavailableError`
 * fails the report with the reason. A request delivery refuses (4xx) is not retried.
 */
@Injectable()
export class ReportAlertsClient implements OnModuleDestroy {
  private readonly rpc: RpcClient;
  private readonly retryMs: number;
  private readonly logger: Logger;

  constructor(
    @Inject(CONFIG) config: ReportsConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(RPC_CREDENTIALS) credentials: RpcCredentials | null,
  ) {
    this.rpc = new RpcClient('delivery', config.DELIVERY_RPC_ADDRESS, CALL_TIMEOUT_MS, credentials);
    this.retryMs = Math.min(config.REPORTS_ALERTS_RETRY_MS, Math.floor(config.REPORTS_LEASE_MS / 2));
    this.logger = logger.child({ component: 'report-alerts' });
  }

  async onModuleDestroy() {
    await this.rpc.close();
  }

  async fetch(request: AlertReportRequest, stopping: () => boolean = () => false): Promise<AlertReport> {
    const started = Date.now();
    const deadline = started + this.retryMs;
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      try {
        return await this.rpc.call<AlertReportRequest, AlertReport>(RpcPatterns.alerts.report, request);
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error);
        if (error instanceof DomainException && error.status < 500) {
          throw new AlertsUnavailableError(`The delivery service refused the alerts request (${error.status} ${error.code}: ${reason}).`);
        }
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new AlertsUnavailableError(
          `Alerts could not be read from the delivery service (${reason}) after ${attempt} attempt(s) over ${Math.round((Date.now() - started) / 1000)} s. ` +
            'The report was not completed, as its alerts section would be missing; request it again once the delivery service is reachable.',
        );
      }
      const delay = retryDelayMs(attempt, remaining);
      this.logger.warn({ attempt, retry_ms: delay, reason }, 'alerts for a report could not be read from the delivery service; retrying');
      await new Promise((r) => setTimeout(r, delay));
      if (stopping()) throw new GenerationInterruptedError();
    }
  }
}
