import { clip, columnWidths, paginateTable, toWinAnsi } from './pdf-layout';

describe('toWinAnsi: text the standard PDF fonts can show', () => {
  it('keeps ASCII, Latin-1 and the Windows-1252 extras as they are', () => {
    const text = 'SELECT * FROM "Größe" WHERE café = \'€5 – “quoted” … œ Ÿ\'';
    expect(toWinAnsi(text)).toBe(text);
  });

  it('drops accents and takes compatibility forms of letters outside Windows-1252', () => {
    expect(toWinAnsi('Łukasz Dvořák Ősz ǆ ﬁle ｆｕｌｌ')).toBe('Lukasz Dvorák Osz dz file full');
  });

  it('writes common signs the Latin way', () => {
    expect(toWinAnsi('a ≤ b ≥ c ≠ d → e ‐ f')).toBe('a <= b >= c != d -> e - f');
  });

  it('shows one "?" per character it cannot write: other scripts, emoji, controls, unpaired surrogates', () => {
    expect(toWinAnsi('日本語')).toBe('???');
    expect(toWinAnsi('user 😀!')).toBe('user ?!');
    expect(toWinAnsi('a\u0000b\u007fc\u0085d')).toBe('a?b?c?d');
    expect(toWinAnsi('x\uD800y')).toBe('x?y');
    expect(toWinAnsi('\u202Eevil')).toBe('?evil');
  });

  it('keeps line breaks, turns tabs and other spaces into a space, drops zero-width characters', () => {
    expect(toWinAnsi('a\r\nb\rc\nd\te\u2003f\u200Bg\uFEFF')).toBe('a\nb\nc\nd e fg');
  });
});

describe('clip', () => {
  it('leaves short text alone and says how much of long text it cut', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('a'.repeat(1500), 100)).toBe(`${'a'.repeat(100)}… [1,400 more characters in the JSON download]`);
  });
});

describe('columnWidths', () => {
  it('spreads spare room in proportion to the natural widths when everything fits', () => {
    expect(columnWidths([100, 300], 800)).toEqual([200, 600]);
  });

  it('keeps narrow columns at their natural width and shares the rest among the wide ones', () => {
    const widths = columnWidths([50, 60, 900, 700], 600);
    expect(widths.slice(0, 2)).toEqual([50, 60]);
    expect(widths[2]).toBeCloseTo(245);
    expect(widths[3]).toBeCloseTo(245);
    expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(600);
  });

  it('gives every column an equal share when all are wider than it', () => {
    expect(columnWidths([500, 400, 300], 300)).toEqual([100, 100, 100]);
  });

  it('handles a table without columns', () => {
    expect(columnWidths([], 500)).toEqual([]);
  });
});

describe('paginateTable', () => {
  it('keeps a table that fits on the current page', () => {
    expect(paginateTable([10, 10, 10], 12, 100, 500)).toEqual([{ newPage: false, rows: [0, 1, 2] }]);
  });

  it('breaks where the next row no longer fits, and each further page starts anew (header repeated)', () => {
    // 100 left: header 20, rows 30 + 30 fit (80), the third would need 110.
    expect(paginateTable([30, 30, 30, 30, 30, 30], 20, 100, 90)).toEqual([
      { newPage: false, rows: [0, 1] },
      { newPage: true, rows: [2, 3] },
      { newPage: true, rows: [4, 5] },
    ]);
  });

  it('starts on a new page when not even the header and the first row fit where the table begins', () => {
    expect(paginateTable([30, 30], 20, 40, 500)).toEqual([{ newPage: true, rows: [0, 1] }]);
  });

  it('gives a row taller than a page a page of its own instead of looping', () => {
    expect(paginateTable([10, 1000, 10], 20, 100, 100)).toEqual([
      { newPage: false, rows: [0] },
      { newPage: true, rows: [1] },
      { newPage: true, rows: [2] },
    ]);
  });

  it('an empty table is one header on the current page', () => {
    expect(paginateTable([], 20, 100, 500)).toEqual([{ newPage: false, rows: [] }]);
  });
});
