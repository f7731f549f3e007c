import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

export const IdPrefixes = {
  policy: 'pol',
  violation: 'vio',
  event: 'evt',
  webhook: 'wh',
  database: 'db',
  session: 'sess',
  rule: 'rule',
  alert: 'alt',
  destination: 'dest',
  user: 'usr',
  apiKey: 'key',
  client: 'cli',
  report: 'rpt',
  reportSchedule: 'rps',
} as const;

export type IdKind = keyof typeof IdPrefixes;

let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

function encode(bytes: Uint8Array, chars: number): string {
  // Big-endian base32 of the byte string, `chars` characters long.
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < chars; i++) {
    out = CROCKFORD[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

/**
 * A ULID body (26 characters): 48 bits of milliseconds then 80 random bits, monotonic within
 * one millisecond in this process. Ids therefore sort by creation time, which keeps
 * "newest first" and cursor pagination cheap.
 */
export function ulid(now: number = Date.now()): string {
  let random: Uint8Array;
  if (now === lastTime) {
    random = new Uint8Array(lastRandom);
    for (let i = random.length - 1; i >= 0; i--) {
      if (random[i] === 255) random[i] = 0;
      else {
        random[i]++;
        break;
      }
    }
  } else {
    random = new Uint8Array(randomBytes(10));
  }
  lastTime = now;
  lastRandom = random;
  const time = new Uint8Array(6);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    time[i] = t % 256;
    t = Math.floor(t / 256);
  }
  return encode(time, 10) + encode(random, 16);
}

export function newId(kind: IdKind, now?: number): string {
  return `${IdPrefixes[kind]}_${ulid(now)}`;
}

/** The creation time encoded in an id made by `newId`, or null if it is not one. */
export function timeOfId(id: string): Date | null {
  const body = id.slice(id.indexOf('_') + 1);
  if (!/^[0-9a-hjkmnp-tv-z]{26}$/.test(body)) return null;
  let ms = 0;
  for (const ch of body.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(ch);
  return new Date(ms);
}
