import type { AlertPage, AlertResponse } from '@vigil/contracts';
import type { Command } from 'commander';
import { contextFor, type Runtime } from '../context.ts';
import { collect, joined, parsePositiveInt, parseTime } from '../options.ts';

const COLUMNS = ['id', 'created_at', 'severity', 'status', 'type', 'database_id', 'occurrences', 'title'];

export function registerAlertCommands(program: Command, runtime: Runtime): void {
  const alerts = program.command('alerts').description('Alerts raised by policies: list, acknowledge, resolve');

  alerts
    .command('list')
    .description('List alerts, newest first')
    .option('--status <statuses>', 'open, acknowledged or resolved; repeat or comma-separate', collect)
    .option('--severity <severities>', 'critical, high, medium, low or info; repeat or comma-separate', collect)
    .option('--type <types>', 'policy_violation, anomaly_detection, threshold_breach or classification_alert', collect)
    .option('--database <id>', 'alerts of this database')
    .option('--start <time>', 'created at or after: ISO 8601, or back from now such as 24h, 7d')
    .option('--end <time>', 'created before: ISO 8601 or a duration back from now')
    .option('--page <n>', 'page number', parsePositiveInt('--page', 1_000_000))
    .option('--per-page <n>', 'alerts per page, 1 to 100 (default 20)', parsePositiveInt('--per-page', 100))
    .option('--all', 'every matching alert, page after page')
    .action(
      async (
        options: { status?: string[]; severity?: string[]; type?: string[]; database?: string; start?: string; end?: string; page?: number; perPage?: number; all?: boolean },
        command: Command,
      ) => {
        const ctx = contextFor(command, runtime);
        const query = {
          status: joined(options.status),
          severity: joined(options.severity),
          type: joined(options.type),
          database_id: options.database,
          start_date: options.start && parseTime(options.start, '--start'),
          end_date: options.end && parseTime(options.end, '--end'),
          per_page: options.perPage ?? (options.all ? 100 : undefined),
        };
        const rows: AlertResponse[] = [];
        let page = options.page ?? 1;
        let total = 0;
        for (;;) {
          const answer = await ctx.client.json<AlertPage<AlertResponse>>('GET', '/v1/alerts', { query: { ...query, page } });
          rows.push(...answer.data);
          total = answer.pagination.total;
          if (!options.all || !answer.pagination.has_more || !answer.data.length) break;
          page++;
        }
        if (ctx.output.json) ctx.output.document(rows);
        else {
          ctx.output.table(rows as unknown as Record<string, unknown>[], COLUMNS);
          if (rows.length < total) ctx.output.notice(`${rows.length} of ${total} alerts shown (--all for every one)`);
        }
      },
    );

  alerts
    .command('get <alert_id>')
    .description('Show one alert')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = contextFor(command, runtime);
      const alert = await ctx.client.json<AlertResponse>('GET', `/v1/alerts/${encodeURIComponent(id)}`);
      if (ctx.output.json) ctx.output.document(alert);
      else for (const [key, value] of Object.entries(alert)) ctx.output.line(`${key.padEnd(16)} ${Array.isArray(value) ? value.join(', ') || '-' : (value ?? '-')}`);
    });

  const transition = (name: string, path: string, description: string) =>
    alerts
      .command(`${name} <alert_id>`)
      .description(description)
      .action(async (id: string, _options: unknown, command: Command) => {
        const ctx = contextFor(command, runtime);
        const alert = await ctx.client.json<AlertResponse>('POST', `/v1/alerts/${encodeURIComponent(id)}/${path}`);
        if (ctx.output.json) ctx.output.document(alert);
        else ctx.output.line(`${alert.id} is now ${alert.status} (${alert.severity}: ${alert.title})`);
      });
  transition('ack', 'acknowledge', 'Acknowledge an open alert (open -> acknowledged)');
  transition('resolve', 'resolve', 'Resolve an alert (open or acknowledged -> resolved)');
}
