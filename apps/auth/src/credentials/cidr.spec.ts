import { describe, expect, it } from 'vitest';
import { normalizeCidr } from './cidr';

describe('normalizeCidr', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0/8'],
    [' 192.168.1.7 ', '192.168.1.7/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:db8:0:0::1', '2001:db8::1/128'],
    ['::/0', '::/0'],
  ])('accepts %j as %s', (input, expected) => {
    expect(normalizeCidr(input)).toEqual({ ok: true, cidr: expected });
  });

  it.each([
    ['', 'is not an IPv4 or IPv6 CIDR range'],
    ['10.0.0', 'is not an IPv4 or IPv6 CIDR range'],
    ['010.0.0.1', 'is not an IPv4 or IPv6 CIDR range'],
    ['example.com/24', 'is not an IPv4 or IPv6 CIDR range'],
    ['10.0.0.0/33', 'prefix length must be 0..32'],
    ['10.0.0.0/-1', 'prefix length must be 0..32'],
    ['2001:db8::/129', 'prefix length must be 0..128'],
    ['10.1.2.3/8', 'has host bits set; the range is 10.0.0.0/8'],
    ['2001:db8::1/64', 'has host bits set; the range is 2001:db8::/64'],
  ])('refuses %j', (input, message) => {
    expect(normalizeCidr(input)).toEqual({ ok: false, message });
  });
});
