import { RE2JS } from 're2js';
import { digitBlind, isDigitSafeLiteral } from './shape';

/**
 * Query patterns run on RE2 semantics (re2js): matching time is linear in the input, whatever the
 * pattern, so a hostile pattern cannot stall the pipeline. What RE2 cannot run (backreferences,
 * lookaround) is refused when the policy is saved, never discovered at evaluation.
 *
 * RE2 in JavaScript costs microseconds per test, so each pattern carries a prefilter: the ASCII
 * literals every match must contain (`DROP\s+TABLE` needs "drop" and "table"). A query that lacks
 * one of them cannot match and the regular expression is not run. The extraction is conservative:
 * whatever it does not fully understand yields no literal, which only costs speed.
 */
export interface CompiledPattern {
  source: string;
  /**
   * Alternatives of lowercase literals: every match contains all literals of at least one
   * alternative (one per top-level `|` branch). Empty: no prefilter, the pattern always runs.
   */
  literals: string[][];
  regex: RE2JS;
  /** `literals` as shared prefilter literals, so an event tests each distinct literal once. */
  prefilter: SharedLiteral[][];
  /** Per-event memo of the query test (see `EventView.queryMatches`): the event's stamp and answer. */
  stamp: number;
  hit: boolean;
  /** No atom can match a digit and no `\B` (shape.ts `digitBlind`): every text of a shape gets one answer. */
  digitBlind: boolean;
}

/**
 * A prefilter literal shared by every pattern that needs it: whether an event's folded query
 * contains it is computed once per event (`stamp` is the event's) however many rules ask.
 */
export interface SharedLiteral {
  readonly text: string;
  /**
   * The literal's first GATE_LENGTH characters, for longer literals: rule templates often differ
   * only in a suffix (`benchmark1(`, `benchmark2(`, ...), and one absent gate answers for all.
   */
  readonly gate: SharedLiteral | undefined;
  /**
   * A part of the literal present in every text of a shape or in none (shape.ts
   * `isDigitSafeLiteral`): the literal itself when digit-safe, else its longest run without
   * digits (`= ` of `= 12`); undefined if it is all digits. A text that lacks it lacks the literal,
   * and so does every text of its shape.
   */
  readonly shapeSafe: SharedLiteral | undefined;
  stamp: number;
  present: boolean;
}

const GATE_LENGTH = 4;

// Patterns and literals recur across the policies of a database (the same rule template in many
// policies); interning them lets an event test each distinct one once. Literals are small: their
// table is bounded and starts again past the limit, which only costs sharing, never correctness.
// Compiled patterns can be large, so the table holds them weakly: they live as long as a policy
// uses them.
const LITERAL_LIMIT = 10_000;
const internedLiterals = new Map<string, SharedLiteral>();
const internedPatterns = new Map<string, WeakRef<CompiledPattern>>();
const forgetPattern = new FinalizationRegistry<string>((key) => {
  if (internedPatterns.get(key)?.deref() === undefined) internedPatterns.delete(key);
});

export function sharedLiteral(text: string): SharedLiteral {
  let literal = internedLiterals.get(text);
  if (!literal) {
    if (internedLiterals.size >= LITERAL_LIMIT) internedLiterals.clear();
    const gate = text.length > GATE_LENGTH ? sharedLiteral(text.slice(0, GATE_LENGTH)) : undefined;
    literal = { text, gate, shapeSafe: undefined, stamp: -1, present: false };
    if (isDigitSafeLiteral(text)) (literal as { shapeSafe: SharedLiteral }).shapeSafe = literal;
    else {
      const part = longestDigitFree(text);
      if (part) (literal as { shapeSafe: SharedLiteral }).shapeSafe = sharedLiteral(part);
    }
    internedLiterals.set(text, literal);
  }
  return literal;
}

function longestDigitFree(text: string): string {
  let best = '';
  for (const part of text.split(/[0-9]+/)) if (part.length > best.length) best = part;
  return best;
}

export class PatternError extends Error {}

export const MAX_PATTERN_LENGTH = 4096;

export function compilePattern(source: string, caseSensitive = false): CompiledPattern {
  const key = `${caseSensitive ? 's' : 'i'}${source}`;
  const interned = internedPatterns.get(key)?.deref();
  if (interned) return interned;
  if (source.length > MAX_PATTERN_LENGTH) throw new PatternError(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new PatternError(`is not a valid RE2 regular expression: ${(error as Error).message}`);
  }
  // A huge program (e.g. a{1000}{1000}) is linear but slow; refuse it at save time.
  if (regex.programSize() > 20_000) throw new PatternError('is too complex (RE2 program larger than 20000 instructions)');
  const literals = prefilterOf(source);
  const pattern: CompiledPattern = {
    source,
    literals,
    regex,
    prefilter: literals.map((all) => all.map(sharedLiteral)),
    stamp: -1,
    hit: false,
    digitBlind: digitBlind(source),
  };
  internedPatterns.set(key, new WeakRef(pattern));
  forgetPattern.register(pattern, key);
  return pattern;
}

/**
 * The query in the form prefilters compare against: ASCII-lowercased, with the two non-ASCII
 * characters that RE2's case folding maps onto ASCII letters (ſ -> s, K (Kelvin) -> k) folded too.
 */
export function foldForPrefilter(text: string): string {
  let lower = text.toLowerCase();
  if (/[\u017f\u212a]/.test(lower)) lower = lower.replace(/\u017f/g, 's').replace(/\u212a/g, 'k');
  return lower;
}

/** Runs the pattern; `folded` is `foldForPrefilter(text)`, computed once per event. */
export function patternMatches(pattern: CompiledPattern, text: string, folded: string): boolean {
  if (pattern.literals.length && !pattern.literals.some((all) => all.every((literal) => folded.includes(literal)))) return false;
  return pattern.regex.test(text);
}

/** The top-level `|` branches of a pattern (outside groups and classes), or undefined if unsure. */
function topLevelBranches(source: string): string[] | undefined {
  const branches: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      if (source[i + 1] === 'Q') return undefined;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      branches.push(source.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0 || inClass) return undefined;
  branches.push(source.slice(start));
  return branches;
}

/**
 * Literal sets per top-level branch; if any branch requires no literal, there is no prefilter.
 * A leading inline flag group (e.g. `(?i)`) applies to every branch and is harmless here.
 */
export function prefilterOf(source: string): string[][] {
  const branches = topLevelBranches(source);
  if (!branches) return [];
  const sets = branches.map((b) => requiredLiterals(b));
  return sets.some((set) => set.length === 0) ? [] : sets;
}

const ESCAPED_LITERAL = /[!-/:-@[-`{-~]/; // ASCII punctuation: `\.` is a literal dot
const SPECIAL = new Set(['.', '^', '$', '|', '(', ')', '[', ']', '{', '}', '*', '+', '?', '\\']);

/** Literals required by every match, taken from the top-level concatenation only. */
export function requiredLiterals(source: string): string[] {
  const runs: string[] = [];
  let run = '';
  const flush = () => {
    if (run.length >= 2) runs.push(run.toLowerCase());
    run = '';
  };
  let i = 0;
  // Index just after a group or class starting at `from` (which holds '(' or '['); -1 if unbalanced.
  const skipClass = (from: number): number => {
    let j = from + 1;
    if (source[j] === '^') j++;
    if (source[j] === ']') j++;
    while (j < source.length && source[j] !== ']') {
      if (source[j] === '\\') j++;
      else if (source[j] === '[' && source[j + 1] === ':') {
        const close = source.indexOf(':]', j + 2);
        if (close === -1) return -1;
        j = close + 1;
      }
      j++;
    }
    return j < source.length ? j + 1 : -1;
  };
  const skipGroup = (from: number): number => {
    let depth = 0;
    let j = from;
    while (j < source.length) {
      const c = source[j];
      if (c === '\\') j += 2;
      else if (c === '[') {
        j = skipClass(j);
        if (j === -1) return -1;
      } else {
        if (c === '(') depth++;
        else if (c === ')' && --depth === 0) return j + 1;
        j++;
      }
    }
    return -1;
  };
  while (i < source.length) {
    const c = source[i]!;
    let atom: string | undefined; // a literal character, if this atom is one
    let next: number;
    if (c === '|') return []; // top-level alternation: no literal is required by every branch
    if (c === '\\') {
      const e = source[i + 1];
      if (e === undefined || e === 'Q') return [];
      atom = ESCAPED_LITERAL.test(e) ? e : undefined;
      next = i + 2;
      if (e === 'p' || e === 'P') {
        if (source[next] === '{') {
          const close = source.indexOf('}', next);
          if (close === -1) return [];
          next = close + 1;
        } else next++;
      } else if (e === 'x') {
        return []; // hex escapes are rare in SQL patterns; not worth parsing
      }
    } else if (c === '(') {
      next = skipGroup(i);
      if (next === -1) return [];
      // An inline flag group such as (?i) changes nothing we rely on: we compare case-folded.
      if (/^\(\?[imsU-]*\)$/.test(source.slice(i, next))) {
        i = next;
        continue;
      }
    } else if (c === '[') {
      next = skipClass(i);
      if (next === -1) return [];
    } else {
      atom = SPECIAL.has(c) || c.charCodeAt(0) > 0x7e || c.charCodeAt(0) < 0x20 ? undefined : c;
      next = i + 1;
    }
    // A quantifier after the atom decides whether it is required.
    const q = source[next];
    let optional = false;
    let repeated = false;
    if (q === '*' || q === '?') optional = true;
    else if (q === '+') repeated = true;
    else if (q === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(source.slice(next));
      if (m) {
        optional = Number(m[1]) === 0;
        repeated = true;
        next += m[0].length - 1;
      }
    }
    if (optional || repeated) {
      next++;
      if (source[next] === '?' || source[next] === '+') next++; // lazy / possessive marker
    }
    if (atom === undefined || optional) {
      flush();
    } else {
      run += atom;
      if (repeated) flush();
    }
    i = next;
  }
  flush();
  return runs;
}
