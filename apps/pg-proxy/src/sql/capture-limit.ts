import { createHash } from 'node:crypto';

/** Characters of statement text a record carries in full (docs/proxy.md#capture). */
export const CAPTURE_LIMIT = 262_144;
/** Of a longer text: its first and last characters. */
export const CAPTURE_HEAD = 196_608;
export const CAPTURE_TAIL = 32_768;

export interface CapturedQuery {
  /** The text, or for a longer one its head, a marker and its tail. */
  query: string;
  /** Only for a text over the limit. */
  capture?: { truncated: true; length: number; sha256: string; head_chars: number; tail_chars: number };
}

/**
 * The statement text as a record carries it. Over CAPTURE_LIMIT characters the record keeps the
 * head and the tail with a marker naming how much was left out, the total length and the SHA-256
 * (hex) of the whole text; the proxy judged the whole text before the cut.
 */
export function captureQuery(text: string): CapturedQuery {
  if (text.length <= CAPTURE_LIMIT) return { query: text };
  const omitted = text.length - CAPTURE_HEAD - CAPTURE_TAIL;
  return {
    query: `${text.slice(0, CAPTURE_HEAD)}\n/* vigil: ${omitted} characters omitted */\n${text.slice(-CAPTURE_TAIL)}`,
    capture: { truncated: true, length: text.length, sha256: createHash('sha256').update(text, 'utf8').digest('hex'), head_chars: CAPTURE_HEAD, tail_chars: CAPTURE_TAIL },
  };
}
