import { isTimeZone, isoToLocalInput, localInputToIso, localTime } from './time';

describe('times in the viewer\'s zone', () => {
  it('shows an instant in a given zone with the zone named', () => {
    expect(localTime('2026-11-25T16:18:50Z', 'Europe/Paris')).toBe('25/11/2026, 17:18:50 CET');
    expect(localTime('2026-07-01T00:00:00Z', 'America/New_York')).toBe('30/06/2026, 20:00:00 GMT-4');
    expect(localTime('not a time')).toBe('not a time');
  });
  it('reads datetime-local values in the local zone and writes them back', () => {
    const iso = localInputToIso('2026-03-04T05:06');
    expect(iso).toBe(new Date(2026, 2, 4, 5, 6).toISOString());
    expect(isoToLocalInput(iso!)).toBe('2026-03-04T05:06');
    expect(localInputToIso('2026-02-30T10:00')).toBeUndefined();
    expect(localInputToIso('yesterday')).toBeUndefined();
    expect(isoToLocalInput('nope')).toBe('');
  });
  it('knows IANA zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
