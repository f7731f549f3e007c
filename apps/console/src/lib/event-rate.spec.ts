import { axisMaximum, eventRateSeries, eventsPerMinute, perMinute, rateRequest } from './event-rate';

const NOW = Date.parse('2026-11-25T10:30:25.000Z');

describe('events per minute by severity', () => {
  it('has every minute of the window, oldest first, ending with the current minute, zero where nothing happened', () => {
    const series = eventsPerMinute([], NOW);
    expect(series).toHaveLength(60);
    expect(new Date(series[0]!.start).toISOString()).toBe('2026-11-25T09:31:00.000Z');
    expect(new Date(series[59]!.start).toISOString()).toBe('2026-11-25T10:30:00.000Z');
    expect(series.every((m) => m.total === 0 && m.counts.critical === 0 && m.counts.warning === 0 && m.counts.info === 0)).toBe(true);
  });

  it('puts each group in its minute and severity and sums the total', () => {
    const series = eventsPerMinute(
      [
        { key: { severity: 'critical' }, bucket: '2026-11-25T10:30:00.000Z', count: 2 },
        { key: { severity: 'info' }, bucket: '2026-11-25T10:30:00.000Z', count: 5 },
        { key: { severity: 'warning' }, bucket: '2026-11-25T09:31:00.000Z', count: 1 },
      ],
      NOW,
    );
    expect(series[59]).toMatchObject({ counts: { critical: 2, warning: 0, info: 5 }, total: 7 });
    expect(series[0]).toMatchObject({ counts: { critical: 0, warning: 1, info: 0 }, total: 1 });
  });

  it('ignores groups outside the window, without a bucket or of an unknown severity', () => {
    const series = eventsPerMinute(
      [
        { key: { severity: 'critical' }, bucket: '2026-11-25T09:30:00.000Z', count: 9 },
        { key: { severity: 'critical' }, bucket: '2026-11-25T10:31:00.000Z', count: 9 },
        { key: { severity: 'critical' }, count: 9 },
        { key: { severity: 'fatal' }, bucket: '2026-11-25T10:00:00.000Z', count: 9 },
      ],
      NOW,
    );
    expect(series.reduce((sum, m) => sum + m.total, 0)).toBe(0);
  });

  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    const withPeak = (total: number) => [{ start: 0, counts: { critical: 0, warning: 0, info: total }, total, minutes: 1 }];
    expect(axisMaximum([])).toBe(1);
    expect(axisMaximum(withPeak(0))).toBe(1);
    expect(axisMaximum(withPeak(3))).toBe(5);
    expect(axisMaximum(withPeak(17))).toBe(20);
    expect(axisMaximum(withPeak(100))).toBe(100);
    expect(axisMaximum(withPeak(101))).toBe(200);
    expect(axisMaximum(withPeak(600))).toBe(1000);
  });

  it('asks for the hour by minute and the day by hour, from the start of the first bucket', () => {
    expect(rateRequest('hour', NOW)).toEqual({
      metrics: ['count'],
      filters: { time_range: { start: '2026-11-25T09:31:00.000Z' } },
      group_by: ['severity', 'minute'],
      limit: 1000,
    });
    expect(rateRequest('day', NOW)).toMatchObject({ filters: { time_range: { start: '2026-11-24T11:00:00.000Z' } }, group_by: ['severity', 'hour'] });
  });

  it('has the 24 hours of the day, each an average per minute over the part of it that has passed', () => {
    const series = eventRateSeries(
      [
        { key: { severity: 'warning' }, bucket: '2026-11-24T11:00:00.000Z', count: 120 },
        { key: { severity: 'critical' }, bucket: '2026-11-25T10:00:00.000Z', count: 61 },
        { key: { severity: 'info' }, bucket: '2026-11-24T10:00:00.000Z', count: 9 },
      ],
      NOW,
      'day',
    );
    expect(series).toHaveLength(24);
    expect(new Date(series[0]!.start).toISOString()).toBe('2026-11-24T11:00:00.000Z');
    expect(series[0]).toMatchObject({ counts: { critical: 0, warning: 120, info: 0 }, total: 120, minutes: 60 });
    expect(perMinute(series[0]!)).toBe(2);
    // The current hour has run for 30 min 25 s: 61 events are 2 per minute, not 61/60.
    expect(series[23]).toMatchObject({ counts: { critical: 61, warning: 0, info: 0 }, total: 61 });
    expect(perMinute(series[23]!)).toBeCloseTo(61 / (30 + 25 / 60), 10);
    expect(series.reduce((sum, h) => sum + h.total, 0)).toBe(181);
    expect(axisMaximum(series)).toBe(5);
  });
});
