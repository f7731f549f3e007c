/**
 * PostgreSQL v3 wire protocol framing (https://www.postgresql.org/docs/current/protocol-message-formats.html).
 * Only what the proxy must read or write is decoded; every other message is relayed as its bytes.
 */

export const PROTOCOL_V3 = 196608;
export const SSL_REQUEST = 80877103;
export const GSSENC_REQUEST = 80877104;
export const CANCEL_REQUEST = 80877102;

/** One framed message: its type byte, its body (without type and length) and its full bytes. */
export interface Message {
  type: string;
  body: Buffer;
  raw: Buffer;
}

/**
 * Accumulates socket chunks and cuts them into messages. `startup` mode reads the untyped first
 * packets of a connection (length, then code); afterwards every message has a type byte.
 */
export class MessageReader {
  /** Bytes being read, from `offset`; later chunks wait in `chunks` until a message spans them. */
  private head: Buffer = EMPTY;
  private offset = 0;
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): void {
    if (this.buffered === 0) {
      this.head = chunk;
      this.offset = 0;
    } else this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  get pending(): number {
    return this.buffered;
  }

  /** Makes the first `n` buffered bytes readable from `head` at `offset` (copies only when they span chunks). */
  private ensure(n: number): void {
    if (this.head.length - this.offset >= n || !this.chunks.length) return;
    this.head = Buffer.concat([this.head.subarray(this.offset), ...this.chunks], this.buffered);
    this.offset = 0;
    this.chunks = [];
  }

  private consume(n: number): Buffer {
    this.ensure(n);
    const out = this.head.subarray(this.offset, this.offset + n);
    this.offset += n;
    this.buffered -= n;
    if (this.offset === this.head.length && this.chunks.length) {
      this.head = this.chunks.shift()!;
      this.offset = 0;
    } else if (!this.buffered) {
      this.head = EMPTY;
      this.offset = 0;
    }
    return out;
  }

  /** The next untyped startup packet (length-prefixed), or undefined until it is complete. */
  nextStartup(maxLength = 10_000): Buffer | undefined {
    if (this.buffered < 4) return undefined;
    this.ensure(4);
    const length = this.head.readInt32BE(this.offset);
    if (length < 8 || length > maxLength) throw new ProtocolError(`invalid startup packet length ${length}`);
    if (this.buffered < length) return undefined;
    return this.consume(length);
  }

  /** The next typed message, or undefined until it is complete. */
  next(maxLength = 1 << 30): Message | undefined {
    if (this.buffered < 5) return undefined;
    this.ensure(5);
    const length = this.head.readInt32BE(this.offset + 1);
    if (length < 4 || length > maxLength) throw new ProtocolError(`invalid message length ${length}`);
    if (this.buffered < length + 1) return undefined;
    const raw = this.consume(length + 1);
    return { type: String.fromCharCode(raw[0]!), body: raw.subarray(5), raw };
  }

  /** Everything buffered, e.g. bytes that followed a packet before a TLS upgrade (must be none). */
  drain(): Buffer {
    return this.consume(this.buffered);
  }
}

const EMPTY = Buffer.alloc(0);

export class ProtocolError extends Error {}

/**
 * The bytes of messages to relay as one write. Messages relayed untouched are consecutive views
 * into the chunk they arrived in: those are written as one view of it, without a copy.
 */
export function joinMessages(parts: Buffer[]): Buffer {
  if (parts.length === 1) return parts[0]!;
  const first = parts[0]!;
  let end = first.byteOffset + first.length;
  let contiguous = true;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.buffer !== first.buffer || part.byteOffset !== end) {
      contiguous = false;
      break;
    }
    end += part.length;
  }
  return contiguous ? Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset) : Buffer.concat(parts);
}

/** Sequential reader of a message body. */
export class BodyReader {
  offset = 0;
  constructor(private readonly body: Buffer) {}

  int16(): number {
    const v = this.body.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  int32(): number {
    const v = this.body.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  uint32(): number {
    const v = this.body.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  cstring(): string {
    const end = this.body.indexOf(0, this.offset);
    if (end < 0) throw new ProtocolError('unterminated string');
    const s = this.body.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return s;
  }

  bytes(n: number): Buffer {
    const b = this.body.subarray(this.offset, this.offset + n);
    this.offset += n;
    return b;
  }

  get done(): boolean {
    return this.offset >= this.body.length;
  }
}

/** Builds one typed message from parts. */
export class MessageWriter {
  private parts: Buffer[] = [];
  private size = 0;

  private add(b: Buffer) {
    this.parts.push(b);
    this.size += b.length;
    return this;
  }

  int16(v: number) {
    const b = Buffer.allocUnsafe(2);
    b.writeInt16BE(v);
    return this.add(b);
  }

  int32(v: number) {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32BE(v);
    return this.add(b);
  }

  cstring(s: string) {
    return this.add(Buffer.from(`${s}\0`, 'utf8'));
  }

  bytes(b: Buffer) {
    return this.add(b);
  }

  /** The message with type byte and length; `type` null for untyped startup packets. */
  finish(type: string | null): Buffer {
    const header = Buffer.allocUnsafe(type === null ? 4 : 5);
    if (type === null) header.writeInt32BE(this.size + 4, 0);
    else {
      header[0] = type.charCodeAt(0);
      header.writeInt32BE(this.size + 4, 1);
    }
    return Buffer.concat([header, ...this.parts], header.length + this.size);
  }
}

export interface StartupMessage {
  protocol: number;
  params: Record<string, string>;
}

/** Decodes the first packet of a connection: its code, and for a StartupMessage its parameters. */
export function decodeStartup(packet: Buffer): { code: number; startup?: StartupMessage; cancel?: { pid: number; secret: Buffer } } {
  const code = packet.readInt32BE(4);
  if (code === CANCEL_REQUEST) return { code, cancel: { pid: packet.readInt32BE(8), secret: Buffer.from(packet.subarray(12)) } };
  if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { code };
  const params: Record<string, string> = {};
  const reader = new BodyReader(packet.subarray(8));
  while (!reader.done) {
    const key = reader.cstring();
    if (!key) break;
    params[key] = reader.cstring();
  }
  return { code, startup: { protocol: code, params } };
}

export function encodeStartup(params: Record<string, string>, protocol = PROTOCOL_V3): Buffer {
  const w = new MessageWriter().int32(protocol);
  for (const [k, v] of Object.entries(params)) w.cstring(k).cstring(v);
  return w.cstring('').finish(null);
}

export function encodeCancel(pid: number, secret: Buffer): Buffer {
  return new MessageWriter().int32(CANCEL_REQUEST).int32(pid).bytes(secret).finish(null);
}

export function encodeSslRequest(): Buffer {
  return new MessageWriter().int32(SSL_REQUEST).finish(null);
}

export interface ErrorFields {
  severity?: 'ERROR' | 'FATAL';
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

/** ErrorResponse ('E'): severity (localized and not), SQLSTATE, message, optional detail and hint. */
export function errorResponse(fields: ErrorFields): Buffer {
  const severity = fields.severity ?? 'ERROR';
  const w = new MessageWriter();
  w.bytes(Buffer.from('S')).cstring(severity);
  w.bytes(Buffer.from('V')).cstring(severity);
  w.bytes(Buffer.from('C')).cstring(fields.code);
  w.bytes(Buffer.from('M')).cstring(fields.message);
  if (fields.detail) w.bytes(Buffer.from('D')).cstring(fields.detail);
  if (fields.hint) w.bytes(Buffer.from('H')).cstring(fields.hint);
  return w.bytes(Buffer.from([0])).finish('E');
}

/** Fields of an ErrorResponse or NoticeResponse by their one-letter codes. */
export function decodeFields(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  const reader = new BodyReader(body);
  while (!reader.done) {
    const code = body[reader.offset]!;
    reader.offset++;
    if (code === 0) break;
    out[String.fromCharCode(code)] = reader.cstring();
  }
  return out;
}

export function readyForQuery(status: string): Buffer {
  return new MessageWriter().bytes(Buffer.from(status)).finish('Z');
}

export function backendKeyData(pid: number, secret: Buffer): Buffer {
  return new MessageWriter().int32(pid).bytes(secret).finish('K');
}

export function query(text: string): Buffer {
  return new MessageWriter().cstring(text).finish('Q');
}

export function parse(name: string, text: string, paramTypes: number[] = []): Buffer {
  const w = new MessageWriter().cstring(name).cstring(text).int16(paramTypes.length);
  for (const t of paramTypes) w.int32(t);
  return w.finish('P');
}

export function bind(portal: string, statement: string): Buffer {
  return new MessageWriter().cstring(portal).cstring(statement).int16(0).int16(0).int16(0).finish('B');
}

export function describe(kind: 'S' | 'P', name: string): Buffer {
  return new MessageWriter().bytes(Buffer.from(kind)).cstring(name).finish('D');
}

export function execute(portal: string, maxRows = 0): Buffer {
  return new MessageWriter().cstring(portal).int32(maxRows).finish('E');
}

export interface ParseMessage {
  name: string;
  text: string;
  paramTypes: number[];
}

export function decodeParse(body: Buffer): ParseMessage {
  const r = new BodyReader(body);
  const name = r.cstring();
  const text = r.cstring();
  const n = r.int16();
  const paramTypes: number[] = [];
  for (let i = 0; i < n; i++) paramTypes.push(r.uint32());
  return { name, text, paramTypes };
}

export interface BindMessage {
  portal: string;
  statement: string;
  paramFormats: number[];
  /** Parameter values; null for SQL NULL. */
  params: (Buffer | null)[];
  resultFormats: number[];
}

export function decodeBind(body: Buffer): BindMessage {
  const r = new BodyReader(body);
  const portal = r.cstring();
  const statement = r.cstring();
  const nf = r.int16();
  const paramFormats: number[] = [];
  for (let i = 0; i < nf; i++) paramFormats.push(r.int16());
  const np = r.int16();
  const params: (Buffer | null)[] = [];
  for (let i = 0; i < np; i++) {
    const len = r.int32();
    params.push(len < 0 ? null : r.bytes(len));
  }
  const nr = r.int16();
  const resultFormats: number[] = [];
  for (let i = 0; i < nr; i++) resultFormats.push(r.int16());
  return { portal, statement, paramFormats, params, resultFormats };
}

export interface FieldDescription {
  name: string;
  tableOid: number;
  column: number;
  typeOid: number;
  typeSize: number;
  typeModifier: number;
  format: number;
}

export function decodeRowDescription(body: Buffer): FieldDescription[] {
  const r = new BodyReader(body);
  const n = r.int16();
  const fields: FieldDescription[] = [];
  for (let i = 0; i < n; i++) {
    fields.push({ name: r.cstring(), tableOid: r.uint32(), column: r.int16(), typeOid: r.uint32(), typeSize: r.int16(), typeModifier: r.int32(), format: r.int16() });
  }
  return fields;
}

/** Values of a DataRow; null for SQL NULL. */
export function decodeDataRow(body: Buffer): (Buffer | null)[] {
  const r = new BodyReader(body);
  const n = r.int16();
  const values: (Buffer | null)[] = [];
  for (let i = 0; i < n; i++) {
    const len = r.int32();
    values.push(len < 0 ? null : r.bytes(len));
  }
  return values;
}

export function encodeDataRow(values: (Buffer | null)[]): Buffer {
  const w = new MessageWriter().int16(values.length);
  for (const v of values) {
    if (v === null) w.int32(-1);
    else w.int32(v.length).bytes(v);
  }
  return w.finish('D');
}

/** Rows returned or affected, from a CommandComplete tag (`SELECT 3`, `INSERT 0 2`, `UPDATE 5`, `COPY 10`). */
export function rowsOfTag(tag: string): number | null {
  const m = /^(?:SELECT|UPDATE|DELETE|MERGE|FETCH|MOVE|COPY|INSERT \d+) (\d+)$/.exec(tag);
  return m ? Number(m[1]) : null;
}

export interface FunctionCallMessage {
  oid: number;
  argFormats: number[];
  /** Argument values; null for SQL NULL. */
  args: (Buffer | null)[];
  resultFormat: number;
}

/** FunctionCall ('F'): the function's OID, argument formats and values, result format. */
export function decodeFunctionCall(body: Buffer): FunctionCallMessage {
  const r = new BodyReader(body);
  const oid = r.uint32();
  const nf = r.int16();
  const argFormats: number[] = [];
  for (let i = 0; i < nf; i++) argFormats.push(r.int16());
  const na = r.int16();
  const args: (Buffer | null)[] = [];
  for (let i = 0; i < na; i++) {
    const len = r.int32();
    args.push(len < 0 ? null : r.bytes(len));
  }
  return { oid, argFormats, args, resultFormat: r.int16() };
}

/** FunctionCall ('F') with text arguments, as libpq's PQfn sends it. */
export function functionCall(oid: number, args: (string | null)[], resultFormat = 0): Buffer {
  const w = new MessageWriter().int32(oid).int16(1).int16(0).int16(args.length);
  for (const a of args) {
    if (a === null) w.int32(-1);
    else {
      const b = Buffer.from(a, 'utf8');
      w.int32(b.length).bytes(b);
    }
  }
  return w.int16(resultFormat).finish('F');
}
