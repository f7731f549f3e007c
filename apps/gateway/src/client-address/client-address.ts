import { type Cidr, cidrContains, parseCidr, parseIp } from '@vigil/policy-engine';

/**
 * Which peers may tell the gateway who the client is (TRUST_PROXY): none (the socket's address is
 * the client), the proxies inside some address ranges, or a fixed number of proxy hops.
 */
export type TrustProxy = { kind: 'cidrs'; ranges: Cidr[] } | { kind: 'hops'; hops: number };

type Parsed = { ok: true; value: TrustProxy | undefined } | { ok: false; message: string };

/**
 * `10.0.0.0/8,192.168.1.7` (ranges or single addresses, IPv4 or IPv6) or a hop count `1`;
 * unset or `0` trusts nothing. Every bad item is named, so a typo cannot silently trust nobody
 * (or everybody).
 */
export function parseTrustProxy(raw: string): Parsed {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) return { ok: false, message: `must be a hop count from 0 to 32 or a comma-separated list of CIDR ranges (got ${hops})` };
    return { ok: true, value: hops === 0 ? undefined : { kind: 'hops', hops } };
  }
  const items = text.split(',').map((s) => s.trim());
  const ranges = items.map((item) => (item ? parseCidr(item) : undefined));
  const bad = items.filter((_item, i) => ranges[i] === undefined);
  if (bad.length) {
    const shown = bad.map((b) => `"${b.length > 45 ? `${b.slice(0, 42)}...` : b}"`).join(', ');
    return { ok: false, message: `has invalid CIDR ranges ${shown} (each must be an IPv4 or IPv6 address or range such as 10.0.0.0/8 or fd00::/8; or give a hop count)` };
  }
  return { ok: true, value: { kind: 'cidrs', ranges: ranges.filter((r): r is Cidr => r !== undefined) } };
}

/** Express's `trust proxy` as a function: whether the address `hop` steps from the socket is a trusted proxy. */
export function trustsHop(trust: TrustProxy | undefined): (address: string, hop: number) => boolean {
  if (!trust) return () => false;
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops;
  return (address) => {
    const ip = parseIp(address);
    return ip !== undefined && trust.ranges.some((range) => cidrContains(range, ip));
  };
}

/** `::ffff:203.0.113.7` and `203.0.113.7` are one client: one rate-limit bucket, one recorded address. */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * The client's address. Start at the socket's peer; while the address at hand is a trusted proxy,
 * step one entry left in X-Forwarded-For (proxies append the peer they saw, so entries right of
 * the first untrusted one were written by trusted proxies and the rest by whoever sent the
 * request). The first untrusted address is the client; with a hop count, the address that many
 * hops from the socket. An entry that is no IP address is not believed: the last trusted proxy
 * stands for the client then. An untrusted peer's X-Forwarded-For is never read.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: TrustProxy | undefined,
): string {
  const peer = normalize(socketAddress ?? 'unknown');
  const trusted = trustsHop(trust);
  if (!trust || !trusted(peer, 0)) return peer;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  let client = peer;
  for (const [i, candidate] of hops.entries()) {
    if (parseIp(candidate) === undefined) return client;
    client = normalize(candidate.replace(/^\[|\]$/g, ''));
    if (!trusted(client, i + 1)) return client;
  }
  // Every hop is trusted: the left-most address is as far as the header reaches.
  return client;
}
