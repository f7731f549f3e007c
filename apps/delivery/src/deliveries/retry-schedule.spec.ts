import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../config/delivery.config';
import { RetrySchedule } from './retry-schedule';

describe('RetrySchedule', () => {
  it('defaults to 7 attempts at 0 s, 1 min, 5 min, 30 min, 2 h, 8 h, 24 h', () => {
    const schedule = new RetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 0);
    expect(schedule.attempts).toBe(7);
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => schedule.delayMs(i))).toEqual([0, 60_000, 300_000, 1_800_000, 7_200_000, 28_800_000, 86_400_000]);
    expect(schedule.delayMs(7)).toBeNull();
  });

  it('jitters each delay within the configured percentage, never below zero', () => {
    const schedule = new RetrySchedule([0, 60], 10);
    expect(schedule.delayMs(1, () => 0)).toBe(54_000);
    expect(schedule.delayMs(1, () => 1)).toBe(66_000);
    expect(schedule.delayMs(1, () => 0.5)).toBe(60_000);
    expect(schedule.delayMs(0, () => 0)).toBe(0);
  });

  it('takes an override such as WEBHOOK_RETRY_SCHEDULE=0,1,1 and refuses nonsense', () => {
    expect(new RetrySchedule(['0', '1', '1']).attempts).toBe(3);
    expect(() => new RetrySchedule([])).toThrow();
    expect(() => new RetrySchedule(['-1'])).toThrow();
    expect(() => new RetrySchedule(['1.5'])).toThrow();
  });
});
