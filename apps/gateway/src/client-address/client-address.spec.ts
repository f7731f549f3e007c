import { parseTrustProxy, resolveClientAddress, type TrustProxy } from './client-address';

const trust = (raw: string): TrustProxy | undefined => {
  const parsed = parseTrustProxy(raw);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

describe('TRUST_PROXY', () => {
  it('accepts ranges, single addresses and IPv6, or a hop count; 0 trusts nobody', () => {
    expect(trust('10.0.0.0/8, 192.168.1.7,fd00::/8')).toMatchObject({ kind: 'cidrs', ranges: [{ text: '10.0.0.0/8' }, { text: '192.168.1.7' }, { text: 'fd00::/8' }] });
    expect(trust('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(trust('0')).toBeUndefined();
  });

  it('names every bad range', () => {
    const parsed = parseTrustProxy('10.0.0.0/33,127.0.0.1/32,loopback,,300.1.1.1');
    expect(parsed.ok).toBe(false);
    const message = (parsed as { message: string }).message;
    expect(message).toContain('"10.0.0.0/33"');
    expect(message).toContain('"loopback"');
    expect(message).toContain('"300.1.1.1"');
    expect(message).not.toContain('"127.0.0.1/32"');
    expect(parseTrustProxy('33').ok).toBe(false);
  });
});

describe('resolveClientAddress', () => {
  const proxies = trust('127.0.0.1/32,10.0.0.0/8');

  it('with no trust, is the socket address whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress('127.0.0.1', '203.0.113.9', undefined)).toBe('127.0.0.1');
    expect(resolveClientAddress('::ffff:198.51.100.4', '203.0.113.9', undefined)).toBe('198.51.100.4');
    expect(resolveClientAddress(undefined, undefined, undefined)).toBe('unknown');
  });

  it('ignores the header of an untrusted peer', () => {
    expect(resolveClientAddress('198.51.100.4', '203.0.113.9', proxies)).toBe('198.51.100.4');
  });

  it('takes the right-most untrusted address behind trusted proxies (a forged left part is skipped)', () => {
    expect(resolveClientAddress('::ffff:127.0.0.1', '203.0.113.9', proxies)).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', '1.2.3.4, 203.0.113.9, 10.1.2.3', proxies)).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', ['1.2.3.4, 203.0.113.9', '10.1.2.3'], proxies)).toBe('203.0.113.9');
    expect(resolveClientAddress('127.0.0.1', '2001:db8::1', proxies)).toBe('2001:db8::1');
  });

  it('stops at the last trusted hop when the header is missing, exhausted or not an address', () => {
    expect(resolveClientAddress('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
    expect(resolveClientAddress('127.0.0.1', '10.0.0.1, 10.0.0.2', proxies)).toBe('10.0.0.1');
    expect(resolveClientAddress('127.0.0.1', 'not-an-ip, 10.0.0.2', proxies)).toBe('10.0.0.2');
  });

  it('with a hop count, takes the address that many hops from the right', () => {
    expect(resolveClientAddress('192.0.2.1', '1.1.1.1, 2.2.2.2, 3.3.3.3', trust('1'))).toBe('3.3.3.3');
    expect(resolveClientAddress('192.0.2.1', '1.1.1.1, 2.2.2.2, 3.3.3.3', trust('2'))).toBe('2.2.2.2');
    expect(resolveClientAddress('192.0.2.1', '3.3.3.3', trust('3'))).toBe('3.3.3.3');
  });
});
