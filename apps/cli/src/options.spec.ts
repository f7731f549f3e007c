import { ExitCode } from './errors.ts';
import { collect, parsePositiveInt, parseTime } from './options.ts';

describe('option values', () => {
  const now = Date.parse('2026-11-25T12:00:00.000Z');

  it('reads times as ISO 8601 or as a duration back from now', () => {
    expect(parseTime('2026-01-31T00:00:00+01:00', '--start', now)).toBe('2026-01-30T23:00:00.000Z');
    expect(parseTime('15m', '--start', now)).toBe('2026-11-25T11:45:00.000Z');
    expect(parseTime('24h', '--start', now)).toBe('2026-11-24T12:00:00.000Z');
    expect(parseTime('2w', '--start', now)).toBe('2026-11-11T12:00:00.000Z');
  });

  it('refuses anything else as a usage error naming the option', () => {
    for (const bad of ['yesterday', '15', '1y', '31/01/2026']) {
      expect(() => parseTime(bad, '--from', now)).toThrow(expect.objectContaining({ exitCode: ExitCode.usage, message: expect.stringContaining('--from must be') }));
    }
    expect(() => parsePositiveInt('--limit', 1000)('0')).toThrow(expect.objectContaining({ exitCode: ExitCode.usage }));
    expect(() => parsePositiveInt('--limit', 1000)('1001')).toThrow('--limit must be a whole number from 1 to 1000');
    expect(parsePositiveInt('--limit', 1000)('1000')).toBe(1000);
  });

  it('collects repeated and comma-separated values', () => {
    expect(collect('b, c', collect('a'))).toEqual(['a', 'b', 'c']);
  });
});
