/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * JCS is defined on top of ECMAScript's own serialization: numbers are written as
 * `Number.prototype.toString` writes them (which `JSON.stringify` uses), strings as
 * `JSON.stringify` escapes them (only `"`, `\`, and U+0000..U+001F; `\b \t \n \f \r` short forms,
 * other controls as lowercase `\u00xx`; everything else as is), and object members sorted by
 * their names compared as arrays of UTF-16 code units (which is what `Array.prototype.sort` does
 * with no comparator). So the native serializer does the escaping and only the member order and
 * the refusals are ours.
 *
 * One deliberate extension: RFC 8785 refuses strings holding a lone UTF-16 surrogate (they have no
 * UTF-8 form). Audit records may hold them (a proxy captures what a client sent), so they are
 * written as `\udxxx` escapes with lowercase hex, as ES2019's well-formed `JSON.stringify` does.
 * The output is therefore always well-formed UTF-16, and its UTF-8 bytes are defined.
 *
 * Refused (TypeError): non-finite numbers, bigints, and `undefined`, functions or symbols at the
 * top level. As in `JSON.stringify`, object members whose value is `undefined` (or a function or
 * symbol) are left out, the same values inside arrays are written as `null`, and an object with a
 * `toJSON` method (a Date) is written as what that method returns.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
  return text;
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
      // `JSON.stringify(-0)` is "0", as RFC 8785 §3.2.2.3 wants.
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return writeArray(value);
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return write((value as { toJSON(): unknown }).toJSON());
      return writeObject(value as Record<string, unknown>);
    case 'bigint':
      throw new TypeError('canonicalJson: a bigint has no JSON form');
    default:
      return undefined;
  }
}

function writeArray(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(items[i]) ?? 'null';
  }
  return out + ']';
}

function writeObject(object: Record<string, unknown>): string {
  // Default sort order = UTF-16 code unit order (RFC 8785 §3.2.3).
  const keys = Object.keys(object).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = write(object[key]);
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(key) + ':' + member;
  }
  return out + '}';
}
