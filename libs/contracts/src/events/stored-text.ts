/**
 * PostgreSQL `text` and `jsonb` cannot hold U+0000, and `jsonb` refuses a lone UTF-16 surrogate
 * (`\ud800` without its pair; `text` would silently turn it into U+FFFD). An audit record must be
 * stored whatever its strings hold, so a record that carries either is stored in an escaped form
 * and the event is flagged `escaped: true` (docs/events.md#records-with-nul-characters):
 *
 * | original                          | stored                          |
 * |-----------------------------------|---------------------------------|
 * | `\` (backslash, U+005C)           | `\\`                            |
 * | U+0000                            | `\0`                            |
 * | a lone surrogate U+D800..U+DFFF   | `\u` + 4 lowercase hex digits   |
 *
 * applied to every string of the record that is stored: each key and each string value of
 * `details`, at any depth, and the producer `id`. Records without such characters are stored
 * verbatim and unflagged, so the escape never touches ordinary text. Because the backslash itself
 * is escaped, the mapping is reversible: `restoreStoredText` reads the stored form left to right,
 * `\\` -> `\`, `\0` -> U+0000, `\uXXXX` -> that code unit.
 */

/** U+0000, or a surrogate that is not part of a pair. (Matching U+0000 is the point here.) */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex
const TO_ESCAPE = /\\|\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPED = /\\(\\|0|u[0-9a-f]{4})/g;

/** True when PostgreSQL cannot store the string as it is. */
export function isUnstorableText(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** True when any string in the value (object keys included, at any depth) cannot be stored as it is. */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorableText(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) if (isUnstorableText(key) || hasUnstorableText(inner)) return true;
  }
  return false;
}

/** The stored form of one string (see the table above). */
export function escapeStoredText(value: string): string {
  return value.replace(TO_ESCAPE, (c) => (c === '\\' ? '\\\\' : c === '\u0000' ? '\\0' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** The original of one stored string: the exact inverse of `escapeStoredText`. */
export function restoreStoredText(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(ESCAPED, (_, e: string) => (e === '\\' ? '\\' : e === '0' ? '\u0000' : String.fromCharCode(parseInt(e.slice(1), 16))));
}

function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [map(k), mapStrings(v, map)]));
  }
  return value;
}

/** Every string of a JSON value in its stored form, object keys included. */
export function escapeStoredValue<T>(value: T): T {
  return mapStrings(value, escapeStoredText) as T;
}

/** Every string of a stored JSON value restored, object keys included. */
export function restoreStoredValue<T>(value: T): T {
  return mapStrings(value, restoreStoredText) as T;
}

/**
 * An event as read from storage, restored to the record its producer sent when it was stored
 * escaped; the flag is dropped, so restoring twice changes nothing. Events that were not escaped
 * are returned as they are.
 */
export function restoreStoredEvent<T extends { escaped?: boolean; details: Record<string, unknown>; producer_id?: string | null }>(event: T): T {
  if (!event.escaped) return event;
  const { escaped: _escaped, ...rest } = event;
  const restored = { ...rest, details: restoreStoredValue(event.details) } as T;
  if (typeof event.producer_id === 'string') (restored as { producer_id?: string | null }).producer_id = restoreStoredText(event.producer_id);
  return restored;
}
