/**
 * IPv4 and IPv6 addresses and CIDR ranges, without a network library. Addresses are held as
 * 128-bit bigints; an IPv4 address is stored in its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so
 * an IPv4 range also matches a client that reports its address as ::ffff:a.b.c.d.
 */
export interface Cidr {
  text: string;
  network: bigint;
  mask: bigint;
  /**
   * For an IPv4 range (inside ::ffff:0:0/96): network and mask as unsigned 32-bit numbers, so the
   * per-event test needs no bigint arithmetic (see `cidrContainsV4`).
   */
  v4?: { network: number; mask: number };
}

const V4_MAPPED = 0xffffn << 32n;
const ALL = (1n << 128n) - 1n;

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    // Decimal only, no leading zeros: "010" is octal in some parsers and ambiguous here.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseV6(text: string): bigint | undefined {
  let head = text;
  let v4Tail: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    v4Tail = parseV4(text.slice(lastColon + 1));
    if (v4Tail === undefined) return undefined;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const doubles = head.split('::');
  if (doubles.length > 2) return undefined;
  const left = doubles[0] ? doubles[0].split(':') : [];
  const right = doubles.length === 2 && doubles[1] ? doubles[1].split(':') : [];
  const groups = left.length + right.length;
  if (doubles.length === 1 ? groups !== 8 : groups > 7) return undefined;
  const all = [...left, ...Array<string>(8 - groups).fill('0'), ...right];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (v4Tail !== undefined) value = (value & ~0xffffffffn) | v4Tail;
  return value;
}

/** An address as a 128-bit number (IPv4 mapped into ::ffff:0:0/96), or undefined if it is not one. */
export function parseIp(raw: string): bigint | undefined {
  const text = raw.trim().replace(/^\[|\]$/g, '');
  if (!text) return undefined;
  // A zone id (fe80::1%eth0) names an interface, not part of the address.
  const address = text.includes(':') ? text.split('%')[0]! : text;
  if (address.includes(':')) return parseV6(address);
  const v4 = parseV4(address);
  return v4 === undefined ? undefined : V4_MAPPED | v4;
}

/** Parses `a.b.c.d/n`, `x::y/n`, or a single address (a /32 or /128). */
export function parseCidr(raw: string): Cidr | undefined {
  const [addressPart, prefixPart, ...rest] = raw.trim().split('/');
  if (rest.length || !addressPart) return undefined;
  const address = parseIp(addressPart);
  if (address === undefined) return undefined;
  const isV4 = !addressPart.includes(':');
  const maxPrefix = isV4 ? 32 : 128;
  let prefix = maxPrefix;
  if (prefixPart !== undefined) {
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixPart)) return undefined;
    prefix = Number(prefixPart);
    if (prefix > maxPrefix) return undefined;
  }
  const bits = isV4 ? 96 + prefix : prefix;
  const mask = bits === 0 ? 0n : (ALL << BigInt(128 - bits)) & ALL;
  const cidr: Cidr = { text: raw.trim(), network: address & mask, mask };
  if (bits >= 96 && (cidr.network >> 32n) === 0xffffn) {
    cidr.v4 = { network: Number(cidr.network & 0xffffffffn), mask: Number(mask & 0xffffffffn) };
  }
  return cidr;
}

export function cidrContains(cidr: Cidr, address: bigint): boolean {
  return (address & cidr.mask) === cidr.network;
}

/** The IPv4 address of an IPv4-mapped address as an unsigned 32-bit number; null for other IPv6 addresses. */
export function ipv4Of(address: bigint): number | null {
  return (address >> 32n) === 0xffffn ? Number(address & 0xffffffffn) : null;
}

/**
 * `cidrContains` with the address's `ipv4Of` computed once per event: IPv4 ranges compare
 * numbers; an IPv4 range never contains a non-mapped IPv6 address.
 */
export function cidrContainsFast(cidr: Cidr, address: bigint, v4: number | null): boolean {
  if (cidr.v4) return v4 !== null && ((v4 & cidr.v4.mask) >>> 0) === cidr.v4.network;
  return (address & cidr.mask) === cidr.network;
}
