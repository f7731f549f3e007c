import { RE2JS } from 're2js';

/**
 * Secrets in captured SQL are replaced before a record leaves the proxy (docs/proxy.md#redaction).
 *
 * Built-in rules work on tokens, not on regular expressions: a small PostgreSQL lexer finds string
 * literals ('...' with doubled quotes, E'...' with backslash escapes, U&'...', $tag$...$tag$),
 * comments and quoted identifiers, so a quote inside a literal or a keyword inside a comment cannot
 * shift what is replaced. Redacted, with each literal replaced by REDACTED_LITERAL:
 * - the literal after the word PASSWORD (`ALTER ROLE r PASSWORD '...'`, `CREATE USER u ENCRYPTED
 *   PASSWORD '...'`, `OPTIONS (password '...')` of user mappings);
 * - the key / password arguments of pgcrypto functions (KEY_ARGUMENTS), whatever expression builds them.
 * Fail closed: when a secret literal never ends, or is a plain '...' literal holding a backslash
 * (an escape if the server runs with standard_conforming_strings off, so its end is uncertain),
 * everything from that literal to the end of the text is replaced by REDACTED_REST.
 *
 * Operators add RE2 patterns (PROXY_REDACT_PATTERNS); they run on the text after the built-in rules.
 */
export const REDACTED_LITERAL = "'***'";
export const REDACTED_REST = '***';

/** pgcrypto functions and the (1-based) arguments that hold a key or a password. */
const KEY_ARGUMENTS: Record<string, readonly number[]> = {
  pgp_sym_encrypt: [2],
  pgp_sym_encrypt_bytea: [2],
  pgp_sym_decrypt: [2],
  pgp_sym_decrypt_bytea: [2],
  pgp_pub_decrypt: [2, 3],
  pgp_pub_decrypt_bytea: [2, 3],
  encrypt: [2],
  decrypt: [2],
  encrypt_iv: [2, 3],
  decrypt_iv: [2, 3],
  hmac: [2],
  crypt: [1],
};

/** Texts that cannot hold anything a built-in rule redacts skip the lexer. */
const MAY_HOLD_SECRET = /password|crypt|hmac/i;

type Token =
  | { kind: 'word'; start: number; end: number; lower: string }
  | { kind: 'literal'; start: number; end: number; closed: boolean }
  | { kind: 'open' | 'close' | 'comma' | 'dot' | 'semicolon' | 'other'; start: number; end: number };

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** PostgreSQL tokens of `text` that matter here (whitespace and comments are dropped). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
    } else if (c === '-' && text[i + 1] === '-') {
      const eol = text.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      // Block comments nest in PostgreSQL.
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') { depth++; i += 2; }
        else if (text[i] === '*' && text[i + 1] === '/') { depth--; i += 2; }
        else i++;
      }
    } else if (c === "'" || ((c === 'E' || c === 'e') && text[i + 1] === "'") || ((c === 'U' || c === 'u') && text[i + 1] === '&' && text[i + 2] === "'")
      || ((c === 'B' || c === 'b' || c === 'X' || c === 'x' || c === 'N' || c === 'n') && text[i + 1] === "'")) {
      const start = i;
      const escapes = c === 'E' || c === 'e';
      i = text.indexOf("'", i) + 1;
      let closed = false;
      while (i < n) {
        const d = text[i]!;
        if (escapes && d === '\\') { i += 2; continue; }
        if (d === "'") {
          if (text[i + 1] === "'") { i += 2; continue; }
          i++;
          closed = true;
          break;
        }
        i++;
      }
      tokens.push({ kind: 'literal', start, end: Math.min(i, n), closed });
    } else if (c === '$') {
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(i, i + 130));
      if (tag) {
        const start = i;
        const close = text.indexOf(tag[0], i + tag[0].length);
        const closed = close !== -1;
        i = closed ? close + tag[0].length : n;
        tokens.push({ kind: 'literal', start, end: i, closed });
      } else {
        // $1 parameters and anything else starting with $.
        const start = i;
        i++;
        while (i < n && /[0-9]/.test(text[i]!)) i++;
        tokens.push({ kind: 'other', start, end: i });
      }
    } else if (c === '"') {
      // Quoted identifier, doubled quotes inside.
      const start = i;
      i++;
      while (i < n) {
        if (text[i] === '"') {
          if (text[i + 1] === '"') { i += 2; continue; }
          i++;
          break;
        }
        i++;
      }
      tokens.push({ kind: 'word', start, end: i, lower: text.slice(start + 1, i - 1).replace(/""/g, '"') });
    } else if (WORD_START.test(c)) {
      const start = i;
      while (i < n && WORD_PART.test(text[i]!)) i++;
      tokens.push({ kind: 'word', start, end: i, lower: text.slice(start, i).toLowerCase() });
    } else {
      const kind = c === '(' ? 'open' : c === ')' ? 'close' : c === ',' ? 'comma' : c === '.' ? 'dot' : c === ';' ? 'semicolon' : 'other';
      tokens.push({ kind, start: i, end: i + 1 });
      i++;
    }
  }
  return tokens;
}

/** Ranges [start, end) of `text` to replace, and with what. */
interface Replacement { start: number; end: number; by: string }

function builtInReplacements(text: string): Replacement[] {
  const tokens = tokenize(text);
  const out: Replacement[] = [];
  // Open parentheses: a call of a pgcrypto function with its current argument number, or a plain group.
  const stack: { secret: readonly number[] | undefined; arg: number }[] = [];
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    switch (token.kind) {
      case 'open': {
        const prev = tokens[t - 1];
        // A schema-qualified call (`public.crypt(`) counts too: the name is the word before `(`.
        const name = prev?.kind === 'word' ? prev.lower : undefined;
        stack.push({ secret: name !== undefined && Object.hasOwn(KEY_ARGUMENTS, name) ? KEY_ARGUMENTS[name] : undefined, arg: 1 });
        break;
      }
      case 'close':
        stack.pop();
        break;
      case 'comma': {
        const top = stack[stack.length - 1];
        if (top) top.arg++;
        break;
      }
      case 'semicolon':
        stack.length = 0;
        break;
      case 'literal': {
        const prev = tokens[t - 1];
        const afterPassword = prev?.kind === 'word' && prev.lower === 'password';
        const inKey = stack.some((frame) => frame.secret?.includes(frame.arg));
        // Unsure where the literal ends: it never closes, or it is a plain '...' literal holding a
        // backslash, which is an escape on a server with standard_conforming_strings off.
        const unsure = !token.closed || (text[token.start] === "'" && text.slice(token.start, token.end).includes('\\'));
        if (unsure && (afterPassword || inKey)) {
          out.push({ start: token.start, end: text.length, by: REDACTED_REST });
          return out;
        }
        if (afterPassword || inKey) out.push({ start: token.start, end: token.end, by: REDACTED_LITERAL });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function apply(text: string, replacements: Replacement[]): string {
  if (!replacements.length) return text;
  let out = '';
  let at = 0;
  for (const r of replacements) {
    if (r.start < at) continue;
    out += text.slice(at, r.start) + r.by;
    at = r.end;
  }
  return out + text.slice(at);
}

export class RedactionPatternError extends Error {}

const MAX_PATTERN_LENGTH = 1024;

/**
 * Compiles an operator's pattern (RE2 syntax, case-insensitive). What it matches is replaced by
 * REDACTED_REST; with capturing groups, only what each group matched is.
 */
export function compileRedactionPattern(source: string): RE2JS {
  if (!source) throw new RedactionPatternError('is empty');
  if (source.length > MAX_PATTERN_LENGTH) throw new RedactionPatternError(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new RedactionPatternError(`is not a valid RE2 regular expression: ${(error as Error).message}`);
  }
  if (regex.programSize() > 20_000) throw new RedactionPatternError('is too complex (RE2 program larger than 20000 instructions)');
  if (regex.matches('')) throw new RedactionPatternError('matches the empty text');
  return regex;
}

function patternReplacements(text: string, regex: RE2JS): Replacement[] {
  const out: Replacement[] = [];
  const m = regex.matcher(text);
  const groups = m.groupCount();
  while (m.find()) {
    if (groups === 0) {
      if (m.end() > m.start()) out.push({ start: m.start(), end: m.end(), by: REDACTED_REST });
      continue;
    }
    for (let g = 1; g <= groups; g++) {
      const start = m.start(g);
      const end = m.end(g);
      if (start >= 0 && end > start) out.push({ start, end, by: REDACTED_REST });
    }
  }
  return out;
}

export class Redactor {
  constructor(private readonly patterns: readonly RE2JS[] = []) {}

  /** `text` with its secrets replaced; the same string when there were none. */
  redact(text: string): string {
    let out = MAY_HOLD_SECRET.test(text) ? apply(text, builtInReplacements(text)) : text;
    for (const pattern of this.patterns) out = apply(out, patternReplacements(out, pattern));
    return out;
  }
}
