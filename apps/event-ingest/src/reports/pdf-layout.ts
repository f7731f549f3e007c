/**
 * Pure helpers of the PDF rendering (report-pdf.ts): text the standard PDF fonts can show, column
 * widths, and where long tables break across pages. No pdfkit here, so each is unit-tested alone.
 */

/**
 * The characters of Windows-1252 (WinAnsiEncoding) above Latin-1's ASCII range that are not in
 * Latin-1 itself: the only ones besides printable ASCII and U+00A0..U+00FF that the 14 standard
 * PDF fonts can show.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Letters and signs with no decomposition to Latin letters, written the way a reader expects. */
const TRANSLITERATION: Record<string, string> = {
  ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H', ı: 'i', ŀ: 'l', Ŀ: 'L', ŧ: 't', Ŧ: 'T', ſ: 's', ŉ: "'n",
  ĸ: 'k', ŋ: 'ng', Ŋ: 'NG', ȷ: 'j', ə: 'e', Ə: 'E',
  '‐': '-', '‑': '-', '‒': '-', '―': '-', '−': '-', '⁃': '-',
  '′': "'", '″': '"', '‛': "'", '‟': '"', '‹': '<', '›': '>',
  '≤': '<=', '≥': '>=', '≠': '!=', '→': '->', '←': '<-', '↔': '<->', '⇒': '=>', '∞': 'inf', '✓': 'v', '✔': 'v', '✗': 'x', '✘': 'x',
};

/** Zero-width and format characters that show nothing: dropped. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/u;

function showable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);
}

/**
 * Text the standard PDF fonts (WinAnsiEncoding, i.e. Windows-1252) can show, so user names,
 * queries and titles in any script never break rendering:
 * - Windows-1252 characters stay as they are (é, ß, €, curly quotes, dashes);
 * - other letters lose their accents or take their compatibility form (ő → o, ǆ → dz, ｆｕｌｌ → full,
 *   ﬁ → fi), or a common Latin spelling (ł → l, ≤ → <=, non-breaking hyphen → -);
 * - line breaks stay (`\n`; `\r\n` and `\r` become `\n`), tabs and other spaces become a space,
 *   zero-width characters are dropped;
 * - everything else (other scripts, emoji, control characters, unpaired surrogates) becomes `?`,
 *   one per character, so a reader sees that something is there: the JSON download holds the text.
 */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n')) {
    if (char === '\n' || showable(char)) out += char;
    else if (char === '\t' || /^\p{Zs}$/u.test(char)) out += ' ';
    else if (INVISIBLE.test(char)) continue;
    else if (TRANSLITERATION[char] !== undefined) out += TRANSLITERATION[char];
    else out += decompose(char);
  }
  return out;
}

/** A letter's compatibility decomposition without its combining marks, if that leaves showable text. */
function decompose(char: string): string {
  const plain = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (plain && plain !== char && [...plain].every((c) => showable(c) || TRANSLITERATION[c] !== undefined)) {
    return [...plain].map((c) => TRANSLITERATION[c] ?? c).join('');
  }
  return '?';
}

/** Cuts text longer than `max` characters, saying so: a PDF cell is a reading aid, the JSON is the record. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${(text.length - max).toLocaleString('en-US')} more characters in the JSON download]`;
}

/**
 * Column widths that fill `available` points. Columns whose natural width (widest cell) fits their
 * fair share keep it; the others share what is left equally (max-min fairness: a column of short
 * numbers never gets squeezed for a long query, and a long query cannot take the whole page). Space
 * left over when everything fits is spread in proportion to the natural widths.
 */
export function columnWidths(natural: number[], available: number): number[] {
  const widths = new Array<number>(natural.length).fill(0);
  if (!natural.length) return widths;
  let open = natural.map((_, i) => i);
  let remaining = available;
  while (open.length) {
    const share = remaining / open.length;
    const fitting = open.filter((i) => (natural[i] ?? 0) <= share);
    if (!fitting.length) {
      for (const i of open) widths[i] = share;
      return widths;
    }
    for (const i of fitting) {
      widths[i] = natural[i] ?? 0;
      remaining -= widths[i];
    }
    open = open.filter((i) => (natural[i] ?? 0) > share);
  }
  const total = widths.reduce((a, b) => a + b, 0);
  return total > 0 ? widths.map((w) => w + (remaining * w) / total) : widths.map(() => available / natural.length);
}

export interface TablePage {
  /** Start a new page before this part (not even the header and the first row fit where the table begins). */
  newPage: boolean;
  /** Indexes of the rows on this page, in order; each page repeats the header above them. */
  rows: number[];
}

/**
 * Where a table breaks across pages: rows go on the current page while they fit under the header,
 * and every page the table reaches repeats its header. `firstSpace` is the height left on the page
 * where the table starts, `pageSpace` the height of an empty page's body. A row must not be taller
 * than `pageSpace - headerHeight` (the renderer caps cells to that); one that is gets a page of its own.
 */
export function paginateTable(rowHeights: number[], headerHeight: number, firstSpace: number, pageSpace: number): TablePage[] {
  const pages: TablePage[] = [];
  const firstFits = headerHeight + (rowHeights[0] ?? 0) <= firstSpace;
  let current: TablePage = { newPage: !firstFits, rows: [] };
  let left = (firstFits ? firstSpace : pageSpace) - headerHeight;
  rowHeights.forEach((height, i) => {
    if (height > left && current.rows.length) {
      pages.push(current);
      current = { newPage: true, rows: [] };
      left = pageSpace - headerHeight;
    }
    current.rows.push(i);
    left -= height;
  });
  pages.push(current);
  return pages;
}
