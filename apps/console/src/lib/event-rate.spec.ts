import { axisMaximum, eventsPerMinute } from './event-rate';

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
    const withPeak = (total: number) => [{ start: 0, counts: { critical: 0, warning: 0, info: total }, total }];
    expect(axisMaximum([])).toBe(1);
    expect(axisMaximum(withPeak(0))).toBe(1);
    expect(axisMaximum(withPeak(3))).toBe(5);
    expect(axisMaximum(withPeak(17))).toBe(20);
    expect(axisMaximum(withPeak(100))).toBe(100);
    expect(axisMaximum(withPeak(101))).toBe(200);
    expect(axisMaximum(withPeak(600))).toBe(1000);
  });
});
