import { decodeBind, decodeDataRow, decodeFields, decodeParse, decodeStartup, encodeDataRow, encodeStartup, errorResponse, joinMessages, MessageReader, MessageWriter, parse, PROTOCOL_V3, rowsOfTag } from './messages';

describe('PostgreSQL message framing', () => {
  it('cuts a stream split at arbitrary places into whole messages', () => {
    const stream = Buffer.concat([parse('s1', 'SELECT $1', [23]), new MessageWriter().finish('S'), parse('', 'SELECT 2')]);
    for (let cut = 1; cut < stream.length; cut += 3) {
      const reader = new MessageReader();
      const seen: string[] = [];
      for (const part of [stream.subarray(0, cut), stream.subarray(cut)]) {
        reader.push(part);
        let m;
        while ((m = reader.next())) seen.push(m.type === 'P' ? `P:${decodeParse(m.body).text}` : m.type);
      }
      expect(seen).toEqual(['P:SELECT $1', 'S', 'P:SELECT 2']);
    }
  });

  it('reads messages pushed one byte at a time, and whole messages followed by a partial one', () => {
    const stream = Buffer.concat([parse('s1', 'SELECT $1', [23]), new MessageWriter().finish('S'), parse('', 'SELECT 2')]);
    const reader = new MessageReader();
    const seen: string[] = [];
    for (let i = 0; i < stream.length; i++) {
      reader.push(stream.subarray(i, i + 1));
      let m;
      while ((m = reader.next())) seen.push(m.type === 'P' ? `P:${decodeParse(m.body).text}` : m.type);
    }
    expect(seen).toEqual(['P:SELECT $1', 'S', 'P:SELECT 2']);
    expect(reader.pending).toBe(0);

    const split = stream.length - 3;
    reader.push(stream.subarray(0, split));
    expect([reader.next()?.type, reader.next()?.type, reader.next()]).toEqual(['P', 'S', undefined]);
    reader.push(stream.subarray(split));
    expect(decodeParse(reader.next()!.body).text).toBe('SELECT 2');
    expect(reader.pending).toBe(0);
  });

  it('joins messages relayed untouched into one view of their chunk, and copies when one was replaced', () => {
    const chunk = Buffer.concat([parse('', 'SELECT 1'), new MessageWriter().finish('S'), parse('', 'SELECT 2')]);
    const reader = new MessageReader();
    reader.push(chunk);
    const raws: Buffer[] = [];
    let m;
    while ((m = reader.next())) raws.push(m.raw);
    const joined = joinMessages(raws);
    expect(joined.equals(chunk)).toBe(true);
    expect(joined.buffer).toBe(chunk.buffer);
    expect(joined.byteOffset).toBe(chunk.byteOffset);

    const replaced = errorResponse({ code: '42501', message: 'blocked' });
    const mixed = joinMessages([raws[0]!, replaced, raws[2]!]);
    expect(mixed.equals(Buffer.concat([raws[0]!, replaced, raws[2]!]))).toBe(true);
    // Out of order views of the same chunk are not contiguous either.
    expect(joinMessages([raws[2]!, raws[0]!]).equals(Buffer.concat([raws[2]!, raws[0]!]))).toBe(true);
  });

  it('reads startup packets and their parameters', () => {
    const reader = new MessageReader();
    reader.push(encodeStartup({ user: 'ada', database: 'shop', application_name: 'psql' }));
    const decoded = decodeStartup(reader.nextStartup()!);
    expect(decoded).toEqual({ code: PROTOCOL_V3, startup: { protocol: PROTOCOL_V3, params: { user: 'ada', database: 'shop', application_name: 'psql' } } });
  });

  it('refuses absurd lengths', () => {
    const reader = new MessageReader();
    reader.push(Buffer.from([0x51, 0, 0, 0, 1]));
    expect(() => reader.next()).toThrow(/invalid message length/);
  });

  it('decodes Bind with NULL and text parameters', () => {
    const body = new MessageWriter().cstring('p').cstring('s').int16(0).int16(2).int32(-1).int32(2).bytes(Buffer.from('hi')).int16(1).int16(0).finish('B').subarray(5);
    expect(decodeBind(body)).toEqual({ portal: 'p', statement: 's', paramFormats: [], params: [null, Buffer.from('hi')], resultFormats: [0] });
  });

  it('round-trips DataRow values, NULL included', () => {
    const values = [Buffer.from('a'), null, Buffer.from('')];
    expect(decodeDataRow(encodeDataRow(values).subarray(5))).toEqual(values);
  });

  it('builds an ErrorResponse clients read back', () => {
    const raw = errorResponse({ code: '42501', message: 'no', detail: 'policy x' });
    expect(raw[0]).toBe(0x45);
    expect(decodeFields(raw.subarray(5))).toEqual({ S: 'ERROR', V: 'ERROR', C: '42501', M: 'no', D: 'policy x' });
  });

  it.each([
    ['SELECT 3', 3],
    ['INSERT 0 2', 2],
    ['UPDATE 5', 5],
    ['COPY 10', 10],
    ['CREATE TABLE', null],
  ])('reads rows from the tag %s', (tag, rows) => expect(rowsOfTag(tag)).toBe(rows));
});
