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
const lastRandom = new Uint8Array(10);
let randomPool = Buffer.alloc(0);
let randomOffset = 0;

/** Ten fresh random bytes, drawn from a pooled `randomBytes` buffer (one system call per 4 KiB). */
function freshRandom(into: Uint8Array): void {
  if (randomOffset + 10 > randomPool.length) {
    randomPool = randomBytes(4096);
    randomOffset = 0;
  }
  for (let i = 0; i < 10; i++) into[i] = randomPool[randomOffset + i]!;
  randomOffset += 10;
}

/** `chars` base32 characters of a non-negative integer below 2^53, most significant first. */
function encodeNumber(value: number, chars: number): string {
  let out = '';
  for (let i = chars - 1; i >= 0; i--) out += CROCKFORD[Math.floor(value / 2 ** (5 * i)) % 32];
  return out;
}

/**
 * A ULID body (26 characters): 48 bits of milliseconds then 80 random bits, monotonic within
 * one millisecond in this process. Ids therefore sort by creation time, which keeps
 * "newest first" and cursor pagination cheap. The 80 random bits are encoded as two 40-bit
 * halves (8 characters each), which stays within exact double arithmetic.
 */
export function ulid(now: number = Date.now()): string {
  const random = lastRandom;
  if (now === lastTime) {
    for (let i = random.length - 1; i >= 0; i--) {
      if (random[i] === 255) random[i] = 0;
      else {
        random[i]++;
        break;
      }
    }
  } else {
    freshRandom(random);
  }
  lastTime = now;
  return encodeUlid(now, random);
}

/** The ULID body of a millisecond time and 10 random bytes (exported for tests). */
export function encodeUlid(now: number, random: Uint8Array): string {
  const high = random[0]! * 2 ** 32 + ((random[1]! << 24) >>> 0) + (random[2]! << 16) + (random[3]! << 8) + random[4]!;
  const low = random[5]! * 2 ** 32 + ((random[6]! << 24) >>> 0) + (random[7]! << 16) + (random[8]! << 8) + random[9]!;
  return encodeNumber(now, 10) + encodeNumber(high, 8) + encodeNumber(low, 8);
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
