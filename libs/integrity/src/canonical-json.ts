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
  // Fast path: give the native serializer a view of the value whose objects list their members in
  // JCS order (the value itself when it already does, else sorted copies of the objects that do
  // not). Its output is then the canonical form. Objects it cannot order that way (integer-like
  // member names, which every object lists first in numeric order; a member named __proto__) take
  // the member-by-member writer below.
  const outer = fallback; // (a toJSON method may itself call canonicalJson)
  fallback = false;
  const view = canonicalView(value);
  const text = fallback ? write(value) : JSON.stringify(view);
  fallback = outer;
  if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
  return text;
}

/** canonicalViewOf's answer for a value only the member-by-member writer can encode. */
export const NOT_ORDERABLE: unique symbol = Symbol('not orderable');

/**
 * A value JSON.stringify writes in canonical form (see canonicalJson), or NOT_ORDERABLE. For
 * callers that embed a value in an object of their own whose members are already in JCS order
 * (an event leaf) and serialize the whole in one call. Throws as canonicalJson does.
 */
export function canonicalViewOf(value: unknown): unknown {
  const outer = fallback;
  fallback = false;
  const view = canonicalView(value);
  const result = fallback ? NOT_ORDERABLE : view;
  fallback = outer;
  return result;
}

let fallback = false;
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function canonicalView(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
    if (typeof value === 'bigint') throw new TypeError('canonicalJson: a bigint has no JSON form');
    return value;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const view = canonicalView(item);
      if (view !== item) (copy ??= value.slice())[i] = view;
    }
    return copy ?? value;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalView((value as { toJSON(): unknown }).toJSON());
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let sorted = true;
  let changed: Map<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i - 1] > keys[i]) sorted = false;
    const member = object[keys[i]];
    const view = canonicalView(member);
    if (view !== member) (changed ??= new Map()).set(keys[i], view);
  }
  if (sorted && !changed) return object;
  const order = sortedOrder(keys);
  if (!order) {
    fallback = true;
    return object;
  }
  const copy: Record<string, unknown> = {};
  for (const key of order) copy[key] = changed?.has(key) ? changed.get(key) : object[key];
  return copy;
}

/**
 * Member names in JCS order, remembered for the last few distinct name lists seen (events of one
 * kind share theirs, so sorting happens once per kind, not once per event). Null when an object
 * with these names cannot list them in that order (see canonicalJson).
 */
interface Shape {
  keys: string[];
  sorted: string[] | null;
}
const SHAPES_KEPT = 32;
const shapes: Shape[] = [];
let nextShape = 0;

function sortedOrder(keys: string[]): string[] | null {
  for (const shape of shapes) {
    const known = shape.keys;
    if (known.length !== keys.length || known[0] !== keys[0]) continue;
    let same = true;
    for (let i = 1; i < keys.length && same; i++) same = known[i] === keys[i];
    if (same) return shape.sorted;
  }
  const sorted = keys.slice().sort();
  const shape: Shape = { keys, sorted: sorted.some((k) => k === '__proto__' || ARRAY_INDEX.test(k)) ? null : sorted };
  shapes[nextShape] = shape;
  nextShape = (nextShape + 1) % SHAPES_KEPT;
  return shape.sorted;
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
      // `String(-0)` is "0", as RFC 8785 §3.2.2.3 wants.
      return String(value);
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
