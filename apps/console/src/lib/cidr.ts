/**
 * IPv4 and IPv6 addresses and CIDR ranges as the policy engine accepts them in `allowed_ips`:
 * decimal IPv4 without leading zeros, IPv6 with at most one `::` (an IPv4 tail allowed), a prefix
 * up to 32 or 128 with no leading zero; a bare address is a single host.
 */
function isV4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

function isV6(text: string): boolean {
  let head = text;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    if (!isV4(text.slice(lastColon + 1))) return false;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const doubles = head.split('::');
  if (doubles.length > 2) return false;
  const left = doubles[0] ? doubles[0].split(':') : [];
  const right = doubles.length === 2 && doubles[1] ? doubles[1].split(':') : [];
  const groups = left.length + right.length;
  if (doubles.length === 1 ? groups !== 8 : groups > 7) return false;
  return [...left, ...right].every((group) => /^[0-9a-fA-F]{1,4}$/.test(group));
}

/** Why this entry is not an address or CIDR range, or undefined when it is one. */
export function cidrError(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return 'is empty';
  const [address = '', prefix, ...rest] = text.split('/');
  if (rest.length) return 'has more than one "/"';
  const v6 = address.includes(':');
  if (v6 ? !isV6(address.split('%')[0] ?? '') : !isV4(address)) return `is not an IP${v6 ? 'v6' : 'v4'} address`;
  if (prefix !== undefined) {
    const max = v6 ? 128 : 32;
    if (!/^(0|[1-9]\d{0,2})$/.test(prefix) || Number(prefix) > max) return `has a prefix length that is not 0 to ${max}`;
  }
  return undefined;
}

/** The entries of a list typed one per line or separated by commas; blanks dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Each invalid entry of a typed CIDR list with its reason, in order. */
export function cidrListErrors(text: string): string[] {
  return splitList(text).flatMap((entry) => {
    const error = cidrError(entry);
    return error ? [`${entry} ${error}`] : [];
  });
}
