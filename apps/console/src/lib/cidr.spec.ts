import { cidrError, cidrListErrors, splitList } from './cidr';

describe('CIDR validation as typed', () => {
  it('accepts IPv4 and IPv6 addresses and ranges', () => {
    for (const ok of ['10.0.0.0/8', '192.168.1.7', '0.0.0.0/0', '::1', '2001:db8::/32', '::ffff:10.0.0.1/128', 'fe80::1%eth0']) expect(cidrError(ok)).toBeUndefined();
  });
  it('says what is wrong with anything else', () => {
    expect(cidrError('10.0.0.256')).toBe('is not an IPv4 address');
    expect(cidrError('010.0.0.1')).toBe('is not an IPv4 address');
    expect(cidrError('10.0.0.0/33')).toBe('has a prefix length that is not 0 to 32');
    expect(cidrError('2001:db8::/129')).toBe('has a prefix length that is not 0 to 128');
    expect(cidrError('1::2::3')).toBe('is not an IPv6 address');
    expect(cidrError('10.0.0.0/8/1')).toBe('has more than one "/"');
    expect(cidrError(' ')).toBe('is empty');
  });
  it('splits lists on lines and commas and reports each bad entry', () => {
    expect(splitList(' a,\n b ,,\n')).toEqual(['a', 'b']);
    expect(cidrListErrors('10.0.0.0/8\nbad, 1.2.3.4/40')).toEqual(['bad is not an IPv4 address', '1.2.3.4/40 has a prefix length that is not 0 to 32']);
  });
});
