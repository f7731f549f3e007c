import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CreateReportRequest, ReportPage, ReportResponse } from '@vigil/contracts';
import type { Command } from 'commander';
import { contextFor, type Context, type Runtime } from '../context.ts';
import { CliError, ExitCode, usageError } from '../errors.ts';
import { sleep } from '../http/api-client.ts';
import { collect, parsePositiveInt, parseTime } from '../options.ts';

const POLL_MS = 1000;

export function registerReportCommands(program: Command, runtime: Runtime): void {
  const reports = program.command('reports').description('Compliance reports: generate, follow, download');

  reports
    .command('generate')
    .description('Request a report and wait, showing progress, until it is completed')
    .requiredOption('--type <type>', 'report type: pci_dss, sox, hipaa or gdpr (GET /v1/report-types lists them)')
    .requiredOption('--from <time>', 'start of the period (inclusive): ISO 8601, or back from now such as 30d')
    .option('--to <time>', 'end of the period (exclusive): ISO 8601 or a duration back from now (default: now)')
    .option('--database <ids>', 'databases in scope (default: every database); repeat or comma-separate', collect)
    .option('--format <formats>', 'formats to produce (default: every format the server offers); repeat or comma-separate', collect)
    .option('--no-wait', 'answer at once with the queued report instead of waiting')
    .option('--timeout <seconds>', 'stop waiting after this long (exit code 1; the report carries on)', parsePositiveInt('--timeout', 86_400))
    .action(
      async (
        options: { type: string; from: string; to?: string; database?: string[]; format?: string[]; wait: boolean; timeout?: number },
        command: Command,
      ) => {
        const ctx = contextFor(command, runtime);
        const body: Record<string, unknown> = {
          type: options.type as CreateReportRequest['type'],
          period_start: parseTime(options.from, '--from'),
          period_end: options.to ? parseTime(options.to, '--to') : new Date().toISOString(),
        };
        if (options.database) body.databases = options.database;
        if (options.format) body.formats = options.format;
        let report = await ctx.client.json<ReportResponse>('POST', '/v1/reports', { body });
        if (options.wait) report = await waitForReport(ctx, report, options.timeout);
        if (ctx.output.json) ctx.output.document(report);
        else printReport(ctx, report);
        if (report.status === 'failed') throw new CliError(`report ${report.id} failed: ${report.error ?? 'no reason given'}`, ExitCode.other);
      },
    );

  reports
    .command('get <report_id>')
    .description('Show one report: status, progress, summary, download links')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextFor(command, runtime);
      const report = await ctx.client.json<ReportResponse>('GET', `/v1/reports/${encodeURIComponent(id)}`);
      if (ctx.output.json) ctx.output.document(report);
      else printReport(ctx, report);
    });

  reports
    .command('list')
    .description('List reports, newest first')
    .option('--type <type>', 'reports of this type')
    .option('--status <status>', 'queued, running, completed or failed')
    .option('--page <n>', 'page number', parsePositiveInt('--page', 100_000))
    .option('--per-page <n>', 'reports per page, 1 to 100', parsePositiveInt('--per-page', 100))
    .action(async (options: { type?: string; status?: string; page?: number; perPage?: number }, command: Command) => {
      const ctx = contextFor(command, runtime);
      const page = await ctx.client.json<ReportPage>('GET', '/v1/reports', {
        query: { type: options.type, status: options.status, page: options.page, per_page: options.perPage },
      });
      if (ctx.output.json) ctx.output.document(page.data);
      else ctx.output.table(page.data as unknown as Record<string, unknown>[], ['id', 'type', 'status', 'progress', 'period_start', 'period_end', 'formats', 'created_at']);
    });

  reports
    .command('download <report_id>')
    .description('Download a completed report (to stdout, or to a file with -o)')
    .option('--format <format>', 'one of the formats the report was requested in (json, csv, html, ...)', 'json')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action(async (id: string, options: { format: string; out?: string }, command: Command) => {
      const ctx = contextFor(command, runtime);
      if (!/^[a-z0-9]{1,16}$/.test(options.format)) throw usageError('--format must be a format name such as json, csv or html');
      const response = await ctx.client.send('GET', `/v1/reports/${encodeURIComponent(id)}/download`, { query: { format: options.format } });
      const body = Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]);
      if (!options.out) {
        await pipeline(body, process.stdout, { end: false });
        return;
      }
      // Written beside the target and renamed: an interrupted download never leaves half a report.
      const partial = `${options.out}.partial`;
      try {
        await pipeline(body, createWriteStream(partial));
        await rename(partial, options.out);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      ctx.output.notice(`wrote ${options.out} (${response.headers.get('content-type') ?? options.format})`);
    });
}

async function waitForReport(ctx: Context, report: ReportResponse, timeoutSeconds?: number): Promise<ReportResponse> {
  const deadline = timeoutSeconds ? Date.now() + timeoutSeconds * 1000 : Infinity;
  let shown = '';
  while (report.status === 'queued' || report.status === 'running') {
    const line = `report ${report.id}: ${report.status} ${report.progress}%`;
    if (line !== shown) ctx.output.progress(line);
    shown = line;
    if (Date.now() > deadline) {
      ctx.output.endProgress();
      throw new CliError(`report ${report.id} is still ${report.status} after ${timeoutSeconds} s (follow it with \`vigil reports get ${report.id}\`)`, ExitCode.other);
    }
    await sleep(POLL_MS);
    report = await ctx.client.json<ReportResponse>('GET', `/v1/reports/${encodeURIComponent(report.id)}`);
  }
  ctx.output.progress(`report ${report.id}: ${report.status} ${report.progress}%`);
  ctx.output.endProgress();
  return report;
}

function printReport(ctx: Context, report: ReportResponse): void {
  ctx.output.line(`${report.id}  ${report.title}`);
  ctx.output.line(`  status    ${report.status}${report.status === 'completed' ? '' : ` (${report.progress}%)`}${report.error ? `: ${report.error}` : ''}`);
  ctx.output.line(`  period    ${report.period_start} .. ${report.period_end}`);
  ctx.output.line(`  databases ${report.databases.length ? report.databases.join(', ') : 'all'}`);
  if (report.summary) ctx.output.line(`  summary   ${Object.entries(report.summary).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  if (report.status === 'completed') {
    ctx.output.line(`  download  ${report.formats.map((f) => `vigil reports download ${report.id} --format ${f} -o ${report.id}.${f}`).join('\n            ')}`);
  }
}
