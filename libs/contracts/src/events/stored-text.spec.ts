import {
  escapeStoredText,
  escapeStoredValue,
  hasUnstorableText,
  isUnstorableText,
  restoreStoredEvent,
  restoreStoredText,
  restoreStoredValue,
} from './stored-text';

describe('stored form of audit text', () => {
  it.each([
    ['a\u0000b', 'a\\0b'],
    ['back\\slash', 'back\\\\slash'],
    ['\\0 is not NUL', '\\\\0 is not NUL'],
    ['lone \ud800 high', 'lone \\ud800 high'],
    ['lone \udfff low', 'lone \\udfff low'],
    ['pair \ud83d\ude00 kept', 'pair \ud83d\ude00 kept'],
    ['\u0000\u0000\\\u0000', '\\0\\0\\\\\\0'],
    ['', ''],
  ])('%j is stored as %j and restored exactly', (original, stored) => {
    expect(escapeStoredText(original)).toBe(stored);
    expect(restoreStoredText(stored)).toBe(original);
    expect(isUnstorableText(stored)).toBe(false);
  });

  it('restores every string it escaped, whatever it holds (seeded sample of awkward strings)', () => {
    const alphabet = ['\u0000', '\\', '0', 'u', 'd', '8', '\ud800', '\udc00', '\ud83d', '\ude00', 'a', 'é', '\n'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2000; n++) {
      let s = '';
      for (let i = next() % 12; i > 0; i--) s += alphabet[next() % alphabet.length];
      const stored = escapeStoredText(s);
      expect(isUnstorableText(stored)).toBe(false);
      expect(restoreStoredText(stored)).toBe(s);
    }
  });

  it('finds NUL and lone surrogates in keys and nested values, and nothing in ordinary text', () => {
    expect(hasUnstorableText({ user: 'alice', query: 'SELECT \'\\\\\'', nested: [{ a: 1 }] })).toBe(false);
    expect(hasUnstorableText({ nested: [{ deep: ['x', 'y\u0000'] }] })).toBe(true);
    expect(hasUnstorableText({ ['k\u0000ey']: 1 })).toBe(true);
    expect(hasUnstorableText({ a: '\ud800' })).toBe(true);
    expect(hasUnstorableText({ a: '\ud83d\ude00' })).toBe(false);
  });

  it('escapes and restores keys and nested values of details', () => {
    const details = { ['k\u0000']: { list: ['\u0000', 2, null, true, '\\'] }, query: 'SELECT 1\u0000' };
    const stored = escapeStoredValue(details);
    expect(stored).toEqual({ ['k\\0']: { list: ['\\0', 2, null, true, '\\\\'] }, query: 'SELECT 1\\0' });
    expect(hasUnstorableText(stored)).toBe(false);
    expect(restoreStoredValue(stored)).toEqual(details);
  });

  it('restores a flagged event once and leaves an unflagged one untouched', () => {
    const stored = { escaped: true, details: { query: 'a\\0\\\\' }, producer_id: 'p\\0' };
    const restored = restoreStoredEvent(stored);
    expect(restored).toEqual({ details: { query: 'a\u0000\\' }, producer_id: 'p\u0000' });
    expect(restoreStoredEvent(restored)).toEqual(restored);
    const plain = { details: { query: 'a\\0' }, producer_id: null };
    expect(restoreStoredEvent(plain)).toBe(plain);
  });
});
