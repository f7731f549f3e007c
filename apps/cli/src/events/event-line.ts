import type { EventListItem } from '@vigil/contracts';
import { oneLine } from '../output/output.ts';

const COLORS: Record<string, string> = { critical: '\x1b[31m', warning: '\x1b[33m' };

/** `time  severity  type  database  user  query excerpt`: one line per event, columns aligned. */
export function eventLine(event: EventListItem, options: { color?: boolean; width?: number } = {}): string {
  const details = (event.details ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof details[key] === 'string' && details[key] ? (details[key] as string) : undefined);
  const severity = event.severity.padEnd(8);
  const head = [
    event.timestamp,
    options.color && COLORS[event.severity] ? `${COLORS[event.severity]}${severity}\x1b[0m` : severity,
    event.type.padEnd(29),
    event.database_id.padEnd(16),
    (text('user') ?? '-').padEnd(12),
  ].join(' ');
  const excerpt = text('query') ?? text('threat_type') ?? text('message') ?? '';
  const room = Math.max(40, (options.width ?? 160) - 24 - 9 - 30 - 17 - 13);
  return `${head} ${oneLine(excerpt, room)}`.trimEnd();
}
