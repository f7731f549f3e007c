import { auditRecordValidator } from './events/audit-record';
import { pointerToPath } from './validation';

describe('pointerToPath', () => {
  it.each([
    ['/events/3/type', '', 'events[3].type'],
    ['/type', 'events[0]', 'events[0].type'],
    ['/config/rules/0/pattern', '', 'config.rules[0].pattern'],
    ['', '', '$'],
    ['/a~1b', '', 'a/b'],
  ])('%s with prefix "%s" -> %s', (pointer, prefix, expected) => {
    expect(pointerToPath(pointer, prefix)).toBe(expected);
  });
});

describe('audit record validation', () => {
  const valid = { type: 'database.query', database_id: 'db_main', details: { user: 'alice', extra: 1 } };

  it('accepts a minimal record and keeps unknown detail keys', () => {
    expect(auditRecordValidator.validate(valid)).toEqual({ ok: true, value: valid });
  });

  it('names every offending field with its JSON path', () => {
    const result = auditRecordValidator.validate(
      { type: 'database.nope', database_id: 'main', timestamp: 'yesterday', surprise: true },
      'events[2]',
    );
    expect(result.ok).toBe(false);
    const fields = result.ok ? [] : result.errors.map((e) => e.field).sort();
    expect(fields).toEqual(['events[2].database_id', 'events[2].surprise', 'events[2].timestamp', 'events[2].type']);
  });

  it('refuses a severity outside the events catalog', () => {
    expect(auditRecordValidator.validate({ ...valid, severity: 'high' }).ok).toBe(false);
  });

  it('accepts ISO 8601 timestamps with offsets and refuses impossible dates', () => {
    expect(auditRecordValidator.validate({ ...valid, timestamp: '2026-01-02T03:04:05.123+02:00' }).ok).toBe(true);
    expect(auditRecordValidator.validate({ ...valid, timestamp: '2026-13-45T03:04:05Z' }).ok).toBe(false);
  });
});
