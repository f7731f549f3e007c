import { BodyReader, decodeFields, MessageWriter } from '../protocol/messages';

/**
 * ErrorResponse and NoticeResponse fields kept as the server sent them when a message is
 * scrubbed: severity, SQLSTATE, position, and the names of schema, table, column, type,
 * constraint and the server's source location. Names are not values.
 */
const KEPT = new Set(['S', 'V', 'C', 'P', 's', 't', 'c', 'd', 'n', 'F', 'L', 'R']);

export const WITHHELD_MESSAGE = 'message withheld by the Vigil proxy: the statement reads protected data';

/**
 * A message text without the values it may quote: every quoted part (`"..."`, `'...'`) and
 * everything after the first `: ` become `***` (`invalid input syntax for type integer: ***`).
 */
export function scrubText(text: string): string {
  let out = text.replace(/"(?:[^"]|"")*"?/g, '"***"').replace(/'(?:[^']|'')*'?/g, "'***'");
  const colon = out.indexOf(': ');
  if (colon >= 0) out = `${out.slice(0, colon)}: ***`;
  return out;
}

/**
 * The ErrorResponse ('E') or NoticeResponse ('N') of a statement that reads protected data,
 * without values: detail, hint, context (where), internal query and anything not listed in KEPT
 * are dropped; the message is scrubbed (scrubText), or replaced whole when it may be any text a
 * function chose (`whole`: notices, PL/pgSQL RAISE, messages raised inside a function).
 */
export function scrubNotice(type: 'E' | 'N', body: Buffer, opaque: boolean): Buffer {
  const fields = decodeFields(body);
  const code = fields.C ?? '';
  const whole = opaque || type === 'N' || code.startsWith('P0') || fields.W !== undefined;
  const w = new MessageWriter();
  for (const [key, value] of Object.entries(fields)) {
    if (KEPT.has(key)) w.bytes(Buffer.from(key)).cstring(value);
  }
  w.bytes(Buffer.from('M')).cstring(whole ? WITHHELD_MESSAGE : scrubText(fields.M ?? ''));
  return w.bytes(Buffer.from([0])).finish(type);
}

/** A NotificationResponse ('A') with its payload replaced by `***` (the channel is kept). */
export function maskNotification(body: Buffer): Buffer {
  const r = new BodyReader(body);
  const pid = r.int32();
  const channel = r.cstring();
  const payload = r.cstring();
  return new MessageWriter()
    .int32(pid)
    .cstring(channel)
    .cstring(payload ? '***' : '')
    .finish('A');
}
