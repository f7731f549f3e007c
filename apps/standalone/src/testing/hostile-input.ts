/**
 * Hostile requests derived from the OpenAPI document, for the fuzz suite (hostile-input.int-spec.ts):
 * a small seeded generator, a valid-looking sample of every request body schema, and the cases
 * each operation gets. Pure: no HTTP here.
 */

type Json = Record<string, any>;

/** mulberry32: a small deterministic generator, so a failing case can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface HostileOperation {
  method: string;
  template: string;
  operation: Json;
}

export interface HostileCase {
  /** What the case does, for the failure report. */
  label: string;
  path: string;
  /** Raw query string (without `?`), already encoded as sent. */
  query?: string;
  body?: string | Uint8Array;
  contentType?: string;
  auth?: 'admin' | 'none' | 'garbage';
}

/** Every operation of the document (methods a client can call). */
export function operationsOf(document: Json): HostileOperation[] {
  const out: HostileOperation[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) out.push({ method: method.toUpperCase(), template, operation });
    }
  }
  return out;
}

function resolve(document: Json, schema: Json | undefined, seen = 0): Json {
  if (!schema || seen > 20) return {};
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolve(document, document.components?.schemas?.[name], seen + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Json = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf) {
      const r = resolve(document, part, seen + 1);
      Object.assign(merged.properties, r.properties ?? {});
      merged.required.push(...(r.required ?? []));
    }
    return merged;
  }
  return schema;
}

/** A plausible value for a schema: what a careful client would send (the mutations start from it). */
export function sampleOf(document: Json, schema: Json | undefined, depth = 0): unknown {
  const s = resolve(document, schema);
  if (depth > 6) return null;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (s.example !== undefined) return s.example;
  const variants = s.oneOf ?? s.anyOf;
  if (Array.isArray(variants) && variants.length) return sampleOf(document, variants[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return new Date(Date.UTC(2026, 0, 2, 3, 4, 5)).toISOString();
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/hook';
      if (s.format === 'email') return 'fuzz@example.com';
      return 'x'.repeat(Math.max(1, Math.min(s.minLength ?? 1, 64)));
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [sampleOf(document, s.items, depth + 1)];
    case 'object':
    default: {
      if (!s.properties) return type === 'object' || !type ? {} : null;
      const out: Json = {};
      for (const [name, prop] of Object.entries<Json>(s.properties)) out[name] = sampleOf(document, prop, depth + 1);
      return out;
    }
  }
}

/** JSON paths of the values inside a sample, shallow ones first (bounded). */
export function pathsOf(value: unknown, limit = 40): (string | number)[][] {
  const out: (string | number)[][] = [];
  const queue: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (queue.length && out.length < limit) {
    const { value: v, path } = queue.shift()!;
    if (path.length) out.push(path);
    if (Array.isArray(v)) v.forEach((item, i) => queue.push({ value: item, path: [...path, i] }));
    else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) queue.push({ value: item, path: [...path, k] });
  }
  return out;
}

function setAt(root: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(root) as Json;
  let cursor: Json = copy;
  for (const key of path.slice(0, -1)) cursor = cursor[key as string];
  cursor[path[path.length - 1] as string] = replacement;
  return copy;
}

function deeplyNested(depth: number, asArray: boolean): string {
  return asArray ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Values that break naive code: wrong types, NUL, lone surrogates, sizes past any limit. */
const HOSTILE_VALUES: { label: string; value: unknown }[] = [
  { label: 'NUL string', value: 'a\u0000b' },
  { label: 'lone surrogate', value: 'a\ud800b' },
  { label: 'huge string', value: 'x'.repeat(200_000) },
  { label: 'number', value: 1e308 },
  { label: 'negative number', value: -1 },
  { label: 'float', value: 1.5 },
  { label: 'string of digits', value: '12' },
  { label: 'boolean', value: false },
  { label: 'null', value: null },
  { label: 'empty array', value: [] },
  { label: 'array of NUL', value: ['\u0000'] },
  { label: 'object', value: { nested: { deeper: '\u0000' } } },
  { label: 'array of objects', value: [{}, { a: 1 }] },
  { label: 'empty string', value: '' },
  { label: 'nested 200 deep', value: JSON.parse(deeplyNested(200, false)) },
  { label: 'key with NUL', value: { ['k\u0000']: 'v' } },
  { label: 'prototype keys', value: JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}') },
];

/** Path segments a router or a query builder may mishandle (already percent-encoded). */
const HOSTILE_SEGMENTS: { label: string; value: string }[] = [
  { label: 'NUL', value: '%00' },
  { label: 'NUL inside an id', value: 'pol_%00x' },
  { label: 'invalid UTF-8', value: '%FF%FE' },
  { label: 'encoded lone surrogate (CESU-8)', value: '%ED%A0%80' },
  { label: 'overlong encoding', value: '%C0%AF' },
  { label: 'bad percent escape', value: '%zz' },
  { label: 'huge segment', value: 'a'.repeat(8_000) },
  { label: 'dot dot', value: '..' },
  { label: 'encoded slash', value: 'a%2Fb' },
  { label: 'unknown id', value: 'nope_0000000000' },
  { label: 'number', value: '-1' },
  { label: 'SQL', value: "x'%20OR%201=1--" },
  { label: 'LIKE wildcards', value: '%25_%25' },
  { label: 'spaces', value: '%20%20' },
];

const HOSTILE_QUERY_VALUES: { label: string; value: string }[] = [
  { label: 'NUL', value: '%00' },
  { label: 'invalid UTF-8', value: '%FF' },
  { label: 'encoded lone surrogate', value: '%ED%B0%80' },
  { label: 'huge', value: 'q'.repeat(8_000) },
  { label: 'negative', value: '-1' },
  { label: 'too large a number', value: '1e309' },
  { label: 'not a number', value: 'NaN' },
  { label: 'empty', value: '' },
  { label: 'bad date', value: '2026-13-45T99:99:99Z' },
  { label: 'LIKE wildcards', value: '%25%5C_' },
  { label: 'bad percent escape', value: '%zz' },
];

function fillPath(template: string, value: (name: string) => string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));
}

/**
 * `n` entries of the list in a seeded order, its first `keep` entries always among them (NUL and
 * lone surrogates come first: the cases this suite exists for).
 */
function pick<T>(random: () => number, list: T[], n: number, keep: number | boolean = 0): T[] {
  const kept = Math.min(Number(keep), n, list.length);
  const copy = list.slice(kept);
  const out: T[] = list.slice(0, kept);
  while (copy.length && out.length < n) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]!);
  return out;
}

/**
 * The cases of one operation: hostile path segments, query values and bodies (whole-body shapes,
 * raw bytes, and one hostile value at a time in place of a field of a valid-looking body), plus
 * requests without or with a garbage credential. At most about `budget` cases, chosen by `random`.
 */
export function casesFor(
  document: Json,
  op: HostileOperation,
  random: () => number,
  options: { budget?: number; idFor?: (template: string, param: string) => string | undefined } = {},
): HostileCase[] {
  const budget = options.budget ?? 48;
  const cases: HostileCase[] = [];
  const params: Json[] = (op.operation.parameters ?? []).map((p: Json) => resolveParameter(document, p));
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name as string);
  const queryParams = params.filter((p) => p.in === 'query');
  // Path parameters name a real resource where the suite could create one, so hostile bodies and
  // queries reach past the "not found" check.
  const plainValue = (name: string) => options.idFor?.(op.template, name) ?? 'fuzz_0000000001';
  const plainPath = fillPath(op.template, plainValue);
  const validQuery = queryParams
    .filter((p) => p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(sampleOf(document, p.schema) ?? 'x'))}`)
    .join('&');

  for (const name of pathParams) {
    for (const seg of pick(random, HOSTILE_SEGMENTS, 6, true)) {
      cases.push({ label: `path ${name} = ${seg.label}`, path: fillPath(op.template, (n) => (n === name ? seg.value : plainValue(n))), query: validQuery });
    }
  }
  for (const p of pick(random, queryParams, 6)) {
    for (const v of pick(random, HOSTILE_QUERY_VALUES, 3, true)) {
      const others = validQuery.split('&').filter((kv) => kv && !kv.startsWith(`${encodeURIComponent(p.name)}=`));
      cases.push({ label: `query ${p.name} = ${v.label}`, path: plainPath, query: [...others, `${encodeURIComponent(p.name)}=${v.value}`].join('&') });
    }
    cases.push({ label: `query ${p.name} repeated`, path: plainPath, query: [validQuery, `${p.name}=a&${p.name}=b`].filter(Boolean).join('&') });
  }
  if (queryParams.length) cases.push({ label: 'query: unknown parameter with NUL', path: plainPath, query: [validQuery, 'unknown_param%00=%00'].filter(Boolean).join('&') });

  const requestBody = op.operation.requestBody?.content as Json | undefined;
  const takesBody = op.method !== 'GET' && op.method !== 'DELETE';
  if (takesBody) {
    const jsonSchema = requestBody?.['application/json']?.schema ?? requestBody?.['application/x-www-form-urlencoded']?.schema;
    const formOnly = !requestBody?.['application/json'] && Boolean(requestBody?.['application/x-www-form-urlencoded']);
    const sample = jsonSchema ? sampleOf(document, jsonSchema) : {};
    const json = (body: string, label: string) => cases.push({ label: `body ${label}`, path: plainPath, query: validQuery, body, contentType: 'application/json' });
    json('{"a":', 'malformed JSON');
    json('', 'empty');
    json('[]', 'array instead of an object');
    json('null', 'null');
    json('"text"', 'a string');
    json('1e999', 'a huge number');
    json(deeplyNested(5_000, false), 'objects nested 5000 deep');
    json(deeplyNested(5_000, true), 'arrays nested 5000 deep');
    json('{"x":"\\u0000","\\u0000":1}', 'NUL escape in value and key');
    json('{"x":"\\ud800"}', 'lone surrogate escape');
    json(`[${JSON.stringify(sample)}]`, 'the sample inside an array');
    cases.push({ label: 'body invalid UTF-8 bytes', path: plainPath, query: validQuery, body: invalidUtf8Body(sample), contentType: 'application/json' });
    cases.push({ label: 'body text/plain', path: plainPath, query: validQuery, body: JSON.stringify(sample), contentType: 'text/plain' });
    cases.push({ label: 'body form-encoded with NUL', path: plainPath, query: validQuery, body: 'a=%00&b=%FF&c[d]=1', contentType: 'application/x-www-form-urlencoded' });
    if (formOnly && sample && typeof sample === 'object') {
      const form = Object.entries(sample as Json).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
      for (const [i, kv] of form.entries()) {
        const key = kv.split('=')[0];
        cases.push({ label: `form ${key} = NUL`, path: plainPath, query: validQuery, body: form.map((x, j) => (j === i ? `${key}=%00` : x)).join('&'), contentType: 'application/x-www-form-urlencoded' });
      }
    }
    if (sample !== null && typeof sample === 'object') {
      const paths = pathsOf(sample);
      const room = Math.max(8, budget - cases.length - 3);
      const perPath = Math.max(1, Math.floor(room / Math.max(1, paths.length)));
      let added = 0;
      for (const path of paths) {
        const atPath = path.reduce<unknown>((v, k) => (v as Json)[k as string], sample);
        for (const hostile of pick(random, HOSTILE_VALUES, Math.max(perPath, typeof atPath === 'string' ? 2 : 1), typeof atPath === 'string' ? 2 : 0)) {
          if (added >= room) break;
          json(JSON.stringify(setAt(sample, path, hostile.value)), `${path.join('.')} = ${hostile.label}`);
          added++;
        }
      }
      // Every top-level field once as null: `@IsOptional()` lets null through to code expecting a value.
      if (!Array.isArray(sample)) for (const key of Object.keys(sample as Json)) json(JSON.stringify({ ...(sample as Json), [key]: null }), `${key} = null (always)`);
      json(JSON.stringify({ ...(sample as Json), unknown_field: '\u0000' }), 'an unknown field holding NUL');
    }
  }

  cases.push({ label: 'no credential', path: plainPath, query: validQuery, auth: 'none' });
  cases.push({ label: 'garbage credential', path: plainPath, query: validQuery, auth: 'garbage' });
  if (pathParams.length) cases.push({ label: 'no credential, NUL in the path', path: fillPath(op.template, () => '%00'), auth: 'none' });
  return cases;
}

function resolveParameter(document: Json, p: Json): Json {
  if (typeof p.$ref === 'string') return document.components?.parameters?.[p.$ref.replace('#/components/parameters/', '')] ?? {};
  return p;
}

/** The sample as JSON with bytes that are not UTF-8 inside its first string (or a bare object). */
function invalidUtf8Body(sample: unknown): Uint8Array {
  const text = JSON.stringify(sample ?? {});
  const at = text.indexOf('":"');
  const bytes = Buffer.from(text, 'utf8');
  if (at < 0) return new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]);
  const cut = Buffer.byteLength(text.slice(0, at + 3), 'utf8');
  return new Uint8Array(Buffer.concat([bytes.subarray(0, cut), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]), bytes.subarray(cut)]));
}
