import { Cron } from 'croner';
import type { FieldError } from '@vigil/contracts';

/** Is `zone` an IANA time zone this runtime knows? */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return /\//.test(zone) || zone === 'UTC' || zone === 'Etc/UTC';
  } catch {
    return false;
  }
}

/** Field errors of a cron expression + time zone pair (422 when not empty). */
export function scheduleErrors(cron: string | undefined, timezone: string | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (timezone !== undefined && !isTimeZone(timezone)) errors.push({ field: 'timezone', message: 'must be an IANA time zone name such as Europe/Berlin or UTC' });
  if (cron !== undefined) {
    if (cron.trim().split(/\s+/).length !== 5) errors.push({ field: 'cron', message: 'must have five fields: minute hour day-of-month month day-of-week' });
    else {
      try {
        new Cron(cron, { paused: true, timezone: 'UTC' });
      } catch (error) {
        errors.push({ field: 'cron', message: `not a valid cron expression: ${(error as Error).message}` });
      }
    }
  }
  return errors;
}

/**
 * The first slot strictly after `after`: the cron expression read as wall-clock time in `timezone`
 * (a slot that falls into a daylight-saving gap runs at the first valid minute after it; a slot in
 * the repeated hour runs once).
 */
export function nextSlot(cron: string, timezone: string, after: Date): Date | null {
  return new Cron(cron, { paused: true, timezone }).nextRun(after) ?? null;
}
