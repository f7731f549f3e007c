import { isTimeZone, nextSlot, scheduleErrors } from './schedule-time';

describe('report schedule times', () => {
  it('reads the cron expression as wall-clock time in the zone, across daylight saving', () => {
    // 06:00 in Berlin is 05:00 UTC in winter and 04:00 UTC in summer.
    expect(nextSlot('0 6 * * *', 'Europe/Berlin', new Date('2025-01-10T12:00:00Z'))?.toISOString()).toBe('2025-01-11T05:00:00.000Z');
    expect(nextSlot('0 6 * * *', 'Europe/Berlin', new Date('2025-07-10T12:00:00Z'))?.toISOString()).toBe('2025-07-11T04:00:00.000Z');
    expect(nextSlot('0 6 * * *', 'America/New_York', new Date('2025-07-10T12:00:00Z'))?.toISOString()).toBe('2025-07-11T10:00:00.000Z');
  });

  it('gives the slot strictly after the given time', () => {
    expect(nextSlot('*/15 * * * *', 'UTC', new Date('2025-01-01T00:15:00Z'))?.toISOString()).toBe('2025-01-01T00:30:00.000Z');
    expect(nextSlot('0 0 1 * *', 'UTC', new Date('2025-01-31T23:59:00Z'))?.toISOString()).toBe('2025-02-01T00:00:00.000Z');
  });

  it('refuses bad expressions and unknown zones with field paths', () => {
    expect(scheduleErrors('0 6 * * *', 'Europe/Berlin')).toEqual([]);
    expect(scheduleErrors('0 6 * *', 'UTC').map((e) => e.field)).toEqual(['cron']);
    expect(scheduleErrors('0 25 * * *', 'UTC').map((e) => e.field)).toEqual(['cron']);
    expect(scheduleErrors('* * * * * *', 'UTC').map((e) => e.field)).toEqual(['cron']);
    expect(scheduleErrors('0 6 * * *', 'Mars/Olympus').map((e) => e.field)).toEqual(['timezone']);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('EST5EDT-nope')).toBe(false);
  });
});
