/**
 * Time windows of access_control policies: `HH:MM`–`HH:MM` on some weekdays in an IANA zone.
 * A window whose end is not after its start crosses midnight and belongs to the day it starts on
 * (friday 22:00–06:00 covers Saturday 03:00). Start is inclusive, end exclusive; start == end is
 * the whole day. Local time comes from the platform's IANA database, so daylight-saving changes
 * are those of the zone.
 */
export const Weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof Weekdays)[number];

export interface TimeWindowConfig {
  start: string;
  end: string;
  timezone?: string;
  days?: string[];
}

export interface CompiledTimeWindow {
  start: number;
  end: number;
  timezone: string;
  days: Set<number>;
  describe: string;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function parseHhMm(text: string): number | undefined {
  const m = HH_MM.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** True if the platform knows the IANA zone name. */
export function isValidTimeZone(timezone: string): boolean {
  try {
    formatter(timezone);
    return true;
  } catch {
    return false;
  }
}

const SHORT_DAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

export interface LocalTime {
  day: number;
  minutes: number;
}

// Formatting is the slow part; events arrive roughly in time order, so one entry per zone and
// minute answers almost every lookup. Offsets change only on whole minutes in every IANA zone.
const cache = new Map<string, { minute: number; local: LocalTime }>();

export function localTime(epochMs: number, timezone: string): LocalTime {
  const minute = Math.floor(epochMs / 60_000);
  const hit = cache.get(timezone);
  if (hit && hit.minute === minute) return hit.local;
  let day = 0;
  let hour = 0;
  let min = 0;
  for (const part of formatter(timezone).formatToParts(new Date(minute * 60_000))) {
    if (part.type === 'weekday') day = SHORT_DAYS[part.value] ?? 0;
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') min = Number(part.value);
  }
  const local = { day, minutes: hour * 60 + min };
  if (cache.size > 512) cache.clear();
  cache.set(timezone, { minute, local });
  return local;
}

export function compileTimeWindow(config: TimeWindowConfig): CompiledTimeWindow {
  const start = parseHhMm(config.start);
  const end = parseHhMm(config.end);
  if (start === undefined || end === undefined) throw new Error('start and end must be HH:MM');
  const timezone = config.timezone ?? 'UTC';
  const days = new Set((config.days?.length ? config.days : Weekdays).map((d) => Weekdays.indexOf(d as Weekday)));
  const dayText = config.days?.length ? config.days.join(', ') : 'every day';
  return { start, end, timezone, days, describe: `${dayText} ${config.start}-${config.end} ${timezone}` };
}

/** Whether the instant lies inside the window. */
export function inTimeWindow(window: CompiledTimeWindow, epochMs: number): boolean {
  const { day, minutes } = localTime(epochMs, window.timezone);
  if (window.start === window.end) return window.days.has(day);
  if (window.start < window.end) return window.days.has(day) && minutes >= window.start && minutes < window.end;
  // Crosses midnight: the evening part belongs to today, the morning part to yesterday's window.
  if (minutes >= window.start) return window.days.has(day);
  if (minutes < window.end) return window.days.has((day + 6) % 7);
  return false;
}

export function describeLocal(epochMs: number, timezone: string): string {
  const { day, minutes } = localTime(epochMs, timezone);
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${Weekdays[day]} ${hh}:${mm} ${timezone}`;
}
