import { serviceLogReport } from './service-logs';

const line = (time: string, level: string, msg: string, extra: Record<string, unknown> = {}) => JSON.stringify({ level, time, service: 'gateway', msg, ...extra });

describe('serviceLogReport (what a failed fault scenario shows of the services)', () => {
  const since = Date.parse('2026-01-01T00:01:00.000Z');
  const output = [
    line('2026-01-01T00:00:30.000Z', 'error', 'before the scenario'),
    line('2026-01-01T00:01:10.000Z', 'info', 'request', { correlation_id: 'c-500', status: 500 }),
    line('2026-01-01T00:01:10.000Z', 'error', 'request failed', { correlation_id: 'c-500', error_id: 'e1' }),
    'TypeError: something not logged as JSON',
    '    at a stack line',
    line('2026-01-01T00:01:11.000Z', 'warn', 'outbox: publish failed'),
    line('2026-01-01T00:01:12.000Z', 'info', 'quiet'),
    line('2026-01-01T00:01:13.000Z', 'info', 'the last line'),
  ].join('\n');
  const report = serviceLogReport([{ name: 'gateway#0', output }], {
    since,
    failedHttp: [{ at: since + 10_000, status: 500, correlationId: 'c-500', body: '{"code":"internal_error","error_id":"e1"}' }],
  });

  it('lists the failed HTTP attempts with their correlation ids and answers', () => {
    expect(report).toContain('500 correlation c-500: {"code":"internal_error","error_id":"e1"}');
  });

  it('shows warnings, errors and non-log lines since the scenario began, not before, nor info lines', () => {
    const notable = report.split('--- gateway#0: lines of the failed HTTP attempts ---')[0]!;
    expect(notable).toContain('request failed');
    expect(notable).toContain('outbox: publish failed');
    expect(notable).toContain('TypeError: something not logged as JSON');
    expect(notable).toContain('    at a stack line');
    expect(notable).not.toContain('before the scenario');
    expect(notable).not.toContain('"msg":"quiet"');
  });

  it("shows every line of a failed attempt's correlation id, whatever its level", () => {
    const ofFailed = report.split('--- gateway#0: lines of the failed HTTP attempts ---')[1]!.split('--- gateway#0: last')[0]!;
    expect(ofFailed).toContain('"msg":"request"');
    expect(ofFailed).toContain('"msg":"request failed"');
  });

  it("ends with each process's last lines", () => {
    expect(report.split('--- gateway#0: last 8 lines ---')[1]).toContain('the last line');
  });

  it('shows the first and the last of many notable lines', () => {
    const many = Array.from({ length: 200 }, (_, i) => line('2026-01-01T00:02:00.000Z', 'warn', `warning ${i}`)).join('\n');
    const shown = serviceLogReport([{ name: 'event-ingest#0', output: many }], { since });
    expect(shown).toContain('"warning 0"');
    expect(shown).toContain('"warning 199"');
    expect(shown).toContain('[... 140 more ...]');
  });
});
