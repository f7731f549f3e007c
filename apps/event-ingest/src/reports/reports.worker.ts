import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type EventEnvelope, REPORT_GENERATED, type ReportGenerated, Topics } from '@vigil/contracts';
import { newId } from '@vigil/domain';
import { OutboxWriter } from '@vigil/messaging';
import { CONFIG, LOGGER, type Logger } from '@vigil/platform';
import { DataSource } from 'typeorm';
import { DatabasesRepository } from '../databases/databases.repository';
import type { EventIngestConfig } from '../event-ingest.service-definition';
import { AlertsUnavailableError, GenerationInterruptedError, ReportAlertsClient } from './report-alerts';
import { ReportDefinitions } from './report-definitions';
import { ROW_LIMIT } from './report-document';
import { ReportGenerator } from './report-generator';
import { renderPdf } from './report-pdf';
import { documentDigest } from './report-renderers';
import { type ReportRow, ReportsRepository } from './reports.repository';
import { nextSlot } from './schedule-time';

const DAY_MS = 86_400_000;

export function reportLinksFor(baseUrl: string, id: string, formats: string[]): Record<string, string> {
  const base = `${baseUrl.replace(/\/+$/, '')}/v1/reports/${id}`;
  return { self: base, ...Object.fromEntries(formats.map((f) => [f, `${base}/download?format=${f}`])) };
}

/**
 * Runs on every instance (docs/reports.md#schedules):
 * - due schedules: locked with SKIP LOCKED and turned into a report row unique per (schedule, slot),
 *   then moved to their next slot, all in one transaction: a slot runs once however many instances
 *   poll, and a restart picks up where next_run_at says;
 * - queued reports: claimed under a lease and generated in one transaction that also stores the
 *   document and writes report.generated to the outbox. A generator that dies leaves its lease to
 *   expire; another instance then takes the report over.
 */
@Injectable()
export class ReportsWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopping = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ReportsRepository) private readonly repository: ReportsRepository,
    @Inject(DatabasesRepository) private readonly databases: DatabasesRepository,
    @Inject(ReportGenerator) private readonly generator: ReportGenerator,
    @Inject(ReportAlertsClient) private readonly alerts: ReportAlertsClient,
    @Inject(OutboxWriter) private readonly outbox: OutboxWriter,
    @Inject(CONFIG) private readonly config: EventIngestConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => this.kick(), this.config.REPORTS_POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async onApplicationShutdown() {
    this.stopping = true;
    clearInterval(this.timer);
    // A report in generation is given a few seconds; otherwise its lease expires and another
    // instance (or this one after restart) generates it again.
    await Promise.race([this.running, new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  /**
   * Resolves once a pass that began after this call has finished: everything this instance could
   * do with what was due at the call is done and committed (a pass already running is waited for
   * first, since it may have begun before what the caller saw).
   */
  async settle(): Promise<void> {
    while (this.running) await this.running;
    this.kick();
    while (this.running) await this.running;
  }

  /** Runs a pass now (or right after the current one). */
  kick(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.logger.error({ err: error }, 'report worker pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async pass(now = new Date()): Promise<void> {
    await this.fireDueSchedules(now);
    while (!this.stopping && (await this.generateNext())) {
      /* next report */
    }
  }

  /** Creates the report of every due slot; returns how many reports this call created. */
  async fireDueSchedules(now = new Date()): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      let created = 0;
      for (const schedule of await this.repository.claimDueSchedules(manager, now, 100)) {
        const slot = schedule.next_run_at!;
        const report = await this.repository.insert(manager, {
          id: newId('report'),
          type: schedule.type,
          period_start: new Date(slot.getTime() - schedule.period_days * DAY_MS),
          period_end: slot,
          databases: schedule.databases,
          formats: schedule.formats,
          schedule_id: schedule.id,
          slot,
        });
        if (report) created += 1;
        // Slots missed while no instance ran collapse into the one just created.
        const next = nextSlot(schedule.cron, schedule.timezone, now > slot ? now : slot);
        await this.repository.advanceSchedule(manager, schedule.id, now, report?.id ?? null, next);
      }
      return created;
    });
  }

  /** Generates one claimed report; false when nothing was waiting. */
  async generateNext(): Promise<boolean> {
    const claimed = await this.dataSource.transaction((manager) => this.repository.claim(manager, this.config.REPORTS_LEASE_MS));
    if (!claimed) return false;
    try {
      await this.generate(claimed);
    } catch (error) {
      if (error instanceof GenerationInterruptedError) {
        // Not the report's fault: its lease expires and another instance (or this one after restart) generates it.
        this.logger.info({ report_id: claimed.id }, 'report generation interrupted by shutdown; left to its lease');
        return true;
      }
      this.logger.error({ err: error, report_id: claimed.id, alerts_unavailable: error instanceof AlertsUnavailableError }, 'report generation failed');
      await this.repository.fail(this.dataSource.manager, claimed.id, error instanceof Error ? error.message.slice(0, 500) : 'generation failed');
    }
    return true;
  }

  private async generate(report: ReportRow): Promise<void> {
    const started = Date.now();
    const definition = ReportDefinitions[report.type];
    // Alerts live in the delivery service: read first, outside the snapshot (a few rows, aggregated
    // there). Unreachable for REPORTS_ALERTS_RETRY_MS: the report fails with the reason (docs/reports.md#alerts).
    const alerts = definition.sections.some((s) => s.kind === 'alerts')
      ? await this.alerts.fetch(
          { period_start: report.period_start.toISOString(), period_end: report.period_end.toISOString(), databases: report.databases, limit: ROW_LIMIT },
          () => this.stopping,
        )
      : undefined;
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      // One snapshot for every section: the figures agree with each other.
      await runner.startTransaction('REPEATABLE READ');
      const manager = runner.manager;
      await manager.query(`SET LOCAL statement_timeout = ${Number(this.config.REPORTS_STATEMENT_TIMEOUT_MS)}`);
      await manager.query(`SET LOCAL work_mem = '64MB'`);
      const alertDatabases = alerts?.alerts.map((a) => a.database_id) ?? [];
      const names = await this.databases.names(manager, [...new Set([...report.databases, ...alertDatabases])]);
      const document = await this.generator.generate(
        manager,
        definition,
        { report_id: report.id, schedule_id: report.schedule_id, period_start: report.period_start, period_end: report.period_end, databases: report.databases },
        names,
        // Progress goes through the pool, outside the snapshot; it never holds generation up.
        (percent) => void this.repository.setProgress(this.dataSource.manager, report.id, percent).catch(() => undefined),
        alerts,
      );
      if (report.databases.length === 0) {
        const all = await this.databases.names(manager, document.scope.databases.map((d) => d.id));
        document.scope.databases = document.scope.databases.map((d) => ({ id: d.id, name: all.get(d.id) ?? null }));
      }
      // The snapshot's work is done (its temporary table goes with it); the document, its status and
      // report.generated are written together in a short transaction of their own.
      await runner.commitTransaction();
      // The PDF is rendered once, here, from the final document (a download only reads it): it is
      // the one format that costs real CPU, seconds for a report with thousands of long rows.
      let pdf: Buffer | null = null;
      if (report.formats.includes('pdf')) {
        void this.repository.setProgress(this.dataSource.manager, report.id, 95).catch(() => undefined);
        pdf = await renderPdf(document, documentDigest(document));
      }
      const envelope: EventEnvelope<ReportGenerated> = {
        id: `report.generated:${report.id}`,
        type: REPORT_GENERATED,
        schema_version: 1,
        occurred_at: document.generated_at,
        key: report.id,
        data: {
          report_id: report.id,
          report_type: report.type,
          title: definition.title,
          schedule_id: report.schedule_id,
          period_start: document.period.start,
          period_end: document.period.end,
          databases: report.databases,
          formats: report.formats,
          summary: document.summary,
          generated_at: document.generated_at,
          links: reportLinksFor(this.config.REPORTS_PUBLIC_URL, report.id, report.formats),
        },
      };
      const stored = await this.dataSource.transaction(async (tx) => {
        // Only while still running: a generator whose lease was taken over stores nothing twice.
        if (!(await this.repository.complete(tx, report.id, document, pdf))) return false;
        await this.outbox.enqueue(tx, Topics.reportEvents, [envelope]);
        return true;
      });
      if (!stored) return;
      this.logger.info({ report_id: report.id, type: report.type, ms: Date.now() - started, events: document.summary.total_events, pdf_bytes: pdf?.length }, 'report generated');
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
