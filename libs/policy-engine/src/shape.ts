/**
 * Query shapes: texts that differ only in free-standing numbers (`aid = 5` and `aid = 12345`) share
 * a shape, and an evaluation can stand for every text of its shape when nothing that decides it can
 * see those numbers. This file holds the definitions and the proofs' building blocks; the engine
 * decides per policy and per text (`CompiledPolicy.shapeStable`, `PolicyEngine.evaluate`).
 *
 * A *free* digit run is a maximal run of ASCII digits that is not preceded by a *sticky* character:
 * an ASCII letter, digit, `_`, `$`, `"`, backquote, or any character above U+007F (a run at the
 * start of the text is free). Two texts have the same shape when they are equal after every free
 * run is replaced by one `0`: they differ only in the free runs, each replaced by another non-empty
 * run of digits. Digits inside identifiers (`secret_1`, `t2`, `"a1"`, `$1`) are never free.
 *
 * What stays the same across the texts of one shape (T and T' below), and why:
 *
 * 1. *Digit-safe literals.* A literal (lowercase ASCII) in which every digit is preceded, within the
 *    literal, by a non-digit sticky character with only digits in between, occurs in T exactly when
 *    it occurs in T': an occurrence cannot contain a digit of a free run (that run would start right
 *    after a sticky character of the occurrence), so it lies in the text between free runs, which T
 *    and T' share. Prefilters compare against the folded text (`foldForPrefilter`): folding keeps
 *    digits and ASCII punctuation as they are and maps each other character on its own (the one
 *    context rule, Greek final sigma, looks only at cased and case-ignorable characters, and digits
 *    are neither), so the folded texts differ in the same free runs, still preceded by the same
 *    non-sticky ASCII characters. A literal without digits is digit-safe; so a text that lacks the
 *    longest digit-free part of any literal (`= ` of `= 12`) lacks the literal, as every text of
 *    its shape does.
 * 2. *Digit-blind patterns* (`digitBlind`): a regular expression none of whose atoms can match an
 *    ASCII digit and that has no `\B`. A match in T consumes no digit, so it lies between free runs
 *    (or touches none), and its zero-width assertions see the same neighbours in T': `\b` only asks
 *    whether a neighbour is a word character, and a digit stays a digit; `^` and `$` only see line
 *    and text ends. The one zero-width assertion that holds strictly inside a run of digits is `\B`
 *    (between two digits), and a run of 2 may become a run of 1: `\B` is refused. So the pattern
 *    matches T exactly when it matches T'. Its prefilter literals hold no digit (1 applies).
 * 3. *Identifiers* of the query as data_protection reads them (`EventView.queryIdentifiers`: quotes
 *    removed, then `[a-z_][a-z0-9_$]*` with dotted parts): a free run is preceded by a character
 *    that is neither a quote nor an identifier character, so no identifier starts in it, runs
 *    through it or ends next to it; T and T' have the same identifiers. (This is why quotes are
 *    sticky: `a"1"` reads as the identifier `a1`.)
 */

/** The shape of a query text: every free digit run replaced by `0` (see the file comment). */
export function queryShape(text: string): string {
  return FREE_DIGITS.test(text) ? text.replace(FREE_DIGITS_GLOBAL, '0') : text;
}

const FREE_DIGITS = /(?<![A-Za-z0-9_$"`\u0080-\uffff])[0-9]/;
const FREE_DIGITS_GLOBAL = /(?<![A-Za-z0-9_$"`\u0080-\uffff])[0-9]+/g;

/** Characters before which a digit run is not free (ASCII part; everything above U+007F is sticky too). */
function isSticky(c: string): boolean {
  return /^[A-Za-z0-9_$"`]$/.test(c) || c.charCodeAt(0) > 0x7f;
}

/** Whether a lowercase literal occurs in all texts of a shape or in none (1 of the file comment). */
export function isDigitSafeLiteral(literal: string): boolean {
  for (let i = 0; i < literal.length; i++) {
    if (!isDigit(literal[i]!)) continue;
    let j = i - 1;
    while (j >= 0 && isDigit(literal[j]!)) j--;
    if (j < 0 || !isSticky(literal[j]!)) return false;
  }
  return true;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** Escapes (after `\`) whose atom cannot match a digit: `\s \D \W`, control escapes, zero-width `\b \A \z`. */
const BLIND_ESCAPES = new Set(['s', 'D', 'W', 'n', 't', 'r', 'f', 'v', 'a', 'b', 'A', 'z']);
/** POSIX classes without digits. */
const BLIND_POSIX = new Set(['alpha', 'lower', 'upper', 'space', 'blank', 'punct', 'cntrl']);
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/**
 * Whether no atom of an RE2 pattern can match an ASCII digit and it has no `\B` (2 of the file
 * comment). Conservative: whatever the scan does not fully understand answers false, which only
 * costs sharing. Refused: digits as literals, `.`, `\d \w \S`, `\p \P`, `\x`, octal and `\Q`
 * escapes, `\B`, `\C`, negated classes, classes holding a digit, a range over digits, a POSIX
 * class other than those of BLIND_POSIX, or an escape other than those of BLIND_ESCAPES or
 * punctuation; group syntax other than `(?:`, `(?flags)`, `(?flags:`, `(?P<name>` and `(?<name>`.
 */
export function digitBlind(source: string): boolean {
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const e = source[i + 1];
      if (e === undefined) return false;
      if (!BLIND_ESCAPES.has(e) && !PUNCTUATION.test(e)) return false;
      i += 2;
    } else if (c === '[') {
      const end = blindClassEnd(source, i);
      if (end < 0) return false;
      i = end;
    } else if (c === '(') {
      if (source[i + 1] === '?') {
        const rest = source.slice(i);
        const m = /^\(\?(?::|[imsU-]+\)|[imsU-]+:|P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(rest);
        if (!m) return false;
        i += m[0].length;
      } else i++;
    } else if (c === '{') {
      // A repetition {n}, {n,}, {n,m}: its digits count, they match nothing. Otherwise a literal `{`.
      const m = /^\{\d+(,\d*)?\}/.exec(source.slice(i));
      i += m ? m[0].length : 1;
    } else if (c === '.' || isDigit(c)) {
      return false;
    } else {
      i++;
    }
  }
  return true;
}

/** The index after a class starting at `from` when it cannot match a digit; -1 otherwise. */
function blindClassEnd(source: string, from: number): number {
  let j = from + 1;
  if (source[j] === '^') return -1;
  let first = true;
  while (j < source.length) {
    const c = source[j]!;
    if (c === ']' && !first) return j + 1;
    first = false;
    if (c === '[' && source[j + 1] === ':') {
      const close = source.indexOf(':]', j + 2);
      if (close < 0 || !BLIND_POSIX.has(source.slice(j + 2, close))) return -1;
      j = close + 2;
      continue;
    }
    let lo: string;
    if (c === '\\') {
      const e = source[j + 1];
      if (e === undefined) return -1;
      if (PUNCTUATION.test(e)) lo = e;
      else if (e === 's' || e === 'D' || e === 'W' || e === 'n' || e === 't' || e === 'r' || e === 'f' || e === 'v') {
        j += 2;
        continue;
      } else return -1;
      j += 2;
    } else {
      lo = c;
      j++;
    }
    if (source[j] === '-' && source[j + 1] !== undefined && source[j + 1] !== ']') {
      const hi = source[j + 1]!;
      if (hi === '\\' || hi === '[') return -1;
      if (lo <= '9' && hi >= '0') return -1;
      j += 2;
    } else if (isDigit(lo)) return -1;
  }
  return -1;
}
