import { randomBytes } from 'node:crypto';

/**
 * API keys look like `vigil_ak_<30 random base62><6 base62 CRC-32>`: the fixed prefix lets secret
 * scanners find a leaked key, and the checksum lets them (and the gateway, before any lookup)
 * tell a real key from a random string. 30 base62 characters carry 178 random bits.
 */
export const API_KEY_PREFIX = 'vigil_ak_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 30;
const CHECKSUM_CHARS = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS;
const SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

export function generateApiKey(): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let body = '';
  while (body.length < RANDOM_CHARS) {
    for (const byte of randomBytes(RANDOM_CHARS * 2)) {
      if (byte < 248 && body.length < RANDOM_CHARS) body += BASE62[byte % 62];
    }
  }
  return `${API_KEY_PREFIX}${body}${base62(crc32(body), CHECKSUM_CHARS)}`;
}

/** True when the value has the shape of an API key (it may still be unknown or revoked). */
export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX);
}

/** True when the value is well formed and its checksum matches. */
export function isWellFormedApiKey(value: string): boolean {
  if (value.length !== API_KEY_LENGTH || !SHAPE.test(value)) return false;
  const body = value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_CHARS);
  return value.slice(-CHECKSUM_CHARS) === base62(crc32(body), CHECKSUM_CHARS);
}

/** What a list may show of a key: the prefix and the first random characters. */
export function apiKeyDisplayPrefix(value: string): string {
  return value.slice(0, API_KEY_PREFIX.length + 6);
}
