import type { EventListItem, ListEventsResponse } from '@vigil/contracts';
import { type Command, Option } from 'commander';
import { contextFor, type Runtime } from '../context.ts';
import { collect, joined, parsePositiveInt, parseTime } from '../options.ts';
import { eventLine } from './event-line.ts';
import { tailEvents } from './tail.ts';

interface FilterOptions {
  type?: string[];
  severity?: string[];
  database?: string[];
}

const filterOptions = (command: Command) =>
  command
    .option('--type <types>', 'event type or pattern (security.*); repeat or comma-separate for several', collect)
    .option('--severity <severities>', 'info, warning or critical; repeat or comma-separate for several', collect)
    .option('--database <ids>', 'database id (db_...); repeat or comma-separate for several', collect);

const filterQuery = (options: FilterOptions) => ({ type: joined(options.type), severity: joined(options.severity), database_id: joined(options.database) });

export function registerEventCommands(program: Command, runtime: Runtime): void {
  const events = program.command('events').description('Audit events: follow them live, or search the stored ones');

  filterOptions(events.command('tail'))
    .description('Follow events as they are stored (Server-Sent Events); reconnects by itself without losing or repeating one')
    .option('--since-id <event_id>', 'first replay the stored events after this one (Last-Event-ID)')
    .option('--quiet', 'no connection notices on stderr')
    .action(async (options: FilterOptions & { sinceId?: string; quiet?: boolean }, command: Command) => {
      const ctx = contextFor(command, runtime);
      const color = Boolean(process.stdout.isTTY) && !ctx.env.NO_COLOR;
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      // Kept until the end: under the Node re-exec a terminal's Ctrl-C arrives twice (from the
      // terminal and passed on by the parent), and the second must not kill the process mid-exit.
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        await tailEvents(ctx.client, {
          filters: filterQuery(options),
          sinceId: options.sinceId,
          signal: stop.signal,
          onEvent: (event) => (ctx.output.json ? ctx.output.record(event) : ctx.output.line(eventLine(event, { color, width: process.stdout.columns }))),
          onNotice: (text) => options.quiet || ctx.output.notice(text),
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });

  filterOptions(events.command('search'))
    .description('List stored events, newest first (GET /v1/events)')
    .option('--user <user>', 'database user')
    .option('--source-ip <ip>', 'source IP address')
    .option('--start <time>', 'from this time (inclusive): ISO 8601, or back from now such as 15m, 24h, 7d')
    .option('--end <time>', 'until this time (exclusive): ISO 8601 or a duration back from now')
    .option('--limit <n>', 'events per page, 1 to 1000 (default 50; 1000 with --all)', parsePositiveInt('--limit', 1000))
    .option('--page <n>', 'page number (at most 10000 events deep; --cursor or --all go further)', parsePositiveInt('--page', 1_000_000))
    .option('--cursor <cursor>', 'continue after a previous page (its pagination.next_cursor)')
    .addOption(new Option('--all', 'every matching event: follows the cursor page after page').conflicts(['page', 'cursor']))
    .action(
      async (
        options: FilterOptions & { user?: string; sourceIp?: string; start?: string; end?: string; limit?: number; page?: number; cursor?: string; all?: boolean },
        command: Command,
      ) => {
        const ctx = contextFor(command, runtime);
        const color = Boolean(process.stdout.isTTY) && !ctx.env.NO_COLOR;
        const query = {
          ...filterQuery(options),
          user: options.user,
          source_ip: options.sourceIp,
          start_date: options.start && parseTime(options.start, '--start'),
          end_date: options.end && parseTime(options.end, '--end'),
          limit: options.limit ?? (options.all ? 1000 : undefined),
          page: options.page,
          cursor: options.cursor,
        };
        const print = (event: EventListItem) => (ctx.output.json ? ctx.output.record(event) : ctx.output.line(eventLine(event, { color, width: process.stdout.columns })));
        let shown = 0;
        let page = await ctx.client.json<ListEventsResponse>('GET', '/v1/events', { query });
        for (;;) {
          page.events.forEach(print);
          shown += page.events.length;
          const next = page.pagination.next_cursor;
          if (!options.all || !page.pagination.has_more || !next) break;
          // The snapshot of the first page keeps later pages from shifting as new events arrive.
          page = await ctx.client.json<ListEventsResponse>('GET', '/v1/events', { query: { ...query, cursor: next, snapshot: page.pagination.snapshot } });
        }
        if (!ctx.output.json) {
          const { total, total_estimated, has_more, next_cursor } = page.pagination;
          const more = has_more && !options.all && next_cursor ? `; next page: --cursor ${next_cursor} (or --all)` : '';
          ctx.output.notice(`${shown} event${shown === 1 ? '' : 's'} shown of ${total_estimated ? 'about ' : ''}${total}${more}`);
        }
      },
    );
}
