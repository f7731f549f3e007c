import { canonicalJson } from './canonical-json';

// Examples of RFC 8785 (JSON Canonicalization Scheme).
describe('canonicalJson (RFC 8785)', () => {
  it('writes the example of §3.2.2: whitespace removed, numbers and strings in their canonical form', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts members by UTF-16 code units (§3.2.3), not by code points or UTF-8', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One",' +
        ' "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    const out = canonicalJson(input);
    const values = Object.values(JSON.parse(out) as Record<string, string>);
    // JSON.parse keeps insertion order for these keys (none is an array index except "1", first anyway).
    expect(values).toEqual([
      'One',
      'Carriage Return',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
    // The written order (JSON.parse above reorders the integer-like key "1", so read the text).
    const order = [...out.matchAll(/"([^"]+)":"/g)].map((m) => m[1]);
    expect(order).toEqual(['\\r', '1', '\u0080', 'ö', '€', '😀', '\ufb33']);
    // U+1F600 (surrogates D83D DE00) sorts before U+FB33 in UTF-16 although its code point is larger.
    expect(out.indexOf('😀')).toBeLessThan(out.indexOf('\ufb33'));
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('writes the IEEE 754 number %s as %s (Appendix B)', (bits, expected) => {
    const value = Buffer.from(bits, 'hex').readDoubleBE(0);
    expect(canonicalJson(value)).toBe(expected);
    expect(canonicalJson([value])).toBe(`[${expected}]`);
  });

  it.each([['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]])('refuses %s (Appendix B)', (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
    expect(() => canonicalJson({ a: value })).toThrow(TypeError);
  });

  it('escapes only quote, backslash and controls, with the short forms and lowercase hex', () => {
    expect(canonicalJson('\b\t\n\f\r\u0000\u001f"\\/\u007f\u2028é')).toBe('"\\b\\t\\n\\f\\r\\u0000\\u001f\\"\\\\/\u007f\u2028é"');
  });

  it('writes lone surrogates as lowercase \\udxxx escapes instead of refusing them', () => {
    expect(canonicalJson({ q: 'a\ud800b', r: '\udfff', ok: '😀' })).toBe('{"ok":"😀","q":"a\\ud800b","r":"\\udfff"}');
    expect(canonicalJson({ '\udabc': 1 })).toBe('{"\\udabc":1}');
  });

  it('sorts nested objects, keeps array order, leaves out undefined members as JSON does', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: [] }, undefined], a: { y: null, x: undefined }, c: new Date(0) })).toBe(
      '{"a":{"y":null},"b":[3,{"a":[],"z":1},null],"c":"1970-01-01T00:00:00.000Z"}',
    );
  });

  it('refuses what has no JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });

  it('agrees with a member-by-member reference on objects of many shapes, integer-like names and __proto__ included', () => {
    // Reference: sort names by UTF-16 code units, write each member; strings and numbers as ES writes them.
    const reference = (v: unknown): string => {
      if (v === null || typeof v !== 'object') return JSON.stringify(v);
      if (Array.isArray(v)) return `[${v.map(reference).join(',')}]`;
      const keys = Object.keys(v).sort((a, b) => {
        for (let i = 0; i < Math.min(a.length, b.length); i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
        return a.length - b.length;
      });
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`).join(',')}}`;
    };
    let seed = 7;
    const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const names = ['a', 'b', 'z', 'A', '10', '9', '0', '__proto__', 'é', '\ud83d\ude00', 'query', 'rows', ''];
    const value = (depth: number): unknown => {
      switch (random(depth > 2 ? 4 : 6)) {
        case 0: return random(1000) / 7;
        case 1: return ['x', 'a\u0000b', '\ud800', 'ü'][random(4)];
        case 2: return [null, true, false][random(3)];
        case 3: return -random(5);
        case 4: return Array.from({ length: random(4) }, () => value(depth + 1));
        default: {
          // JSON.parse, so that a member named __proto__ is an own member as in parsed input.
          const members = Array.from({ length: random(6) }, () => `${JSON.stringify(names[random(names.length)])}:${JSON.stringify(value(depth + 1)) ?? 'null'}`);
          return JSON.parse(`{${members.join(',')}}`);
        }
      }
    };
    for (let i = 0; i < 3000; i++) {
      const v = value(0);
      expect(canonicalJson(v)).toBe(reference(v));
    }
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":2},"a":3}'))).toBe('{"__proto__":{"x":2},"a":3,"b":1}');
    expect(canonicalJson({ b: 1, 10: 2, 9: 3, a: { d: 1, c: 2 } })).toBe('{"10":2,"9":3,"a":{"c":2,"d":1},"b":1}');
  });
});

