import { BlockList, isIP } from 'node:net';

/**
 * Addresses Vigil never sends to while the egress guard is on: everything that is not a public
 * unicast address (RFC 6890 special-purpose ranges, cloud metadata, link-local, ULA, multicast),
 * plus the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo), whose embedded
 * address could be private. BlockList also matches IPv4 rules against IPv4-mapped IPv6 addresses.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", including 0.0.0.0 which connects to the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True for a literal IP address that is public unicast; false for anything else, including non-IPs. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return false;
  if (family === 6 && /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare)) {
    // Mapped IPv4 in dotted form: judge the IPv4 address.
    return isPublicAddress(bare.slice(7));
  }
  return !blocked.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}
